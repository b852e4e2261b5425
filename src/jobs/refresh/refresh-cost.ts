/**
 * What a refresh will cost, told before it sends anything (issue 25, Scale and quotas): the
 * lists of the accounts it acts for, as large as the last pull left them in the state book,
 * priced by rules/refresh-estimate.ts. A refresh that would pass the time its execution has left
 * lists the accounts that fit, or waits for the next run where work before it took the time; one
 * that would pass a run's, or a schedule whose runs would pass a day's UrlFetch calls, is refused
 * with what to change: it never starts, so no sheet is left half written and no quota half spent.
 */
import {ConfigError} from '../../api/errors';
import {SUB_ACCOUNT_PAGE} from '../../api/operations';
import {
  ASSUMED_URL_FETCH_QUOTA,
  DAILY,
  DEFAULT_PACE,
  ListSize,
  Pace,
  RefreshEstimate,
  URL_FETCH_QUOTA,
  estimateRefresh,
  runsPerDay,
  scheduleQuota,
} from '../../rules/refresh-estimate';
import {keyParts} from '../../sheets/accounts';
import {SCHEMAS} from '../../sheets/schemas';
import type {StateBook} from '../../state/book';
import {turnsOf} from '../../state/refresh-turns-memo';
import {counted} from '../../text/wording';
import {accountLabel} from '../connect';
import {START_BUDGET_MS} from '../run';
import {EVERY_ACCOUNT} from '../settings-store';
import type {Schedule} from '../settings-store';
import {inTurn, takesTurns, turnsKey} from './refresh-turns';

/**
 * What a refresh's cost is told from, of each of its refreshers (refresher.ts Refresher): the
 * sheets it writes, the first holding a record per item listed, and its listing's page size;
 * whether it lists the main account's records alone.
 */
export interface Priced {
  mainOnly?: boolean;
  cost: {sheets: readonly string[]; pageSize: number};
}

/** The round trip the last refresh measured (state book memo): the pace of the next estimate. */
export const PACE_MEMO = 'refresh pace';

export interface RefreshCost extends RefreshEstimate {
  accounts: number;
  /** Records of the lists, as last pulled. */
  records: number;
  pace: Pace;
}

/** The records of each account in a sheet's last pull, by account ('' the main account). */
function recordsByAccount(book: StateBook, sheet: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of Object.keys(book.get(sheet)?.records ?? {})) {
    const {account} = keyParts(key);
    counts.set(account, (counts.get(account) ?? 0) + 1);
  }
  return counts;
}

/** Cells of a sheet as last pulled: a row per record (or per group of a budget), each column. */
function cellsOf(book: StateBook, sheet: string): number {
  const columns = SCHEMAS.find(s => s.name === sheet)?.columns.length ?? 0;
  const records = Object.values(book.get(sheet)?.records ?? {});
  return columns * records.reduce((n, r) => n + Math.max(1, r.rows.length), 0);
}

/**
 * The accounts a refresh as `acting` is priced for: that one, or acting as every account, the
 * main account and the sub-accounts the Sub-accounts sheet names (`sheetNames`), those it acts
 * for now; only where the sheet names none, those of the last pull (a server that lists
 * sub-accounts without the sheet). Never the union of every pull: a trimmed sheet is priced
 * as it stands.
 */
function pricedAccounts(
  book: StateBook,
  refreshers: readonly Priced[],
  acting: string,
  sheetNames: readonly string[],
): string[] {
  if (acting !== EVERY_ACCOUNT) return [acting];
  const seen =
    sheetNames.length > 0
      ? sheetNames
      : refreshers.flatMap(r => book.get(r.cost.sheets[0])?.accounts ?? []);
  return [...new Set(['', ...seen])];
}

/** Prices refreshes of some of the accounts by `refreshers`, from the state book's last pull. */
function pricer(
  book: StateBook,
  refreshers: readonly Priced[],
  acting: string,
): (accounts: readonly string[], pace: Pace) => RefreshCost {
  const counts = refreshers.map(r => recordsByAccount(book, r.cost.sheets[0]));
  const sheets = new Set(refreshers.flatMap(r => r.cost.sheets));
  const cells = [...sheets].reduce((n, sheet) => n + cellsOf(book, sheet), 0);
  return (accounts, pace) => {
    const subAccounts = accounts.filter(a => a !== '').length;
    const lists = accounts.map(account =>
      refreshers.flatMap((r, i): ListSize[] =>
        r.mainOnly && account !== ''
          ? []
          : [{records: counts[i].get(account) ?? 0, pageSize: r.cost.pageSize}],
      ),
    );
    const estimate = estimateRefresh(
      {
        // The main account alone needs no sub-account's keys.
        keys:
          acting === EVERY_ACCOUNT && subAccounts > 0
            ? {records: subAccounts, pageSize: SUB_ACCOUNT_PAGE}
            : undefined,
        accounts: lists,
        cells,
      },
      pace,
    );
    return {
      ...estimate,
      accounts: accounts.length,
      records: lists.flat().reduce((n, l) => n + l.records, 0),
      pace,
    };
  };
}

/** The round trip the last refresh measured, else the default. */
function lastPace(book: StateBook): Pace {
  const measured = book.memo<{roundTripMs?: unknown}>(PACE_MEMO)?.roundTripMs;
  return typeof measured === 'number' && measured > 0
    ? {...DEFAULT_PACE, roundTripMs: measured}
    : DEFAULT_PACE;
}

/** The cost of a refresh by `refreshers` as `acting`, from the state book's last pull. */
export function refreshCost(
  book: StateBook,
  refreshers: readonly Priced[],
  acting: string,
  sheetNames: readonly string[],
): RefreshCost {
  return pricer(
    book,
    refreshers,
    acting,
  )(pricedAccounts(book, refreshers, acting, sheetNames), lastPace(book));
}

/** What a refresh may list in one run, as refreshPlan decides it. */
export interface RefreshPlan {
  cost: RefreshCost;
  /** Acting as every account: the accounts that fit, in turn; absent, all. */
  only?: string[];
  /** The accounts priced but left out, each with why: named by the summary, rows carried. */
  left: Map<string, string>;
  /** The accounts priced, in the turn the plan took them (refresh-turns.ts inTurn). */
  order: string[];
}

/** The time a refresh's plan must fit: what its execution has left (TimeBudget.leftMs). */
export interface TimeLeft {
  ms: number;
  /**
   * What took part of the execution before the refresh, as messages say it ('the scheduled
   * changes'); absent, the refresh has the run to itself.
   */
  after?: string;
}

/**
 * A refresh that did not start because the work before it in the execution left too little
 * time: nothing was sent, and the refresh stays due for the next run.
 */
export class RefreshWaitsError extends Error {
  override readonly name = 'RefreshWaitsError';
}

/**
 * What a refresh as `acting` lists: every account it acts for, where that fits the time its
 * execution has left at the pace the last refresh measured. Where it does not, less, never
 * nothing that can fit: acting as every account, the accounts in turn (refresh-turns.ts: those
 * refreshed longest ago first), each that fits beside those taken before it, the others named,
 * with why; so every account has its turn however often runs are trimmed. A refresh with the
 * run to itself runs its least (one account, the first in turn that fits) wherever it fits at
 * the default pace, so one slow run cannot refuse every later one: the run measures the pace
 * again. After other work that chance is not taken (a slow server would have Apps Script kill
 * the run at 6 minutes): where one account cannot fit what is left but fits a run, the refresh
 * waits for the next run (RefreshWaitsError). Refused (a ConfigError, nothing sent) only where
 * no account alone can fit a run.
 */
export function refreshPlan(
  book: StateBook,
  refreshers: readonly Priced[],
  acting: string,
  sheetNames: readonly string[],
  time: TimeLeft,
): RefreshPlan {
  const price = pricer(book, refreshers, acting);
  const turns = takesTurns(acting, refreshers);
  const accounts = inTurn(
    pricedAccounts(book, refreshers, acting, sheetNames),
    turns ? turnsOf(book, turnsKey(refreshers)) : [],
  );
  // Without turns, the first (the main account, or the one acted as) is the least refresh.
  const candidates = turns ? accounts : accounts.slice(0, 1);
  const pace = lastPace(book);
  const cost = price(accounts, pace);
  if (cost.ms <= time.ms) return {cost, left: new Map(), order: accounts};
  // Only where a run of its own would take them is the time the work before took the reason.
  const took = time.after !== undefined && cost.ms <= START_BUDGET_MS;
  const why = took
    ? `${leftBy(time)}, and with it, refreshing ${whose(cost, acting)} would take about ${seconds(cost.ms)} s at the last measured pace: the next run takes it before the accounts this one refreshed`
    : `with it, refreshing ${whose(cost, acting)} would take about ${seconds(cost.ms)} s at the last measured pace, more than one run gives a job: act as it to refresh it, or keep each group of accounts in a workbook of its own`;
  const trimmed = (taken: string[], at: Pace): RefreshPlan => ({
    cost: price(taken, at),
    ...(acting === EVERY_ACCOUNT ? {only: taken} : {}),
    left: new Map(accounts.filter(a => !taken.includes(a)).map(a => [a, why])),
    order: accounts,
  });
  const alone = (account: string, at: Pace) => price([account], at).ms;
  // In turn, each account that fits beside those before it: one too large to fit is passed
  // over, not waited for, and keeps its turn for the next run.
  const taken = candidates.reduce<string[]>(
    (fit, account) =>
      price([...fit, account], pace).ms <= time.ms ? [...fit, account] : fit,
    [],
  );
  if (taken.length > 0) return trimmed(taken, pace);
  // With the run to itself, the least refresh takes its chance at the default pace.
  const chance =
    time.after === undefined
      ? candidates.find(a => alone(a, DEFAULT_PACE) <= time.ms)
      : undefined;
  if (chance !== undefined) return trimmed([chance], DEFAULT_PACE);
  // After other work, what a run of its own would start (at either pace) waits for the next.
  const inARun = candidates.some(
    a =>
      alone(a, pace) <= START_BUDGET_MS ||
      alone(a, DEFAULT_PACE) <= START_BUDGET_MS,
  );
  if (time.after !== undefined && inARun) {
    throw new RefreshWaitsError(
      time.ms > 0
        ? `The refresh did not start: ${leftBy(time)}, and refreshing ${whose(cost, acting)} would take about ${seconds(cost.ms)} s at the last measured pace; the next run refreshes.`
        : `The refresh did not start: ${time.after} took the time of this run, and the next run refreshes.`,
    );
  }
  throw refusal(cost, acting);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const number = (n: number) => n.toLocaleString('en-US');

/** "the scheduled changes left 62.0 s of this run" */
const leftBy = (time: TimeLeft) =>
  `${time.after} left ${seconds(time.ms)} s of this run`;

/** Who a refresh lists, for messages: "31 accounts" acting as every account. */
function whose(cost: RefreshCost, acting: string): string {
  return acting === EVERY_ACCOUNT
    ? `every account (${counted(cost.accounts, 'account')})`
    : `the ${accountLabel(acting)}`;
}

const FEWER_ACCOUNTS =
  'refresh fewer accounts: act as one account, or keep each group of accounts in a workbook of its own';

/** Why a refresh as `acting` cannot run: not even one account fits one execution. */
function refusal(cost: RefreshCost, acting: string): ConfigError {
  return new ConfigError(
    `Refreshing ${whose(cost, acting)} would take about ${seconds(cost.ms)} s (${number(cost.records)} records at the last pull: ${number(cost.requests)} requests in ${number(cost.roundTrips)} round trips of about ${seconds(cost.pace.roundTripMs)} s each), more than one run of Apps Script gives a job (${START_BUDGET_MS / 60000} of its 6 minutes): nothing was sent and no sheet changed. To fit, ${FEWER_ACCOUNTS}.`,
  );
}

const interval = (hours: number) =>
  hours === DAILY
    ? 'once a day'
    : hours === 1
      ? 'every hour'
      : `every ${hours} hours`;

/** Another spreadsheet's schedule of the same person, as its calls a day. */
export interface OtherSchedule {
  name: string;
  callsPerDay: number;
}

/** The person's other schedules (paused ones run nothing), with the calls a day each makes. */
export function otherSchedules(
  schedules: ReadonlyArray<{documentId: string; schedule: Schedule}>,
  documentId: string,
): OtherSchedule[] {
  return schedules
    .filter(
      ({documentId: id, schedule}) =>
        id !== documentId && !schedule.paused && (schedule.requests ?? 0) > 0,
    )
    .map(({documentId: id, schedule}) => ({
      name: schedule.name || id,
      callsPerDay: schedule.requests! * runsPerDay(schedule.hours),
    }));
}

/**
 * Why a schedule every `hours` hours (24: once a day) would spend more UrlFetch calls a day than
 * the quota the add-on assumes, beside the person's other schedules (`others`: the quota is one
 * per person), and what fits; undefined when it fits.
 */
export function quotaProblem(
  cost: RefreshCost,
  acting: string,
  hours: number,
  others: readonly OtherSchedule[] = [],
): string | undefined {
  const theirs = others.reduce((n, o) => n + o.callsPerDay, 0);
  const verdict = scheduleQuota(cost.requests, hours, theirs);
  if (verdict.fits) return undefined;
  const fitting = verdict.shortestFitting;
  const lighten =
    others.length > 0
      ? ', turn off or lengthen a schedule of another spreadsheet'
      : '';
  const fit =
    fitting === undefined
      ? `Not even once a day fits${others.length > 0 ? ' beside them' : ''}: ${FEWER_ACCOUNTS}${lighten}.`
      : `To fit, choose ${interval(fitting)} (${number(cost.requests * runsPerDay(fitting))} calls a day) or longer${lighten}, or ${FEWER_ACCOUNTS}.`;
  const besides =
    others.length > 0
      ? `, and your scheduled refreshes of other spreadsheets about ${number(theirs)} (${others.map(o => `"${o.name}" ${number(o.callsPerDay)}`).join(', ')}): together more than`
      : ', more than';
  return `A refresh of ${whose(cost, acting)} ${interval(hours)} would make about ${number(verdict.callsPerDay)} UrlFetch calls a day (${number(cost.requests)} a run, ${runsPerDay(hours)} runs)${besides} the ${number(ASSUMED_URL_FETCH_QUOTA)} Google allows one person a day (the quota of a gmail.com account, which Offer Desk assumes; Google Workspace allows ${number(URL_FETCH_QUOTA.workspace)}). ${fit}`;
}
