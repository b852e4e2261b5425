/**
 * Authentication (part 5 of the document): access-key, token and timestamp headers, with
 * token = md5(api_key + md5(timestamp)) in lowercase hex.
 */
import {md5Hex} from './digest';
import {ApiError, CODE} from './envelope';
import type {Account} from './model';
import type {Store} from './store';

/** A timestamp this far or farther from the emulator's clock is refused. */
export const MAX_SKEW_SECONDS = 600;

const HEADERS = ['access-key', 'token', 'timestamp'] as const;

export function computeToken(apiKey: string, timestamp: string): string {
  return md5Hex(apiKey + md5Hex(timestamp));
}

/** The three headers a client sends, for tests and tools that act as a client. */
export function signHeaders(
  accessKey: string,
  apiKey: string,
  timestampSeconds: number,
): Record<string, string> {
  const timestamp = String(timestampSeconds);
  return {
    'access-key': accessKey,
    token: computeToken(apiKey, timestamp),
    timestamp,
  };
}

/**
 * The acting account, or an ApiError. Checks run in a fixed order: missing headers, timestamp
 * form, access key, token, clock skew; so a stale request with a good signature says "expired".
 */
export function authenticate(
  store: Store,
  headers: Record<string, string>,
  nowSeconds: number,
): Account {
  const missing = HEADERS.filter(name => !headers[name]);
  if (missing.length > 0) {
    const details = Object.fromEntries(
      missing.map(name => [name, `The ${name} header is required.`]),
    );
    throw new ApiError(
      CODE.MISSING_HEADER,
      `missing authentication header: ${missing.join(', ')}`,
      details,
    );
  }
  const timestamp = headers['timestamp'];
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new ApiError(CODE.BAD_TIMESTAMP, 'invalid timestamp', {
      timestamp: 'The timestamp header must be Unix time in whole seconds.',
    });
  }
  const account = store.accountByAccessKey(headers['access-key']);
  if (!account) {
    throw new ApiError(CODE.UNKNOWN_ACCESS_KEY, 'invalid access-key', {
      'access-key': 'No account has this access-key.',
    });
  }
  if (headers['token'] !== computeToken(account.api_key, timestamp)) {
    throw new ApiError(CODE.BAD_TOKEN, 'invalid token', {
      token:
        'The token must be md5(api_key + md5(timestamp)) in lowercase hex.',
    });
  }
  const skew = Math.abs(nowSeconds - Number(timestamp));
  if (skew >= MAX_SKEW_SECONDS) {
    throw new ApiError(CODE.TIMESTAMP_SKEW, 'timestamp expired', {
      timestamp:
        `The timestamp must differ from server time (${nowSeconds}) ` +
        `by less than ${MAX_SKEW_SECONDS} seconds; it differs by ${skew}.`,
    });
  }
  return account;
}
