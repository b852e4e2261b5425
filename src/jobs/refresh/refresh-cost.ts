/**
 * What a refresh will cost, told before it sends anything (issue 25, Scale and quotas): the
 * lists of the accounts it acts for, as large as the last pull left them in the state book,
 * priced by rules/refresh-estimate.ts. A refresh that would pass the time one execution gives a
 * job, or a schedule whose runs would pass a day's UrlFetch calls, is refused with what to
 * change: it never starts, so no sheet is left half written and no quota half spent.
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
import {counted} from '../../text/wording';
import {accountLabel} from '../connect';
import {START_BUDGET_MS} from '../run';
import {EVERY_ACCOUNT} from '../settings-store';

/**
 * What a refresh's cost is told from, of each of its refreshers (refresh.ts Refresher): the
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
 * The accounts a refresh as `acting` lists: that one, or acting as every account, the main
 * account and every account the last pull of these sheets was refreshed for.
 */
function accountsOf(
  book: StateBook,
  refreshers: readonly Priced[],
  acting: string,
): string[] {
  if (acting !== EVERY_ACCOUNT) return [acting];
  const seen = refreshers.flatMap(
    r => book.get(r.cost.sheets[0])?.accounts ?? [],
  );
  return [...new Set(['', ...seen])];
}

/** The cost of a refresh by `refreshers` as `acting`, from the state book's last pull. */
export function refreshCost(
  book: StateBook,
  refreshers: readonly Priced[],
  acting: string,
): RefreshCost {
  const accounts = accountsOf(book, refreshers, acting);
  const counts = refreshers.map(r => recordsByAccount(book, r.cost.sheets[0]));
  const lists = accounts.map(account =>
    refreshers.flatMap((r, i): ListSize[] =>
      r.mainOnly && account !== ''
        ? []
        : [{records: counts[i].get(account) ?? 0, pageSize: r.cost.pageSize}],
    ),
  );
  const sheets = new Set(refreshers.flatMap(r => r.cost.sheets));
  const measured = book.memo<{roundTripMs?: unknown}>(PACE_MEMO)?.roundTripMs;
  const pace: Pace =
    typeof measured === 'number' && measured > 0
      ? {...DEFAULT_PACE, roundTripMs: measured}
      : DEFAULT_PACE;
  const estimate = estimateRefresh(
    {
      keys:
        acting === EVERY_ACCOUNT
          ? {records: accounts.length - 1, pageSize: SUB_ACCOUNT_PAGE}
          : undefined,
      accounts: lists,
      cells: [...sheets].reduce((n, sheet) => n + cellsOf(book, sheet), 0),
    },
    pace,
  );
  return {
    ...estimate,
    accounts: accounts.length,
    records: lists.flat().reduce((n, l) => n + l.records, 0),
    pace,
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const number = (n: number) => n.toLocaleString('en-US');

/** Who a refresh lists, for messages: "31 accounts" acting as every account. */
function whose(cost: RefreshCost, acting: string): string {
  return acting === EVERY_ACCOUNT
    ? `every account (${counted(cost.accounts, 'account')})`
    : `the ${accountLabel(acting)}`;
}

const FEWER_ACCOUNTS =
  'refresh fewer accounts: act as one account, or keep each group of accounts in a workbook of its own';

/**
 * Refuses a refresh whose estimate passes the time a job gives itself in one execution,
 * before anything is sent.
 */
export function checkRefreshTime(cost: RefreshCost, acting: string): void {
  if (cost.ms <= START_BUDGET_MS) return;
  throw new ConfigError(
    `Refreshing ${whose(cost, acting)} would take about ${seconds(cost.ms)} s (${number(cost.records)} records at the last pull: ${number(cost.requests)} requests in ${number(cost.roundTrips)} round trips of about ${seconds(cost.pace.roundTripMs)} s each), more than one run of Apps Script gives a job (${START_BUDGET_MS / 60000} of its 6 minutes): nothing was sent and no sheet changed. To fit, ${FEWER_ACCOUNTS}.`,
  );
}

const interval = (hours: number) =>
  hours === DAILY
    ? 'once a day'
    : hours === 1
      ? 'every hour'
      : `every ${hours} hours`;

/**
 * Why a schedule every `hours` hours (24: once a day) would spend more UrlFetch calls a day than
 * the quota the add-on assumes, and what fits; undefined when it fits.
 */
export function quotaProblem(
  cost: RefreshCost,
  acting: string,
  hours: number,
): string | undefined {
  const verdict = scheduleQuota(cost.requests, hours);
  if (verdict.fits) return undefined;
  const fitting = verdict.shortestFitting;
  const fit =
    fitting === undefined
      ? `Not even once a day fits: ${FEWER_ACCOUNTS}.`
      : `To fit, choose ${interval(fitting)} (${number(cost.requests * runsPerDay(fitting))} calls a day) or longer, or ${FEWER_ACCOUNTS}.`;
  return `A refresh of ${whose(cost, acting)} ${interval(hours)} would make about ${number(verdict.callsPerDay)} UrlFetch calls a day (${number(cost.requests)} a run, ${runsPerDay(hours)} runs), more than the ${number(ASSUMED_URL_FETCH_QUOTA)} Google allows a day (the quota of a gmail.com account, which Offer Desk assumes; Google Workspace allows ${number(URL_FETCH_QUOTA.workspace)}). ${fit}`;
}
