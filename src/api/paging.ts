import type {ApiClient, OperationSpec} from './client';
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
): ListResult<T> {
  const first = asPage<T>(
    op,
    client.call(op, {query: {...query, page: 1, limit: maxLimit}}),
  );
  const pageSize = first.limit > 0 ? first.limit : maxLimit;
  const pages = remainingPages(first.total, pageSize);
  const outcomes = client.callAll<unknown>(
    op,
    pages.map(page => ({query: {...query, page, limit: pageSize}})),
  );
  const seen = new Set<string | number>();
  const items: T[] = [];
  const add = (record: T) => {
    const id = key(record);
    if (seen.has(id)) return;
    seen.add(id);
    items.push(record);
  };
  first.list.forEach(add);
  for (const outcome of outcomes) {
    if (!outcome.ok) throw outcome.error;
    asPage<T>(op, outcome.data).list.forEach(add);
  }
  return {items, total: first.total, requests: 1 + pages.length};
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
