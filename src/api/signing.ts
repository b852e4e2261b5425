import type {Digest} from '../platform/ports';

export interface Credentials {
  accessKey: string;
  apiKey: string;
}

/** token = md5(api_key + md5(timestamp)), both digests lowercase hex (API part 5). */
export function signToken(
  apiKey: string,
  timestamp: number,
  digest: Digest,
): string {
  return digest.md5Hex(apiKey + digest.md5Hex(String(timestamp)));
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
