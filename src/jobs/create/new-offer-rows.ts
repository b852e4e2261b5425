/**
 * What createOffers finds in its three sheets, checked before anything is sent: the New
 * Offers rows to create (each with its Creative Sets rows and their materials resolved through
 * the Creatives sheet), the rows already created whose tracking is still to set, and every
 * problem, worded per row. Reading only: nothing here sends or writes. This module reads the
 * New Offers rows; new-offer-sets.ts the Creative Sets rows and their materials,
 * new-offer-made.ts the rows with an offer_id, new-offer-cells.ts the cells as the rules take
 * them; new-offer-plan.ts is the plan's shape.
 */
import {checkNewOffer, duplicateNameProblems} from '../../rules/offer';
import {excerpt} from '../../rules/values';
import {ACCOUNT} from '../../sheets/accounts';
import {isEmptyCell} from '../../sheets/cell';
import type {CodecContext} from '../../sheets/codec';
import {formulaErrors, withFormulaErrors} from '../../sheets/rows';
import {Table, cellOf, sheetRow} from '../../sheets/table';
import {RowAccount, typedAccount} from './row-account';
import {SentCreate, sentCreates, sentFor} from './sent-creates';
import {
  dataRows,
  percentGoals,
  readRow,
  textCell,
  trackingOf,
} from './new-offer-cells';
import {planMade} from './new-offer-made';
import type {
  Accounts,
  Known,
  Plan,
  SetPlan,
  Sheets,
  Tracking,
} from './new-offer-plan';
import {materialRows, planSets} from './new-offer-sets';

/**
 * The account of a New Offers row: the one its unsettled create was sent as (`sent`), else
 * the one with which the offer of its offer_id was made (`madeBy`), else its `account` cell's
 * or the acting account's. A create or a tracking is resumed with the keys that began it,
 * whichever account acts now.
 */
function offerAccount(
  offers: Table<never>,
  index: number,
  accounts: Accounts,
  known: Known,
): RowAccount {
  const offerId = cellOf(offers, index, 'offer_id');
  const typed = typedAccount(
    cellOf(offers, index, ACCOUNT),
    accounts.acting,
    'creates the offer',
    accounts.known,
  );
  const madeBy = isEmptyCell(offerId)
    ? sentFor(known.sent, textCell(offers, index, 'offer_name'), typed)?.account
    : known.made?.[String(offerId)]?.account;
  return madeBy !== undefined ? {account: madeBy} : typed;
}

/**
 * A row without an offer_id: a candidate with every problem it has (its own, a twin's name,
 * its creative sets'), and, when it has none, what its create sends. A row whose create was
 * sent before and never answered says so in its message (`sent`, `sentAs`).
 */
function planCandidate(
  plan: Plan,
  row: {
    sheets: Sheets;
    index: number;
    values: Record<string, unknown>;
    unread: Record<string, string>;
    tracking: {tracking?: Tracking; problems: string[]};
    twin: string | undefined;
    offerSets: SetPlan[];
    account: RowAccount;
    /** The row's unsettled create, of its offer_name or the one it had (SentCreates). */
    sent: SentCreate | undefined;
  },
): void {
  const {offers, sets} = row.sheets;
  const {index, tracking, offerSets} = row;
  const name = textCell(offers, index, 'offer_name');
  const check = checkNewOffer(row.values, row.unread);
  const errors = formulaErrors(offers, index);
  const problems = [
    ...withFormulaErrors(errors, check.problems),
    ...tracking.problems,
  ];
  if (row.twin && !check.problems.offer_name) problems.push(row.twin);
  if ('problem' in row.account) problems.push(row.account.problem);
  if (offerSets.length === 0 && name !== '') {
    problems.push(
      `creative_sets: no Creative Sets row has offer_name ${excerpt(name, false)}: add at least one (creative_set_name, geos, ad_outputs, creatives)`,
    );
  }
  for (const set of offerSets) {
    if (set.problems.length === 0) continue;
    const label = textCell(sets, set.index, 'creative_set_name');
    problems.push(
      `creative set ${excerpt(label)} (Creative Sets row ${sheetRow(set.index)}): ${set.problems.join('; ')}`,
    );
  }
  const sentAs = row.sent?.record;
  plan.candidates.push({
    index,
    name,
    ...('account' in row.account ? {account: row.account.account} : {}),
    problems,
    ...(problems.length === 0
      ? {body: check.body, tracking: tracking.tracking}
      : {}),
    notes: check.notes,
    sets: offerSets,
    sent: row.sent !== undefined,
    ...(sentAs === undefined ? {} : {sentAs}),
  });
}

/**
 * Reads and checks the three sheets. `made`: the offers the add-on made from rows (undefined
 * when this spreadsheet has no such memory yet); `sent`: the creates out whose outcome is
 * unknown (the outbox's); `rowAccounts`: the acting account and the sub-accounts a cell may
 * name.
 */
export function readPlan(
  sheets: Sheets,
  context: CodecContext,
  known: Known,
  rowAccounts: Accounts,
): Plan {
  const {made} = known;
  const {offers} = sheets;
  const plan: Plan = {
    candidates: [],
    created: [],
    done: 0,
    legacy: [],
    refused: [],
    unclaimed: [],
  };
  const claimed = new Set<number>();
  const offerRows = dataRows(offers);
  const named = offerRows.map(index => ({
    row: sheetRow(index),
    name: textCell(offers, index, 'offer_name'),
    account: offerAccount(offers, index, rowAccounts, known),
  }));
  const sentOf = sentCreates(known.sent, named);
  // Names are unique in the sheet (twins are refused), so a name tells its row's account.
  const accounts = new Map<string, string | undefined>();
  for (const {name, account} of named) {
    if (!accounts.has(name))
      accounts.set(name, 'account' in account ? account.account : undefined);
  }
  const setsByOffer = planSets(
    plan,
    sheets.sets,
    accounts,
    materialRows(sheets.creatives),
    context,
  );
  const twins = duplicateNameProblems(named);
  const percents = percentGoals(offers, offerRows);
  offerRows.forEach((index, n) => {
    const {account} = named[n];
    const {values, unread} = readRow(offers, index, context);
    const percent = percents.get(index);
    if (percent !== undefined) values.target_goal = percent;
    const tracking = trackingOf(values);
    if (!isEmptyCell(cellOf(offers, index, 'offer_id'))) {
      planMade(
        plan,
        {
          offers,
          index,
          values,
          account,
          made,
          claimed,
          trackingOut: known.tracking.has(String(values.offer_id)),
        },
        tracking,
        context,
      );
      return;
    }
    planCandidate(plan, {
      sheets,
      index,
      values,
      unread,
      tracking,
      twin: twins.get(sheetRow(index)),
      offerSets: setsByOffer.get(textCell(offers, index, 'offer_name')) ?? [],
      account,
      sent: sentOf(named[n], Number(values.campaign_id)),
    });
  });
  plan.unclaimed = known.sent.filter(e => !sentOf.claimed.has(e));
  return plan;
}
