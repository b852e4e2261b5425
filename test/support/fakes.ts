/** Small fakes of the platform ports for unit tests of pure modules. */
import {createHash} from 'node:crypto';
import type {
  Cache,
  Clock,
  Digest,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  JobProgress,
  KeyValueStore,
  ProgressBoard,
} from '../../src/platform/ports';

export const nodeDigest: Digest = {
  md5Hex: text => createHash('md5').update(text, 'utf8').digest('hex'),
  md5OfBytes: bytes =>
    createHash('md5')
      .update(Uint8Array.from(bytes, b => b & 0xff))
      .digest('hex'),
};

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(public ms = Date.UTC(2026, 10, 21, 9, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.ms += ms;
  }
}

export class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, string>();
  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  set(key: string, value: string): void {
    this.values.set(key, value);
  }
  remove(key: string): void {
    this.values.delete(key);
  }
  keys(): string[] {
    return [...this.values.keys()];
  }
  all(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

/** Keeps every report, so tests can assert what the sidebar would have seen. */
/** A cache that never misses unless a test empties it; counts reads. */
export class MemoryCache implements Cache {
  readonly values = new Map<string, string>();
  reads = 0;
  get(key: string): string | null {
    this.reads++;
    return this.values.get(key) ?? null;
  }
  put(key: string, value: string): void {
    this.values.set(key, value);
  }
  remove(key: string): void {
    this.values.delete(key);
  }
}

export class MemoryProgress implements ProgressBoard {
  readonly reports: JobProgress[] = [];
  report(job: string, done: number, total: number): void {
    this.reports.push({job, done, total, at: this.reports.length});
  }
  read(): JobProgress | null {
    return this.reports[this.reports.length - 1] ?? null;
  }
  ended = 0;
  end(): void {
    this.ended++;
  }
  ticked: number | null = null;
  alertsTicked(at: number): void {
    this.ticked = at;
  }
  alertsTickedAt(): number | null {
    return this.ticked;
  }
}

export type Answer = HttpResponse | 'network-error';

/** Envelope answer helpers. */
export function ok(data: unknown, status = 200): HttpResponse {
  return {
    status,
    headers: {},
    text: JSON.stringify({code: 200, msg: 'success', data}),
  };
}

export function fail(
  code: number,
  msg: string,
  data: unknown = {},
  status = 200,
  headers: Record<string, string> = {},
): HttpResponse {
  return {status, headers, text: JSON.stringify({code, msg, data})};
}

export function http(
  status: number,
  headers: Record<string, string> = {},
): HttpResponse {
  return {status, headers, text: '<html>busy</html>'};
}

/**
 * Answers each request from `respond` and records what was sent, with batches kept apart so
 * tests can assert how many fetchAll calls went out.
 */
export class ScriptedTransport implements HttpTransport {
  readonly batches: HttpRequest[][] = [];
  constructor(
    private readonly respond: (request: HttpRequest, n: number) => Answer,
  ) {}

  get requests(): HttpRequest[] {
    return this.batches.flat();
  }

  send(request: HttpRequest): HttpResponse {
    return this.sendAll([request])[0];
  }

  sendAll(requests: HttpRequest[]): HttpResponse[] {
    const offset = this.requests.length;
    this.batches.push(requests);
    const answers = requests.map((r, i) => this.respond(r, offset + i));
    if (answers.includes('network-error')) {
      throw new Error('Address unavailable: https://api.example.test/...');
    }
    return answers as HttpResponse[];
  }
}

/** Query parameters of a recorded request. */
export function queryOf(request: HttpRequest): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams.entries());
}

/** A Platform over the fakes above; tests replace what they exercise. */
export function fakePlatform(
  http: HttpTransport,
  overrides: Partial<import('../../src/platform/ports').Platform> = {},
): Omit<import('../../src/platform/ports').Platform, 'documentLock'> & {
  userProperties: MemoryStore;
  clock: FakeClock;
  progress: MemoryProgress;
  userCache: MemoryCache;
  documentLock: () => import('../../src/platform/ports').DocumentLock;
} {
  let held = false;
  return {
    http,
    digest: nodeDigest,
    clock: new FakeClock(),
    random: () => 0.5,
    userProperties: new MemoryStore(),
    documentId: () => 'doc-1',
    activeDocumentId: () => 'doc-1',
    authorization: {required: () => false, url: () => null},
    progress: new MemoryProgress(),
    userCache: new MemoryCache(),
    identity: {
      email: () => 'user@example.com',
      oauthToken: () => 'ya29.test-token',
    },
    mail: {remainingDailyQuota: () => 100, send: () => undefined},
    // A user who answers Yes, as Apps Script's first button (the budget guard's question).
    ui: {confirm: () => true},
    documentLock: () => ({
      tryAcquire: () => (held ? false : (held = true)),
      release: () => {
        held = false;
      },
    }),
    ...overrides,
  } as never;
}
