import type {ApiCall, ApiClient, OperationSpec, Outcome} from './client';
import {MAX_URL_LENGTH, Query, splitQuery} from './query';
import type {Page} from './types';
import {ApiError} from './errors';
import {isObject} from './envelope';

/**
 * Page numbers still to fetch after page 1, from the list metadata alone: `total` and the
 * page size the server says it used (it caps a larger `limit` silently).
 */
export function remainingPages(total: number, pageSize: number): number[] {
  if (!(total > 0) || !(pageSize > 0)) return [];
  const last = Math.ceil(total / pageSize);
  const pages: number[] = [];
  for (let page = 2; page <= last; page++) pages.push(page);
  return pages;
}

/**
 * A list of the API to fetch whole: who signs it, what it asks, how records are told apart,
 * and what is kept of each (`K`, the record itself unless `keep` says otherwise).
 */
export interface Listing<T, K = T> {
  client: ApiClient;
  op: OperationSpec;
  /**
   * What to list. A query whose URL would pass Apps Script's 2 KB is sent in parts, each
   * paged on its own, and their records merged (splitQuery).
   */
  query: Query;
  /** The largest page size the operation allows (API part 8). */
  maxLimit: number;
  /** Identifies a record, so one that slid across a page boundary while paging is kept once. */
  key(record: T): string | number;
  /**
   * What is kept of a record, made as its page is parsed (after a repeated record is dropped):
   * a listing of many records keeps this, and each batch's parsed pages are garbage before the
   * next batch goes out (issue 37). Absent: the record as parsed (`K` is `T`).
   */
  keep?(record: T): K;
  /**
   * Failures after which the listing counts as empty instead of failing the job: its caller
   * has another way to the records (sub-accounts are then looked up by name).
   */
  emptyOn?(error: Error): boolean;
  /**
   * A failure `emptyOn` does not accept (after the retries its operation allows) fails this
   * listing alone: its result carries the error and the other listings go on. One account's
   * refused keys or 5xx must not cost every other account its refresh.
   */
  isolated?: boolean;
}

export interface ListResult<T> {
  items: T[];
  total: number;
  /** Requests sent. */
  requests: number;
  /** Why an isolated listing failed: its items are then [] and its total 0. */
  failed?: Error;
}

/** Told how many records have arrived out of how many the listings hold. */
export type ListProgress = (fetched: number, total: number) => void;

/**
 * The widest page number a URL is measured with: a part's later pages must fit too. A billion
 * pages is more than any account holds.
 */
const WIDEST_PAGE = 999999999;

/**
 * One query of a listing (a URL-sized part), paged on its own: the page size the server used,
 * whether it told `total`, and how many records each page held as sent (repeats included).
 */
interface Part<T, K> {
  of: Paged<T, K>;
  query: Query;
  pageSize: number;
  /** The server told no `total`: pages are asked one after another until a short one. */
  untold: boolean;
  /** The `total` page 1 told, if any. */
  told?: number;
  held: Map<number, number>;
  /** Records each page brought that no earlier page had. */
  fresh: Map<number, number>;
}

/** Where one listing has got (all its parts together). */
interface Paged<T, K> {
  listing: Listing<T, K>;
  /** What is kept of each record listed so far (Listing.keep). */
  items: K[];
  seen: Set<string | number>;
  total: number;
  requests: number;
  /** Failed in a way `emptyOn` accepts, or failed isolated: no more pages, no records. */
  empty: boolean;
  /** The failure of an isolated listing. */
  failed?: Error;
}

/**
 * Every record of several lists, in two phases whatever their number, because round trips are
 * what a job pays for: page 1 of every list (at the largest `limit`, to learn `total`) goes
 * out together, in one fetchAll batch up to `batchSize` lists, then all other pages of all
 * lists together, packed into batches of `batchSize`. Lists signed by different accounts
 * share the batches (their clients must share one transport; the first listing's client
 * sends). A failed page fails its whole list, so no caller mistakes a partial list for the
 * account's records: the first failure that `emptyOn` does not accept is thrown as soon as
 * its batch has answered, unless its listing is isolated (then that list alone has failed). `onProgress` hears the records of all lists after page 1 and after
 * each batch. A list whose URL would be too long goes out as several (urlSizedQueries), each
 * paged as a list of its own and all merged into its one result, in order. An answer without
 * `total` is paged one page per batch until a page comes short; a list with a hole fails
 * (checkWhole).
 */
export function listEach<T, K = T>(
  listings: ReadonlyArray<Listing<T, K>>,
  onProgress?: ListProgress,
): Array<ListResult<K>> {
  if (listings.length === 0) return [];
  const sender = listings[0].client;
  const paged: Array<Paged<T, K>> = listings.map(listing => ({
    listing,
    items: [],
    seen: new Set(),
    total: 0,
    requests: 0,
    empty: false,
  }));
  const parts: Array<Part<T, K>> = paged.flatMap(of =>
    urlSizedQueries(of.listing).map(query => ({
      of,
      query,
      pageSize: of.listing.maxLimit,
      untold: false,
      held: new Map(),
      fresh: new Map(),
    })),
  );
  let rest = firstPages(sender, parts);
  const report = () => {
    const counted = paged.filter(p => !p.empty);
    const total = counted.reduce(
      (n, p) => n + Math.max(p.total, p.items.length),
      0,
    );
    const fetched = counted.reduce((n, p) => n + p.items.length, 0);
    onProgress?.(Math.min(fetched, total), total);
  };
  report();
  // One fetchAll batch at a time, so progress moves as the pages arrive; a list given up
  // (emptyOn) sends no more pages, and a list without a `total` asks its next page only once
  // the last one came full.
  while (rest.length > 0) {
    const batch = rest.slice(0, sender.batchSize);
    const next = nextPages(sender, batch);
    report();
    rest = [...rest.slice(batch.length), ...next].filter(b => !b.part.of.empty);
  }
  for (const part of parts) {
    if (part.of.empty) continue;
    try {
      checkWhole(part);
    } catch (e) {
      giveUp(part.of, e as Error);
    }
  }
  return paged.map(p => ({
    items: p.empty ? [] : p.items,
    total: p.empty ? 0 : Math.max(p.total, p.items.length),
    requests: p.requests,
    ...(p.failed ? {failed: p.failed} : {}),
  }));
}

/** A page of a part still to ask. */
interface PageToAsk<T, K> {
  part: Part<T, K>;
  page: number;
}

/**
 * Page 1 of every part, in one fetchAll: what each tells of its page size and total, and the
 * pages to ask after it. The answers are dropped when this returns (each frame of listEach's
 * holds one batch of parsed pages at most).
 */
function firstPages<T, K>(
  sender: ApiClient,
  parts: ReadonlyArray<Part<T, K>>,
): Array<PageToAsk<T, K>> {
  const firsts = sender.callMixed<unknown>(
    parts.map(part => pageCall(part, 1, part.of.listing.maxLimit)),
  );
  const rest: Array<PageToAsk<T, K>> = [];
  parts.forEach((part, i) => {
    part.of.requests++;
    const first = take(part, 1, firsts[i]);
    if (!first) return;
    // A server that tells no limit used a page size of its own: as many as page 1 held.
    part.pageSize =
      first.limit > 0
        ? first.limit
        : first.list.length > 0
          ? first.list.length
          : part.of.listing.maxLimit;
    // A total below the records page 1 holds is no count of them: walked as if untold.
    if (first.total === undefined || first.total < first.list.length) {
      part.untold = true;
      if (first.list.length >= part.pageSize) rest.push({part, page: 2});
      return;
    }
    part.told = first.total;
    part.of.total += first.total;
    for (const page of remainingPages(first.total, part.pageSize)) {
      rest.push({part, page});
    }
  });
  return rest;
}

/**
 * One fetchAll batch of later pages, taken: the next page of each list without a `total` whose
 * page came full. Its answers are garbage once this returns, before the next batch goes out.
 */
function nextPages<T, K>(
  sender: ApiClient,
  batch: ReadonlyArray<PageToAsk<T, K>>,
): Array<PageToAsk<T, K>> {
  const outcomes = sender.callMixed<unknown>(
    batch.map(({part, page}) => pageCall(part, page, part.pageSize)),
  );
  const next: Array<PageToAsk<T, K>> = [];
  batch.forEach(({part, page}, n) => {
    part.of.requests++;
    const got = take(part, page, outcomes[n]);
    // A full page of records already listed is a server repeating itself: walking on
    // would never end.
    if (
      got &&
      part.untold &&
      got.list.length >= part.pageSize &&
      (part.fresh.get(page) ?? 0) > 0
    )
      next.push({part, page: page + 1});
  });
  return next;
}

/**
 * Ends a listing that failed: empty where `emptyOn` accepts the failure, failed where the
 * listing is isolated; otherwise the failure is thrown.
 */
function giveUp<T, K>(p: Paged<T, K>, error: Error): void {
  if (!p.listing.emptyOn?.(error)) {
    if (!p.listing.isolated) throw error;
    p.failed = error;
  }
  p.empty = true;
}

/**
 * Many lists of one operation and client (one lookup per name, say): n lookups cost two
 * round trips rather than n. `requests` counts each query's own requests.
 */
export function listAllEach<T>(
  client: ApiClient,
  op: OperationSpec,
  queries: readonly Query[],
  maxLimit: number,
  key: (record: T) => string | number,
  onProgress?: ListProgress,
): Array<ListResult<T>> {
  return listEach(
    queries.map(query => ({client, op, query, maxLimit, key})),
    onProgress,
  );
}

/** The listing's query in as many parts as keep every page's URL within Apps Script's limit. */
function urlSizedQueries<T, K>(listing: Listing<T, K>): Query[] {
  const fits = (query: Query) =>
    listing.client.urlOf(listing.op, {
      ...query,
      page: WIDEST_PAGE,
      limit: listing.maxLimit,
    }).length <= MAX_URL_LENGTH;
  return splitQuery(listing.query, fits, listing.op.name);
}

function pageCall<T, K>(
  part: Part<T, K>,
  page: number,
  limit: number,
): ApiCall {
  const {listing} = part.of;
  return {
    client: listing.client,
    op: listing.op,
    payload: {query: {...part.query, page, limit}},
  };
}

/**
 * Adds a page's records to its list; answers the page, or undefined when the list failed
 * (here or before). Throws a failure the listing neither accepts nor isolates.
 */
function take<T, K>(
  part: Part<T, K>,
  number: number,
  outcome: Outcome<unknown>,
): Page<T> | undefined {
  const p = part.of;
  const {listing} = p;
  if (p.empty) return undefined;
  let page: Page<T>;
  try {
    if (!outcome.ok) throw outcome.error;
    page = asPage<T>(listing.op, outcome.data);
    checkIds(listing, number, page.list);
  } catch (e) {
    giveUp(p, e as Error);
    return undefined;
  }
  part.held.set(number, page.list.length);
  part.fresh.set(number, 0);
  for (const record of page.list) {
    const id = listing.key(record);
    if (p.seen.has(id)) continue;
    p.seen.add(id);
    part.fresh.set(number, (part.fresh.get(number) ?? 0) + 1);
    p.items.push(
      listing.keep ? listing.keep(record) : (record as unknown as K),
    );
  }
  return page;
}

/**
 * A record that cannot be told apart (no object, or no id) cannot be matched to its row: were
 * it left out, a refresh would remove the row of the record it stands for.
 */
function checkIds<T, K>(
  listing: Listing<T, K>,
  page: number,
  list: unknown[],
): void {
  for (const record of list) {
    const id = isObject(record) ? listing.key(record as T) : undefined;
    if (id !== undefined && id !== null && id !== '') continue;
    throw new ApiError(
      listing.op.name,
      200,
      200,
      `page ${page} held a record ${isObject(record) ? 'without its id' : `that is no record (${JSON.stringify(record)})`}: the list cannot be matched to rows, so nothing was changed`,
      {},
    );
  }
}

/**
 * A list with a hole is not the account's records: a page short of the page size while a
 * later page held records lost some on the way (the server's, or a proxy's), and a page of
 * nothing but records already listed stands where others should have been; a refresh would
 * remove their rows. Such a list fails (nothing is written; a re-run asks again). A short or
 * empty last page alone is the list's end, whatever `total` said (records removed while
 * paging, or a count that ran ahead).
 */
function checkWhole<T, K>(part: Part<T, K>): void {
  const pages = [...part.held.keys()].sort((a, b) => a - b);
  const lastHeld = Math.max(
    0,
    ...pages.filter(page => (part.held.get(page) ?? 0) > 0),
  );
  const short = pages.find(
    page => page < lastHeld && (part.held.get(page) ?? 0) < part.pageSize,
  );
  const fail = (what: string) => {
    throw new ApiError(
      part.of.listing.op.name,
      200,
      200,
      `${what}: the list came back incomplete, so nothing was changed; run it again`,
      {},
    );
  };
  if (short !== undefined)
    fail(
      `page ${short} held ${part.held.get(short)} records where the page size is ${part.pageSize}, and later pages held more`,
    );
  // A page of nothing but records already listed (a server that ignores `page`) stands
  // where other records should have been. A record that slid across a page boundary repeats
  // too, but its page brings others with it.
  const stale = pages.find(
    page => page > 1 && part.held.get(page)! > 0 && part.fresh.get(page) === 0,
  );
  if (stale !== undefined)
    fail(
      `page ${stale} held only records that earlier pages held${part.told === undefined ? '' : `, and the list has ${[...part.fresh.values()].reduce((n, k) => n + k, 0)} of the ${part.told} records its total told`}`,
    );
}

function asPage<T>(op: OperationSpec, data: unknown): Page<T> {
  if (!isObject(data) || !Array.isArray(data.list)) {
    throw new ApiError(op.name, 200, 200, 'the answer carries no list', {});
  }
  const total = Number(data.total);
  return {
    page: Number(data.page) || 0,
    limit: Number(data.limit) || 0,
    // No `total` (or no count: not a whole number of at least 0) is told apart from a total
    // of 0: the pages are then walked.
    total:
      data.total === undefined ||
      data.total === null ||
      data.total === '' ||
      !Number.isInteger(total) ||
      total < 0
        ? undefined
        : total,
    list: (op.readRecord ? data.list.map(op.readRecord) : data.list) as T[],
  };
}

/** Ids per read-back list request: the largest page of the offers and campaigns lists. */
export const READ_BACK_IDS = 50;

/** Ids to read back, and the client of the account they belong to. */
export interface IdGroup {
  client: ApiClient;
  ids: readonly string[];
}

/** Records read back, per group asked, each as its row sources; and the requests that took. */
export interface ReadBack<S> {
  records: S[][][];
  requests: number;
}

/**
 * Lists records by id, READ_BACK_IDS per listing, each group signed by its own client, every
 * listing of every group fetched together; `rows` gives a listed item's row sources.
 */
export function listByIds<T, S>(
  groups: readonly IdGroup[],
  listing: (client: ApiClient, ids: string[]) => Listing<T>,
  rows: (item: T) => S[],
): ReadBack<S> {
  const listings: Array<Listing<T>> = [];
  const groupOf: number[] = [];
  groups.forEach(({client, ids}, g) => {
    for (let k = 0; k < ids.length; k += READ_BACK_IDS) {
      listings.push(listing(client, ids.slice(k, k + READ_BACK_IDS)));
      groupOf.push(g);
    }
  });
  const results = listEach(listings);
  const records = groups.map((): S[][] => []);
  results.forEach((result, k) =>
    records[groupOf[k]].push(...result.items.map(rows)),
  );
  return {
    records,
    requests: results.reduce((n, result) => n + result.requests, 0),
  };
}
