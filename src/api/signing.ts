import type {Digest} from '../platform/ports';

export interface Credentials {
  accessKey: string;
  apiKey: string;
}

/**
 * The last token signed. A token depends on the key and the second alone, and a fetchAll
 * batch is signed within one second: remembering it spares the two digests (service calls)
 * of every request after the first.
 */
let lastSigned:
  | {digest: Digest; apiKey: string; timestamp: number; token: string}
  | undefined;

/** token = md5(api_key + md5(timestamp)), both digests lowercase hex (API part 5). */
export function signToken(
  apiKey: string,
  timestamp: number,
  digest: Digest,
): string {
  const last = lastSigned;
  if (
    last?.digest === digest &&
    last.apiKey === apiKey &&
    last.timestamp === timestamp
  ) {
    return last.token;
  }
  const token = digest.md5Hex(apiKey + digest.md5Hex(String(timestamp)));
  lastSigned = {digest, apiKey, timestamp, token};
  return token;
}

/** The three authentication headers, with a timestamp taken fresh for this request. */
export function authHeaders(
  credentials: Credentials,
  nowMs: number,
  digest: Digest,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'access-key': credentials.accessKey,
    token: signToken(credentials.apiKey, timestamp, digest),
    timestamp: String(timestamp),
  };
}
