/** Paging and filtering shared by the list operations. */
import {FieldErrors, message, readInteger, type Params} from './checks';

export interface PagingRule {
  defaultLimit: number;
  maxLimit: number;
  /** true: a larger limit returns maxLimit (offers, campaigns, materials); false: refused. */
  clamp: boolean;
}

export interface Paging {
  page: number;
  limit: number;
}

export function readPaging(
  errors: FieldErrors,
  params: Params,
  rule: PagingRule,
): Paging {
  const page = readInteger(errors, 'page', params.page, {min: 1}) ?? 1;
  let limit =
    readInteger(errors, 'limit', params.limit, {min: 1}) ?? rule.defaultLimit;
  if (limit > rule.maxLimit) {
    if (!rule.clamp) errors.add('limit', message.max('limit', rule.maxLimit));
    limit = rule.maxLimit;
  }
  return {page, limit};
}

export interface Page<R> {
  page: number;
  limit: number;
  total: number;
  list: R[];
}

/**
 * One page of the `records` that `matches` keeps (every record when the request filters
 * nothing), in one pass that keeps only the page. A client pages through N records in
 * N/limit requests, so a copy of the matches per request made the emulator's cost grow with N
 * squared (issue 37); unfiltered, a request reads no further than its page. A page past the end
 * is empty but still tells the true total.
 */
export function pageOf<T, R>(
  records: ReadonlyMap<unknown, T> | readonly T[],
  {page, limit}: Paging,
  present: (record: T) => R,
  matches?: (record: T) => boolean,
): Page<R> {
  const start = (page - 1) * limit;
  const list: R[] = [];
  let seen = 0;
  for (const record of records.values()) {
    if (matches && !matches(record)) continue;
    if (!matches && seen >= start + limit) break;
    if (seen >= start && seen < start + limit) list.push(present(record));
    seen++;
  }
  const total = matches
    ? seen
    : 'size' in records
      ? records.size
      : records.length;
  return {page, limit, total, list};
}

/** Fuzzy name match: case-insensitive substring; no filter when nothing was sent. */
export function fuzzyMatch(text: string, needle: string | undefined): boolean {
  return (
    needle === undefined || text.toLowerCase().includes(needle.toLowerCase())
  );
}
