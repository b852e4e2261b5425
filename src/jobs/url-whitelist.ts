/**
 * The manifest's urlFetchWhitelist, fixed at build time (OFFER_DESK_URL_WHITELIST). A
 * published add-on can fetch only URLs under these prefixes, so a base URL outside them is
 * refused when saved rather than failing at every request. Empty: no whitelist, any URL.
 *
 * Matching follows Google's rules for the manifest field: https only; a host may start with
 * `*.` to match any subdomain (not the bare domain); a prefix matches itself and its child
 * paths only (`https://a.com/api/` matches `https://a.com/api/x`, not `https://a.com/apix`);
 * hosts compare without case, paths with it.
 */
declare const __URL_WHITELIST__: string[] | undefined;

function whitelist(): string[] {
  return typeof __URL_WHITELIST__ === 'undefined' ? [] : __URL_WHITELIST__;
}

/** scheme, host (with any port) and path (query and fragment dropped). */
const URL_PARTS = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)([^?#]*)/i;

/** The path as a directory: Google treats a prefix as itself and the paths below it. */
const asFolder = (path: string) => (path.endsWith('/') ? path : `${path}/`);

function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase();
  if (!p.startsWith('*.')) return p === h;
  const domain = p.slice(1);
  return h.endsWith(domain) && h.length > domain.length;
}

/** Whether `url` is under the whitelist entry `prefix`, by Google's rules. */
export function matchesWhitelistEntry(prefix: string, url: string): boolean {
  const entry = URL_PARTS.exec(prefix);
  const target = URL_PARTS.exec(url);
  if (!entry || !target) return false;
  if (target[1].toLowerCase() !== 'https') return false;
  if (entry[1].toLowerCase() !== 'https') return false;
  if (!hostMatches(entry[2], target[2])) return false;
  const path = entry[3] || '/';
  const wanted = target[3] || '/';
  return wanted === path || asFolder(wanted).startsWith(asFolder(path));
}

export function urlWhitelistProblem(
  url: string,
  prefixes: readonly string[] = whitelist(),
): string | undefined {
  if (prefixes.length === 0) return undefined;
  if (prefixes.some(p => matchesWhitelistEntry(p, url))) return undefined;
  return `is not among the URLs this add-on may call (${prefixes.join(', ')})`;
}
