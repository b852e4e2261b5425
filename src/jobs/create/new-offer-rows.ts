/**
 * What createOffers finds in its three sheets, checked before anything is sent: the New
 * Offers rows to create (each with its Creative Sets rows and their materials resolved through
 * the Creatives sheet), the rows already created whose tracking is still to set, and every
 * problem, worded per row. Reading only: nothing here sends or writes.
 */
import type {Material, TrackingUpdate} from '../../api/types';
import {
  CreativeSetDraft,
  MaterialRow,
  Resolution,
  checkCreativeSet,
  resolveCreative,
} from '../../rules/creative-set';
import {
  OfferBody,
  checkNewOffer,
  duplicateNameProblems,
} from '../../rules/offer';
import {TRACKING_FIELDS, checkTracking} from '../../rules/tracking';
import {asShown, excerpt} from '../../rules/values';
import {ACCOUNT, accountCell, accountOfCell} from '../../sheets/accounts';
import {isEmptyCell} from '../../sheets/cell';
import type {CodecContext} from '../../sheets/codec';
import {
  decodeRow,
  formulaErrors,
  isBlankRow,
  withFormulaErrors,
} from '../../sheets/rows';
import {SYNC_MESSAGE, SYNC_STATUS} from '../../sheets/schema';
import {FIRST_ROW, Table, cellOf, sheetRow} from '../../sheets/table';
import {
  CreatedOffers,
  MadeFrom,
  trackingContent,
} from '../../state/created-offers';
import {RowAccount, typedAccount} from './row-account';
import {SentCreate, sentCreates, sentFor} from './sent-creates';

export type Tracking = Omit<TrackingUpdate, 'offer_id'>;

export interface SetPlan {
  /** Creative Sets data row. */
  index: number;
  /** Whose creative set it is: its offer's (undefined while the offer's is unknown). */
  account?: string;
  /** Its own problems, full messages. */
  problems: string[];
  draft?: CreativeSetDraft;
  /** Each creative of the draft, with the Creatives row it names. */
  materials: Array<{item: string; material: MaterialRow}>;
}

export interface OfferPlan {
  /** New Offers data row. */
  index: number;
  name: string;
  /**
   * The account that creates it: the one that sent its unsettled create, else its `account`
   * cell's, else the acting account's; undefined (and a problem said) when it names none.
   */
  account?: string;
  /** Full messages; none means the row may be sent. */
  problems: string[];
  body?: OfferBody;
  /** What the row has that the body leaves out, and why: its OK message ends with them. */
  notes: string[];
  tracking?: Tracking;
  sets: SetPlan[];
  /** A create of this row was sent before and its answer never recorded. */
  sent: boolean;
  /** The offer_name that create carried (its outbox entry's record). */
  sentAs?: string;
}

export interface CreatedRow {
  index: number;
  offerId: number;
  /** The account that made the offer, whose keys set its tracking. */
  account: string;
  tracking?: Tracking;
  /** Why its tracking cannot be sent. */
  problems: string[];
}

export interface Plan {
  /** Rows without an offer_id. */
  candidates: OfferPlan[];
  /** Rows with the offer_id of an offer made from them whose work is not finished (not OK). */
  created: CreatedRow[];
  /** Rows with the offer_id of an offer made from them and OK: nothing to do. */
  done: number;
  /** Rows an earlier version of the add-on created (see `madeBefore`): to be remembered. */
  legacy: Array<MadeFrom & {offer_id: number; account?: string}>;
  /** Rows refused before anything else: unreadable offer_id, Creative Sets rows of no offer. */
  refused: Array<{table: 'offers' | 'sets'; index: number; message: string}>;
  /** Unsettled creates no row resumes (their rows deleted): nothing will send them again. */
  unclaimed: SentCreate[];
}

/**
 * What the add-on remembers of the rows: the offers it made from them, the creates out whose
 * outcome is unknown, and the offers whose tracking is out (by offer_id; both the outbox's).
 */
export interface Known {
  made: CreatedOffers | undefined;
  sent: readonly SentCreate[];
  tracking: ReadonlySet<string>;
}

export interface Sheets {
  offers: Table<never>;
  sets: Table<never>;
  creatives: Table<Material>;
}

/**
 * A row's values as the rules take them: decoded where the cell reads as its column's type,
 * the cell as typed where it does not (the rules then say what is wrong with it, or take the
 * reader's own problem: `unread`, field -> reason).
 */
function readRow(
  table: Table<never>,
  index: number,
  context: CodecContext,
): {values: Record<string, unknown>; unread: Record<string, string>} {
  const headers = table.schema.columns.map(c => c.header);
  const {values, problems} = decodeRow(table, index, headers, context);
  for (const header of headers) {
    if (values[header] === undefined)
      values[header] = cellOf(table, index, header);
  }
  return {values, unread: problems};
}

/**
 * target_goal cells that hold a number under a percent format (150% typed into a cell that
 * was not plain text holds 1.5): row -> the goal as typed ("150%"), for the rules to read as
 * meant. Formats are read (one call) only when some row's goal is a number.
 */
function percentGoals(
  offers: Table<never>,
  rows: readonly number[],
): Map<number, string> {
  const goals = new Map<number, string>();
  const numeric = rows.filter(
    i => typeof cellOf(offers, i, 'target_goal') === 'number',
  );
  const column = offers.position.get('target_goal');
  if (numeric.length === 0 || column === undefined) return goals;
  const top = Math.min(...numeric);
  const formats = offers.sheet.readNumberFormats(
    FIRST_ROW + top,
    column + 1,
    Math.max(...numeric) - top + 1,
    1,
  );
  for (const i of numeric) {
    if (!formats[i - top]?.[0]?.includes('%')) continue;
    const value = cellOf(offers, i, 'target_goal') as number;
    goals.set(i, `${asShown(value * 100)}%`);
  }
  return goals;
}

function dataRows(table: Table<never> | Table<Material>): number[] {
  return table.values.map((_, i) => i).filter(i => !isBlankRow(table, i));
}

function textCell(
  table: Table<never> | Table<Material>,
  index: number,
  header: string,
): string {
  return String(cellOf(table, index, header)).trim();
}

/** The row's tracking, when any of its columns is filled. */
function trackingOf(values: Record<string, unknown>): {
  tracking?: Tracking;
  problems: string[];
} {
  if (TRACKING_FIELDS.every(f => isEmptyCell(values[f]))) return {problems: []};
  const input = {
    tracking_method: values.tracking_method ?? null,
    click_url: values.click_url ?? null,
    support_server_click: values.support_server_click ?? null,
  };
  const problems = Object.values(checkTracking(input));
  if (problems.length > 0) return {problems};
  const text = (v: unknown) =>
    v === null || v === undefined ? '' : String(v).trim();
  return {
    problems,
    tracking: {
      tracking_method: text(input.tracking_method),
      click_url: text(input.click_url),
      support_server_click: text(input.support_server_click),
    },
  };
}

/**
 * A Creatives row and the account its `account` cell names: undefined for an empty cell (the
 * material is then the account's of the offer that uses it, and uploaded to that account),
 * null for a cell that names no account (no offer's).
 */
type AccountMaterial = MaterialRow & {account: string | null | undefined};

function materialRows(creatives: Table<Material>): AccountMaterial[] {
  return dataRows(creatives).map(index => {
    const cell = cellOf(creatives, index, ACCOUNT);
    const owner = typedAccount(cell, undefined, 'uploads the material');
    return {
      row: sheetRow(index),
      file: textCell(creatives, index, 'file'),
      creative_md5: textCell(creatives, index, 'creative_md5'),
      creative_name: textCell(creatives, index, 'creative_name'),
      account:
        'account' in owner
          ? owner.account
          : accountOfCell(cell) === undefined
            ? undefined
            : null,
    };
  });
}

/**
 * The material an item of a creative set names among its account's Creatives rows (and those
 * of no account yet; all rows while the set's account is unknown); one of another account's
 * is named as such.
 */
function resolveOwn(
  item: string,
  materials: readonly AccountMaterial[],
  account: string | undefined,
): Resolution {
  if (account === undefined) return resolveCreative(item, materials);
  const found = resolveCreative(
    item,
    materials.filter(m => m.account === undefined || m.account === account),
  );
  const elsewhere = found.ok ? found : resolveCreative(item, materials);
  if (found.ok || !elsewhere.ok) return found;
  return {
    ok: false,
    problem: `creatives names ${excerpt(item)}, the material of Creatives row ${elsewhere.material.row}, which is not account ${accountCell(account)}'s: a creative set uses its own account's materials (add a row of that account for it)`,
  };
}

/** The data row of a Creatives sheet row. */
export function materialIndex(material: MaterialRow): number {
  return material.row - FIRST_ROW;
}

function planSet(
  sets: Table<never>,
  index: number,
  owner: {account?: string; problem?: string},
  materials: readonly AccountMaterial[],
  context: CodecContext,
): SetPlan {
  const {problems, draft} = checkCreativeSet(
    readRow(sets, index, context).values,
  );
  const plan: SetPlan = {
    index,
    ...(owner.account === undefined ? {} : {account: owner.account}),
    problems: withFormulaErrors(formulaErrors(sets, index), {
      ...(owner.problem === undefined ? {} : {[ACCOUNT]: owner.problem}),
      ...problems,
    }),
    materials: [],
  };
  if (!draft) return plan;
  for (const item of draft.creatives) {
    const found = resolveOwn(item, materials, owner.account);
    if (!found.ok) {
      plan.problems.push(found.problem);
    } else if (found.material.creative_md5 && !found.material.creative_name) {
      plan.problems.push(
        `creatives names ${excerpt(item)}: Creatives row ${found.material.row} has no creative_name; refresh the creative materials to fill it`,
      );
    } else {
      plan.materials.push({item, material: found.material});
    }
  }
  if (plan.problems.length === 0) plan.draft = draft;
  return plan;
}

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
 * Whether a row with an offer_id was created by the add-on when no record of the offers it
 * made is kept (`made` undefined: an earlier version, or the state sheet deleted): only a row
 * it wrote says so, OK with its message ("Offer ID created", "Offer ID exists"), or ERROR with
 * the message of a tracking not set ("Offer ID exists (offer_id filled in), but ..."), which
 * then resumes at its tracking. A row copied from Offers lacks that message; a row without
 * both sends nothing until the user decides (see readPlan).
 */
function madeBefore(
  made: CreatedOffers | undefined,
  offers: Table<never>,
  index: number,
  offerId: number,
): boolean {
  const message = String(cellOf(offers, index, SYNC_MESSAGE));
  const status = cellOf(offers, index, SYNC_STATUS);
  return (
    made === undefined &&
    ((status === 'OK' && message.startsWith(`Offer ${offerId} `)) ||
      (status === 'ERROR' &&
        message.startsWith(`Offer ${offerId} exists (offer_id filled in), `)))
  );
}

/**
 * Why a row may not resume the offer its offer_id names, or undefined when it may: the offer
 * was made from this row (same offer_name and campaign_id), and no row above claimed it.
 */
function foreignOffer(
  made: CreatedOffers | undefined,
  claimed: ReadonlySet<number>,
  offerId: number,
  from: MadeFrom,
): string | undefined {
  const entry = made?.[String(offerId)];
  const fix = `clear offer_id to create a new offer from this row, or edit offer ${offerId} in the Offers sheet. Nothing was sent.`;
  if (!entry) {
    return `offer_id ${offerId}: this sheet has no record of creating offer ${offerId} from this row (a row copied from Offers, say), so nothing is sent for it: ${fix}`;
  }
  if (
    entry.offer_name !== from.offer_name ||
    entry.campaign_id !== from.campaign_id
  ) {
    return `offer_id ${offerId}: offer ${offerId} was created from the row of offer_name ${entry.offer_name} in campaign ${entry.campaign_id}, not from this one (a copied row?): ${fix}`;
  }
  if (claimed.has(offerId)) {
    return `offer_id ${offerId} is also on a row above, which offer ${offerId} was created from (a copied row?): ${fix}`;
  }
  return undefined;
}

/**
 * A row with an offer_id: done, resumed (its tracking), or refused. `claimed`: the offers rows
 * above have resumed or finished.
 */
function planMade(
  plan: Plan,
  row: {
    offers: Table<never>;
    index: number;
    values: Record<string, unknown>;
    account: RowAccount;
    made: CreatedOffers | undefined;
    claimed: Set<number>;
    /** A tracking of its offer is out, its outcome unknown. */
    trackingOut: boolean;
  },
  tracking: {tracking?: Tracking; problems: string[]},
  context: CodecContext,
): void {
  const {offers, index, values, made, claimed} = row;
  const resume = (offerId: number, what = tracking) => {
    if ('account' in row.account) {
      plan.created.push({
        index,
        offerId,
        account: row.account.account,
        ...what,
      });
    } else {
      plan.refused.push({
        table: 'offers',
        index,
        message: `Offer ${offerId} exists, but its tracking cannot be sent: ${row.account.problem}. Nothing was sent.`,
      });
    }
  };
  const offerId = values.offer_id;
  if (typeof offerId !== 'number' || !Number.isSafeInteger(offerId)) {
    plan.refused.push({
      table: 'offers',
      index,
      message: `offer_id ${excerpt(textCell(offers, index, 'offer_id'))} is not an offer id: clear it to create the offer, or write back the id of the offer Offer Desk created from this row.`,
    });
    return;
  }
  const from = {
    offer_name: textCell(offers, index, 'offer_name'),
    campaign_id: Number(values.campaign_id),
  };
  if (!claimed.has(offerId) && madeBefore(made, offers, index, offerId)) {
    plan.legacy.push({
      offer_id: offerId,
      ...from,
      ...('account' in row.account ? {account: row.account.account} : {}),
    });
    claimed.add(offerId);
    if (cellOf(offers, index, SYNC_STATUS) === 'OK') plan.done++;
    else resume(offerId);
    return;
  }
  const foreign = foreignOffer(made, claimed, offerId, from);
  if (foreign) {
    plan.refused.push({table: 'offers', index, message: foreign});
    return;
  }
  claimed.add(offerId);
  const entry = made?.[String(offerId)];
  const content =
    tracking.tracking &&
    JSON.stringify(trackingContent(tracking.tracking, context));
  // A tracking the API refused is not sent again unchanged: its row already says why.
  if (
    cellOf(offers, index, SYNC_STATUS) === 'OK' ||
    (content !== undefined && content === JSON.stringify(entry?.refused))
  ) {
    plan.done++;
  } else if (
    content !== undefined &&
    content === JSON.stringify(entry?.rows) &&
    !row.trackingOut
  ) {
    // What the offer is known to hold already (no other tracking of it in flight): sending
    // it would only restart its click-URL test.
    resume(offerId, {problems: tracking.problems});
  } else {
    resume(offerId);
  }
}

/**
 * The Creative Sets rows, each planned under the offer_name it names, as the account of that
 * New Offers row (`accounts`: offer_name -> its account, undefined where it names none). A row
 * that names no New Offers row, or one of another account, is refused; its empty `account`
 * cell is its offer's.
 */
function planSets(
  plan: Plan,
  sets: Table<never>,
  accounts: ReadonlyMap<string, string | undefined>,
  materials: readonly AccountMaterial[],
  context: CodecContext,
): Map<string, SetPlan[]> {
  const setsByOffer = new Map<string, SetPlan[]>();
  for (const index of dataRows(sets)) {
    const name = textCell(sets, index, 'offer_name');
    const cell = cellOf(sets, index, ACCOUNT);
    const offer = accounts.get(name);
    const typed =
      accountOfCell(cell) === undefined
        ? {account: offer}
        : typedAccount(cell, offer, 'creates the creative set');
    if (
      'account' in typed &&
      typed.account !== undefined &&
      offer !== undefined &&
      typed.account !== offer
    ) {
      plan.refused.push({
        table: 'sets',
        index,
        message: `offer_name ${excerpt(name, false)} matches no New Offers row of account ${accountCell(typed.account)} (its row is account ${accountCell(offer)}'s): check the name and the account, or delete the row.`,
      });
      continue;
    }
    if (!accounts.has(name) || name === '') {
      plan.refused.push({
        table: 'sets',
        index,
        message: name
          ? `offer_name ${excerpt(name, false)} matches no New Offers row: check the name, or delete the row.`
          : 'offer_name is empty: write the offer_name of the New Offers row this creative set belongs to.',
      });
      continue;
    }
    setsByOffer.set(name, [
      ...(setsByOffer.get(name) ?? []),
      planSet(sets, index, typed, materials, context),
    ]);
  }
  return setsByOffer;
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
 * The acting account ('*' for every account), whose rows those with an empty `account` cell
 * are, and the sub-accounts a cell may name (known-accounts.ts).
 */
export interface Accounts {
  acting: string;
  known: readonly string[];
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
