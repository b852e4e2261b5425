/**
 * GET parameters travel as a query string (Apps Script sends no body with GET): lists are
 * comma-joined, every value URL-encoded, and absent or empty values left out.
 */
import {ConfigError} from './errors';

export type QueryValue =
  string | number | boolean | undefined | null | ReadonlyArray<string | number>;

export type Query = Readonly<Record<string, QueryValue>>;

/** UrlFetchApp refuses a longer URL ("Limit Exceeded: URLFetch URL Length."). */
export const MAX_URL_LENGTH = 2048;

export function encodeQuery(params: Query): string {
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (raw === undefined || raw === null) continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (value === '') continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  }
  return parts.join('&');
}

/**
 * `query` as few queries as `fits` accepts, each with part of the values of its list
 * parameters. A list filter matches a record holding any of its values, and list filters
 * together match records that meet all of them, so the records the parts answer, taken
 * together, are the records of the whole query: the longest list is packed into parts in
 * order, and a part that still does not fit has its next longest list split too. `operation`
 * names the request when even one value of each list is too long.
 */
export function splitQuery(
  query: Query,
  fits: (query: Query) => boolean,
  operation: string,
): Query[] {
  if (fits(query)) return [query];
  const lists = Object.entries(query).filter(
    (entry): entry is [string, ReadonlyArray<string | number>] =>
      Array.isArray(entry[1]) && entry[1].length > 1,
  );
  if (lists.length === 0) {
    throw new ConfigError(
      `${operation}: the request's URL would be longer than the ${MAX_URL_LENGTH.toLocaleString('en-US')} characters Apps Script allows, even with one value of each list filter. Shorten the base URL or the filter values.`,
    );
  }
  const length = (values: ReadonlyArray<string | number>) =>
    encodeQuery({v: values}).length;
  const [key, values] = lists.reduce((a, b) =>
    length(b[1]) > length(a[1]) ? b : a,
  );
  const parts: Array<Array<string | number>> = [];
  let part: Array<string | number> = [];
  for (const value of values) {
    if (part.length > 0 && !fits({...query, [key]: [...part, value]})) {
      parts.push(part);
      part = [];
    }
    part.push(value);
  }
  parts.push(part);
  return parts.flatMap(values =>
    splitQuery({...query, [key]: values}, fits, operation),
  );
}
