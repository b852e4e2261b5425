/**
 * The manifest's urlFetchWhitelist, fixed at build time (OFFER_DESK_URL_WHITELIST). A
 * published add-on can fetch only URLs under these prefixes, so a base URL outside them is
 * refused when saved rather than failing at every request. Empty: no whitelist, any URL.
 */
declare const __URL_WHITELIST__: string[] | undefined;

function whitelist(): string[] {
  return typeof __URL_WHITELIST__ === 'undefined' ? [] : __URL_WHITELIST__;
}

export function urlWhitelistProblem(url: string): string | undefined {
  const prefixes = whitelist();
  if (prefixes.length === 0) return undefined;
  const target = `${url.replace(/\/+$/, '')}/`;
  if (prefixes.some(p => target.startsWith(p))) return undefined;
  return `is not among the hosts this add-on may call (${prefixes.join(', ')})`;
}
