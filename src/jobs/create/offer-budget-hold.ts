/**
 * The budget guard in createOffers (issue 28): an offer created without a daily_cap or a
 * total_budget has no limit, as a cap a push sets to OPEN, so it waits for the same one Yes/No
 * question (jobs/push/budget-hold.ts). No, or no one to answer (a trigger), creates none of
 * them: their rows stay EDITED with why and how to create them. A preview names the caps
 * every create sends, and asks nothing.
 */
import type {CreateOfferRequest} from '../../api/types';
import {formatAmount} from '../../rules/budget-guard';
import {sheetRow} from '../../sheets/table';
import {counted} from '../../text/wording';
import {SettingsStore} from '../settings-store';
import type {CreateRun} from './context';
import type {OfferPlan} from './new-offer-rows';

const GUARD_TITLE = 'Create offers with no budget limit?';
/** Held rows listed in the question; the rows tell the rest. */
const LISTED = 15;

type Caps = Pick<CreateOfferRequest, 'daily_cap' | 'total_budget'>;

/** "daily_cap 100, total_budget no limit": the caps a create sends. */
export function capsText(body: Caps): string {
  const cap = (value: number | undefined) =>
    value === undefined ? 'no limit' : formatAmount(value);
  return `daily_cap ${cap(body.daily_cap)}, total_budget ${cap(body.total_budget)}`;
}

/**
 * Whether the guard holds a create of these caps: holding is on (the user's settings, read
 * once per run) and a cap has no limit.
 */
export function guardHolds(run: CreateRun): (body: Caps) => boolean {
  const holding = new SettingsStore(run.job.platform.userProperties).guard()
    .holding;
  return body =>
    holding &&
    (body.daily_cap === undefined || body.total_budget === undefined);
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
  const holds = guardHolds(run);
  const held = sendable.filter(c => !c.sent && holds(c.body!));
  if (held.length === 0) return {send: [...sendable], note: ''};
  const lines = held.map(
    c => `${rowOf(c)}, offer ${c.name}: ${capsText(c.body!)}`,
  );
  const offers = counted(held.length, 'offer');
  const answer = run.job.platform.ui.confirm(
    GUARD_TITLE,
    [
      `The budget guard holds ${offers} of this run, as ${held.length === 1 ? 'it has' : 'they have'} no daily cap or no total budget (no limit):`,
      ...lines.slice(0, LISTED).map(line => `• ${line}`),
      ...(lines.length > LISTED ? [`… and ${lines.length - LISTED} more`] : []),
      '',
      'Yes creates them with the rest. No creates the rest only: the held rows stay EDITED.',
    ].join('\n'),
  );
  if (answer === true) {
    return {
      send: [...sendable],
      note: ` You confirmed ${offers} with no budget limit past the budget guard.`,
    };
  }
  const because =
    answer === false
      ? 'you answered No'
      : 'no one could answer (a scheduled run, or a window that cannot show a question)';
  for (const c of held) {
    run.offers.status(
      c.index,
      'EDITED',
      `Held by the budget guard (${capsText(c.body!)}): not created, as ${because}. Run Create new offers again and answer Yes to create it, type a daily_cap and a total_budget, or turn holding off in the sidebar's settings. Nothing was sent.`,
    );
  }
  const rows = held.map(c => sheetRow(c.index));
  return {
    send: sendable.filter(c => !held.includes(c)),
    note: ` The budget guard held ${offers} with no budget limit (New Offers ${rows.length === 1 ? 'row' : 'rows'} ${rows.join(', ')}): not created, as ${because}.`,
  };
}
