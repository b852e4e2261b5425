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
 * One page of the `items` that match, in one pass that keeps only the page: a client pages
 * through a list of N records in N/limit requests, so a copy of the matches per request made
 * the emulator's cost grow with N squared (issue 37). A page past the end is empty but still
 * tells the true total.
 */
export function pageOf<T, R>(
  items: Iterable<T>,
  {page, limit}: Paging,
  present: (item: T) => R,
  matches: (item: T) => boolean = () => true,
): Page<R> {
  const start = (page - 1) * limit;
  const list: R[] = [];
  let total = 0;
  for (const item of items) {
    if (!matches(item)) continue;
    if (total >= start && total < start + limit) list.push(present(item));
    total++;
  }
  return {page, limit, total, list};
}

/** Fuzzy name match: case-insensitive substring; no filter when nothing was sent. */
export function fuzzyMatch(text: string, needle: string | undefined): boolean {
  return (
    needle === undefined || text.toLowerCase().includes(needle.toLowerCase())
  );
}
