import type {ApiClient, OperationSpec, Outcome} from './client';
import type {QueryValue} from './query';
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

export interface ListResult<T> {
  items: T[];
  total: number;
  /** Requests sent. */
  requests: number;
}

/**
 * Every record of a list: page 1 at the largest `limit` tells `total`, then all other pages go
 * out together (fetchAll batches). Any failed page fails the whole list, so a caller never
 * mistakes a partial list for the account's records. Records that slid across a page
 * boundary while paging are kept once, by `key`.
 */
export function listAll<T>(
  client: ApiClient,
  op: OperationSpec,
  query: Readonly<Record<string, QueryValue>>,
  maxLimit: number,
  key: (record: T) => string | number,
  onProgress?: ListProgress,
): ListResult<T> {
  return listAllEach(client, op, [query], maxLimit, key, onProgress)[0];
}

/** Told how many records have arrived out of how many the listing holds. */
export type ListProgress = (fetched: number, total: number) => void;

/**
 * listAll for several queries at once (one lookup per name, say): the first pages of all go
 * out in one batch, then every further page of all in the next, so n lookups cost two round
 * trips rather than n. `requests` counts each query's own requests.
 */
export function listAllEach<T>(
  client: ApiClient,
  op: OperationSpec,
  queries: ReadonlyArray<Readonly<Record<string, QueryValue>>>,
  maxLimit: number,
  key: (record: T) => string | number,
  onProgress?: ListProgress,
): Array<ListResult<T>> {
  const firsts = client
    .callAll<unknown>(
      op,
      queries.map(query => ({query: {...query, page: 1, limit: maxLimit}})),
    )
    .map(outcome => {
      if (!outcome.ok) throw outcome.error;
      return asPage<T>(op, outcome.data);
    });
  const rest = firsts.map((first, q) => {
    const pageSize = first.limit > 0 ? first.limit : maxLimit;
    return remainingPages(first.total, pageSize).map(page => ({
      query: {...queries[q], page, limit: pageSize},
    }));
  });
  const total = firsts.reduce((n, first) => n + first.total, 0);
  let fetched = firsts.reduce((n, first) => n + first.list.length, 0);
  onProgress?.(Math.min(fetched, total), total);
  // One fetchAll batch at a time, so progress moves as the pages arrive.
  const payloads = rest.flat();
  const outcomes: Array<Outcome<unknown>> = [];
  for (let start = 0; start < payloads.length; start += client.batchSize) {
    const batch = client.callAll<unknown>(
      op,
      payloads.slice(start, start + client.batchSize),
    );
    outcomes.push(...batch);
    for (const outcome of batch) {
      if (outcome.ok) fetched += asPage<T>(op, outcome.data).list.length;
    }
    onProgress?.(Math.min(fetched, total), total);
  }
  let next = 0;
  return firsts.map((first, q) => {
    const seen = new Set<string | number>();
    const items: T[] = [];
    const add = (record: T) => {
      const id = key(record);
      if (seen.has(id)) return;
      seen.add(id);
      items.push(record);
    };
    first.list.forEach(add);
    for (let k = 0; k < rest[q].length; k++) {
      const outcome = outcomes[next++];
      if (!outcome.ok) throw outcome.error;
      asPage<T>(op, outcome.data).list.forEach(add);
    }
    return {items, total: first.total, requests: 1 + rest[q].length};
  });
}

function asPage<T>(op: OperationSpec, data: unknown): Page<T> {
  if (!isObject(data) || !Array.isArray(data.list)) {
    throw new ApiError(op.name, 200, 200, 'the answer carries no list', {});
  }
  return {
    page: Number(data.page) || 0,
    limit: Number(data.limit) || 0,
    total: Number(data.total) || 0,
    list: data.list as T[],
  };
}
