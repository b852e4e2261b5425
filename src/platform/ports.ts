/**
 * The small interfaces through which everything outside src/platform/ reaches Apps Script.
 * Jobs, the API client, rules and sheets depend on these shapes only, so tests can hand them
 * fakes and the local runtime can hand them the real adapters over its fake globals.
 */

/** A file to upload: Apps Script's Blob satisfies this structurally. */
export interface FileBlob {
  getName(): string | null;
  getContentType(): string | null;
  getBytes(): number[];
}

export type HttpMethod = 'get' | 'post' | 'put';

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** JSON text sent as application/json (POST and PUT). */
  json?: string;
  /** A file sent as multipart/form-data in the form field `file`. */
  file?: FileBlob;
}

export interface HttpResponse {
  status: number;
  /** Header names lowercase. */
  headers: Record<string, string>;
  text: string;
}

/**
 * HTTP with exceptions muted: every HTTP status comes back as a response; only a network
 * failure throws. `sendAll` runs its requests concurrently and answers in order; as with
 * UrlFetchApp.fetchAll, one network failure throws for the whole batch.
 */
export interface HttpTransport {
  send(request: HttpRequest): HttpResponse;
  sendAll(requests: HttpRequest[]): HttpResponse[];
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): void;
}

/** A string store: user or document properties. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
  keys(): string[];
}

/** A cache whose reads may miss at any time. */
export interface Cache {
  get(key: string): string | null;
  put(key: string, value: string, ttlSeconds: number): void;
  remove(key: string): void;
}

export interface Digest {
  /** md5 of the UTF-8 bytes of `text`, as lowercase hex. */
  md5Hex(text: string): string;
}

/** The spreadsheet's document lock, one job at a time. */
export interface DocumentLock {
  /** True when the lock is now held by this execution. */
  tryAcquire(timeoutMs: number): boolean;
  release(): void;
}

/** Everything the jobs reach Apps Script through. */
export interface Platform {
  http: HttpTransport;
  digest: Digest;
  clock: Clock;
  random(): number;
  userProperties: KeyValueStore;
  documentId(): string;
  documentLock(): DocumentLock;
}
