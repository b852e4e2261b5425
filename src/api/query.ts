/**
 * GET parameters travel as a query string (Apps Script sends no body with GET): lists are
 * comma-joined, every value URL-encoded, and absent or empty values left out.
 */
export type QueryValue =
  string | number | boolean | undefined | null | ReadonlyArray<string | number>;

export function encodeQuery(
  params: Readonly<Record<string, QueryValue>>,
): string {
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (raw === undefined || raw === null) continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (value === '') continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  }
  return parts.join('&');
}
