/**
 * Rules for the connection settings, shared by the sidebar (as the user types) and the
 * server (before anything is stored).
 */

export interface SettingsInput {
  baseUrl: string;
  uploadBaseUrl?: string;
  accessKey: string;
  apiKey?: string;
}

export type FieldErrors = Partial<Record<keyof SettingsInput, string>>;

/** Loopback hosts: Apps Script itself cannot reach them, the local runtime can. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Why `raw` is not a usable base URL, or undefined when it is. */
export function baseUrlProblem(raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return 'is required';
  const match = value.match(
    /^([a-z][a-z0-9+.-]*:)\/\/(\[[^\]]+\]|[^/:?#]+)(:\d+)?([^?#]*)(\?[^#]*)?(#.*)?$/i,
  );
  if (!match) return 'must be a URL such as https://api.example.com';
  const [, scheme, host, , path, query, fragment] = match;
  if (query || fragment) return 'must not carry a query or fragment';
  // Requests go to the base URL + /api/open/v3/...: a base URL that has it already would 404.
  if (/\/api\/open\/v\d+(\/|$)/i.test(path)) {
    return "must be the API's host only, without /api/open/v3: Offer Desk adds that path itself";
  }
  const protocol = scheme.toLowerCase();
  if (protocol === 'https:') return undefined;
  if (protocol === 'http:' && LOOPBACK.test(host)) return undefined;
  return 'must start with https:// (plain http is refused: keys would travel unencrypted)';
}

export function settingsProblems(
  input: SettingsInput,
  hasStoredApiKey: boolean,
): FieldErrors {
  const errors: FieldErrors = {};
  const base = baseUrlProblem(input.baseUrl ?? '');
  if (base) errors.baseUrl = base;
  const upload = input.uploadBaseUrl?.trim();
  if (upload) {
    const problem = baseUrlProblem(upload);
    if (problem) errors.uploadBaseUrl = problem;
  }
  const accessKey = (input.accessKey ?? '').trim();
  if (accessKey === '') errors.accessKey = 'is required';
  else if (/\s/.test(accessKey)) errors.accessKey = 'must not contain spaces';
  const apiKey = input.apiKey?.trim();
  if (apiKey === undefined || apiKey === '') {
    if (!hasStoredApiKey) errors.apiKey = 'is required';
  } else if (/\s/.test(apiKey)) {
    errors.apiKey = 'must not contain spaces';
  }
  return errors;
}

/** `field: reason; field: reason`, the way every message names a field. */
export function describeFieldErrors(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([field, reason]) => `${field} ${reason}`)
    .join('; ');
}
