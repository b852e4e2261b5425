/**
 * What a refresh will cost before it sends anything (issue 25, Scale and quotas): its UrlFetch
 * calls and its time, from how many records each account's lists held at the last pull. A
 * refresh pages every list at once (api/paging.ts listEach): acting as every account, the
 * sub-account keys first (one listing), then page 1 of every list of every account in one
 * phase, then all other pages; a phase of k requests takes ceil(k / batch size) round trips.
 */

/** One paged list of one account, as large as it was at the last pull. */
export interface ListSize {
  records: number;
  pageSize: number;
}

export interface RefreshShape {
  /** Acting as every account: the listing of the sub-accounts' keys, which comes first. */
  keys?: ListSize;
  /** Each account's lists. */
  accounts: ReadonlyArray<readonly ListSize[]>;
  /** Cells of the sheets the refresh reads and writes back. */
  cells: number;
}

/**
 * What the time of a refresh is made of. The round trip is the one the last refresh measured
 * where there was one (slow networks and servers differ by seconds): a default otherwise.
 */
export interface Pace {
  roundTripMs: number;
  perRequestMs: number;
  /** Each cell is read once and written once. */
  perCellMs: number;
}

/**
 * The pace assumed before any refresh measured one: a round trip of 250 ms and UrlFetchApp's
 * 5 ms per request (the local runtime's latency model, docs/architecture.md), and 0.0125 ms a
 * cell (a setValues of 4,000 cells in under 50 ms, measured: docs/limits.md).
 */
export const DEFAULT_PACE: Pace = {
  roundTripMs: 250,
  perRequestMs: 5,
  perCellMs: 0.0125,
};

/** Requests per fetchAll batch (api/client.ts DEFAULT_BATCH_SIZE). */
export const BATCH_SIZE = 100;

export interface RefreshEstimate {
  requests: number;
  roundTrips: number;
  ms: number;
}

/** Pages of a list: page 1 is asked even when it is empty. */
const pagesOf = (list: ListSize) =>
  Math.max(1, Math.ceil(list.records / list.pageSize));

/** Each phase needs the answers of the one before; its requests share batches. */
function phasesOf(lists: readonly ListSize[]): number[] {
  const rest = lists.reduce((n, l) => n + pagesOf(l) - 1, 0);
  return lists.length === 0 ? [] : [lists.length, rest];
}

export function estimateRefresh(
  shape: RefreshShape,
  pace: Pace = DEFAULT_PACE,
): RefreshEstimate {
  const phases = [
    ...phasesOf(shape.keys ? [shape.keys] : []),
    ...phasesOf(shape.accounts.flat()),
  ];
  const requests = phases.reduce((n, k) => n + k, 0);
  const roundTrips = phases.reduce((n, k) => n + Math.ceil(k / BATCH_SIZE), 0);
  return {
    requests,
    roundTrips,
    ms:
      roundTrips * pace.roundTripMs +
      requests * pace.perRequestMs +
      2 * shape.cells * pace.perCellMs,
  };
}

/**
 * UrlFetch calls a day (Apps Script's quotas page): a consumer account's, and Google
 * Workspace's. The add-on cannot tell which one the user has: it assumes the consumer's.
 */
export const URL_FETCH_QUOTA = {consumer: 20000, workspace: 100000} as const;
export const ASSUMED_URL_FETCH_QUOTA = URL_FETCH_QUOTA.consumer;

/** A schedule runs once a day at this interval. */
export const DAILY = 24;
/** The intervals a scheduled refresh may have, in hours, shortest first. */
export const SCHEDULE_HOURS: readonly number[] = [1, 2, 4, 6, 8, 12, DAILY];

/** Runs a day of a schedule every `hours` hours. */
export const runsPerDay = (hours: number) => Math.floor(24 / hours);

export interface QuotaVerdict {
  callsPerDay: number;
  fits: boolean;
  /** The shortest interval whose calls fit the quota; undefined: not even once a day. */
  shortestFitting?: number;
}

/**
 * A schedule's calls a day against the quota, beside `othersPerDay` (the calls a day of the
 * person's other schedules: the quota is the person's, not a spreadsheet's), and the shortest
 * interval that fits beside them.
 */
export function scheduleQuota(
  requestsPerRun: number,
  hours: number,
  othersPerDay = 0,
  quota: number = ASSUMED_URL_FETCH_QUOTA,
): QuotaVerdict {
  const callsPerDay = requestsPerRun * runsPerDay(hours);
  return {
    callsPerDay,
    fits: callsPerDay + othersPerDay <= quota,
    shortestFitting: SCHEDULE_HOURS.find(
      h => requestsPerRun * runsPerDay(h) + othersPerDay <= quota,
    ),
  };
}
