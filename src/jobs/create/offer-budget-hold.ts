/**
 * The budget guard in createOffers (issues 28, 34): an offer created without a daily_cap or a
 * total_budget has no limit, as a cap a push sets to OPEN, and the daily caps new offers add
 * are new money, held past the ceiling of their currency as a push's raise is; so they wait
 * for the same one Yes/No question (jobs/push/budget-hold.ts). No, or no one to answer (a trigger), creates none of
 * them: their rows stay EDITED with why and how to create them. A preview names the caps
 * every create sends, and asks nothing.
 */
import type {CreateOfferRequest} from '../../api/types';
import {formatAmount} from '../../rules/budget-guard';
import {accountOfCell} from '../../sheets/accounts';
import {OFFERS} from '../../sheets/schemas/offers';
import {cellOf, openTable, sheetRow} from '../../sheets/table';
import {counted} from '../../text/wording';
import {SettingsStore} from '../settings-store';
import type {CreateRun} from './context';
import type {OfferPlan} from './new-offer-plan';

const GUARD_TITLE = 'Create offers with no budget limit?';
const CEILING_TITLE = 'Create offers past your daily cap ceiling?';
/** Held rows listed in the question; the rows tell the rest. */
const LISTED = 15;

type Caps = Pick<CreateOfferRequest, 'daily_cap' | 'total_budget'>;

/** "daily_cap 100, total_budget no limit": the caps a create sends. */
export function capsText(body: Caps): string {
  const cap = (value: number | undefined) =>
    value === undefined ? 'no limit' : formatAmount(value);
  return `daily_cap ${cap(body.daily_cap)}, total_budget ${cap(body.total_budget)}`;
}

/** Why the guard holds a row's create; undefined where it does not. */
export type GuardReason = (c: OfferPlan) => string | undefined;

export const NO_LIMIT = 'it has no daily cap or no total budget (no limit)';

/**
 * The currency of each account's new offers: the one its offers in the Offers sheet show (the
 * create request of 4.2 carries none; an account's offers are assumed to share its currency).
 * An account whose rows show none, or several, is not in the map: no ceiling applies to it.
 */
function accountCurrencies(run: CreateRun): Map<string, string> {
  const table = openTable(run.job.workbook, OFFERS, {create: false});
  const seen = new Map<string, Set<string>>();
  table?.values.forEach((_, i) => {
    const account = accountOfCell(cellOf(table, i, 'account')) ?? '';
    const currency = String(cellOf(table, i, 'currency') ?? '')
      .trim()
      .toUpperCase();
    if (!currency) return;
    seen.set(account, (seen.get(account) ?? new Set()).add(currency));
  });
  return new Map(
    [...seen].flatMap(([account, found]) =>
      found.size === 1 ? [[account, [...found][0]] as const] : [],
    ),
  );
}

/**
 * Why the guard holds each create, with holding on (the user's settings, read once per run): a
 * cap with no limit; or the money daily caps the run's creates add in one currency (each new
 * offer's cap is new money: a clone's too) pass the user's ceiling of that currency, which
 * holds every create of that currency with a money daily cap.
 */
export function guardHolds(
  run: CreateRun,
  candidates: readonly OfferPlan[],
): GuardReason {
  const guard = new SettingsStore(run.job.platform.userProperties).guard();
  if (!guard.holding) return () => undefined;
  const currencies = accountCurrencies(run);
  const currencyOf = (c: OfferPlan) => currencies.get(c.account ?? '');
  const money = (c: OfferPlan) =>
    !c.sent &&
    c.body?.daily_cap !== undefined &&
    (c.body.daily_cap_type ?? 'BUDGET') === 'BUDGET'
      ? Number(c.body.daily_cap)
      : 0;
  const added = new Map<string, number>();
  for (const c of candidates) {
    const currency = currencyOf(c);
    if (currency && money(c) > 0)
      added.set(currency, (added.get(currency) ?? 0) + money(c));
  }
  return c => {
    if (c.body?.daily_cap === undefined || c.body.total_budget === undefined)
      return NO_LIMIT;
    const currency = currencyOf(c);
    const ceiling =
      currency === undefined ? undefined : guard.ceilings[currency];
    const total = currency === undefined ? 0 : (added.get(currency) ?? 0);
    if (ceiling === undefined || money(c) === 0 || total <= ceiling)
      return undefined;
    return `the daily caps this run's new offers add come to ${currency} ${formatAmount(total)}, past your ${currency} ceiling of ${formatAmount(ceiling)}`;
  };
}

const rowOf = (c: OfferPlan) => `New Offers row ${sheetRow(c.index)}`;

/**
 * The rows to create after the guard's question, and the summary's sentence on the held
 * ones. A row whose create an earlier run sent is never held: its offer may exist already,
 * and only the lookup of its name tells.
 */
export function guardCreates(
  run: CreateRun,
  sendable: readonly OfferPlan[],
): {send: OfferPlan[]; note: string} {
  const reason = guardHolds(run, sendable);
  const held = sendable.filter(c => !c.sent && reason(c) !== undefined);
  if (held.length === 0) return {send: [...sendable], note: ''};
  const limitless = held.every(c => reason(c) === NO_LIMIT);
  const lines = held.map(
    c =>
      `${rowOf(c)}, offer ${c.name}: ${capsText(c.body!)}${limitless ? '' : ` (${reason(c)})`}`,
  );
  const offers = counted(held.length, 'offer');
  const answer = run.job.platform.ui.confirm(
    limitless ? GUARD_TITLE : CEILING_TITLE,
    [
      limitless
        ? `The budget guard holds ${offers} of this run, as ${held.length === 1 ? 'it has' : 'they have'} no daily cap or no total budget (no limit):`
        : `The budget guard holds ${offers} of this run:`,
      ...lines.slice(0, LISTED).map(line => `• ${line}`),
      ...(lines.length > LISTED ? [`… and ${lines.length - LISTED} more`] : []),
      '',
      'Yes creates them with the rest. No creates the rest only: the held rows stay EDITED.',
    ].join('\n'),
  );
  if (answer === true) {
    return {
      send: [...sendable],
      note: limitless
        ? ` You confirmed ${offers} with no budget limit past the budget guard.`
        : ` You confirmed ${offers} past the budget guard.`,
    };
  }
  const because =
    answer === false
      ? 'you answered No'
      : 'no one could answer (a scheduled run, or a window that cannot show a question)';
  for (const c of held) {
    const why = reason(c)!;
    run.offers.status(
      c.index,
      'EDITED',
      why === NO_LIMIT
        ? `Held by the budget guard (${capsText(c.body!)}): not created, as ${because}. Run Create new offers again and answer Yes to create it, type a daily_cap and a total_budget, or turn holding off in the sidebar's settings. Nothing was sent.`
        : `Held by the budget guard (${capsText(c.body!)}: ${why}): not created, as ${because}. Run Create new offers again and answer Yes to create it, lower the daily_cap, raise the ceiling or turn holding off in the sidebar's settings. Nothing was sent.`,
    );
  }
  const rows = held.map(c => sheetRow(c.index));
  return {
    send: sendable.filter(c => !held.includes(c)),
    note: ` The budget guard held ${offers}${limitless ? ' with no budget limit' : ''} (New Offers ${rows.length === 1 ? 'row' : 'rows'} ${rows.join(', ')}): not created, as ${because}.`,
  };
}
