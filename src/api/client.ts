import {
  ApiError,
  ConfigError,
  NetworkError,
  OutcomeUnknownError,
  redact,
} from './errors';
import {MessageField, openEnvelope} from './envelope';
import {encodeQuery, MAX_URL_LENGTH, Query} from './query';
import {
  DEFAULT_RETRY,
  OperationKind,
  RetryPolicy,
  backoffMs,
  isBusy,
  provesNotApplied,
  isTransientStatus,
  mayReplay,
  parseRetryAfter,
} from './retry';
import {Credentials, authHeaders} from './signing';
import type {
  Clock,
  Digest,
  FileBlob,
  HttpMethod,
  HttpRequest,
  HttpResponse,
  HttpTransport,
} from '../platform/ports';

/** One operation of the API document. */
export interface OperationSpec {
  /** How messages name it, e.g. `PUT offer/budget`. */
  name: string;
  method: HttpMethod;
  path: string;
  kind: OperationKind;
  /** Sent to the upload host (multipart). */
  upload?: boolean;
  messageField: MessageField;
  /** Reads a list record in the document's names (records.ts); absent: taken as it comes. */
  readRecord?: (raw: unknown) => unknown;
}

export interface Payload {
  query?: Query;
  json?: unknown;
  file?: FileBlob;
}

export type Outcome<T> = {ok: true; data: T} | {ok: false; error: Error};

/**
 * Where the signing keys come from. `refresh` is asked once when the API refuses them; it
 * answers whether fresher keys may now be had (a cached sub-account key was dropped).
 */
export interface CredentialSource {
  current(): Credentials;
  refresh(): boolean;
}

export interface Endpoint {
  baseUrl: string;
  uploadBaseUrl: string;
}

export interface ClientDeps {
  http: HttpTransport;
  digest: Digest;
  clock: Clock;
  random: () => number;
  retry?: RetryPolicy;
  /** Requests per UrlFetchApp.fetchAll call. */
  batchSize?: number;
  /** Epoch ms after which no retry is waited for: the job's time budget. */
  deadlineMs?: number;
}

export const DEFAULT_BATCH_SIZE = 100;

/**
 * One request of a batch that may mix operations and accounts: `client` signs it (and is asked
 * for fresh keys when they are refused), `op` says how its answer is opened and when it may be
 * sent again.
 */
export interface ApiCall {
  client: ApiClient;
  op: OperationSpec;
  payload: Payload;
}

/** A request ready to go, and the secrets an error text must never quote. */
interface Signed {
  request: HttpRequest;
  secrets: string[];
}

/**
 * The Open API transport: signs each request afresh, sends batches through fetchAll, opens
 * envelopes and retries what is safe to retry (see retry.ts).
 */
export class ApiClient {
  readonly batchSize: number;
  private readonly retry: RetryPolicy;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly credentials: CredentialSource,
    private readonly deps: ClientDeps,
  ) {
    this.retry = deps.retry ?? DEFAULT_RETRY;
    this.batchSize = Math.max(1, deps.batchSize ?? DEFAULT_BATCH_SIZE);
  }

  /** One request; throws its error. */
  call<T>(op: OperationSpec, payload: Payload = {}): T {
    const [outcome] = this.callAll<T>(op, [payload]);
    if (!outcome.ok) throw outcome.error;
    return outcome.data;
  }

  /** Many requests of one operation, in fetchAll batches; one outcome per payload, in order. */
  callAll<T>(
    op: OperationSpec,
    payloads: readonly Payload[],
  ): Array<Outcome<T>> {
    return this.callMixed<T>(
      payloads.map(payload => ({client: this, op, payload})),
    );
  }

  /**
   * Requests of any operations, signed by any clients, in fetchAll batches of this client's
   * `batchSize`; one outcome per call, in order. The acting account and the main account
   * (which alone may list sub-accounts) thus share round trips. This client's transport,
   * retry policy and deadline serve them all, so the clients must share its transport.
   */
  callMixed<T>(calls: readonly ApiCall[]): Array<Outcome<T>> {
    if (calls.some(c => c.client.deps.http !== this.deps.http)) {
      throw new Error('Requests of one fetchAll batch need one HttpTransport.');
    }
    const outcomes: Array<Outcome<T>> = [];
    for (let start = 0; start < calls.length; start += this.batchSize) {
      outcomes.push(
        ...this.sendChunk<T>(calls.slice(start, start + this.batchSize)),
      );
    }
    return outcomes;
  }

  private sendChunk<T>(calls: readonly ApiCall[]): Array<Outcome<T>> {
    const outcomes = new Array<Outcome<T>>(calls.length);
    // UrlFetchApp would refuse the whole fetchAll for one URL over its limit, before sending
    // anything, and that refusal would pass for a lost connection: such a request fails alone.
    let pending: number[] = [];
    calls.forEach((call, i) => {
      const length = call.client.urlOf(call.op, call.payload.query).length;
      if (length <= MAX_URL_LENGTH) pending.push(i);
      else outcomes[i] = {ok: false, error: urlTooLong(call.op, length)};
    });
    // Each account's keys are looked up afresh at most once per batch: a second refusal stands.
    const refreshed = new Set<CredentialSource>();
    for (let attempt = 1; pending.length > 0; attempt++) {
      // Keys that cannot be had (a sub-account's lookup finds no such account, or fails) fail
      // the requests of that account alone, unsent: the other accounts' requests still go.
      const signing = pending.map(i =>
        ApiClient.signOrFail(calls[i], outcomes, i),
      );
      pending = pending.filter((_, n) => signing[n] !== undefined);
      const signed = signing.filter((s): s is Signed => s !== undefined);
      if (pending.length === 0) break;
      let responses: HttpResponse[];
      try {
        responses = this.send(signed.map(s => s.request));
      } catch (e) {
        // One lost connection fails the whole fetchAll: reads go again, a write's outcome
        // is unknown (it may have been applied before the connection went).
        const reason = redact(e instanceof Error ? e.message : String(e), [
          ...new Set(signed.flatMap(s => s.secrets)),
        ]);
        const replayable = (i: number) =>
          mayReplay(calls[i].op.kind, undefined);
        const replay =
          pending.some(replayable) &&
          attempt < this.retry.maxAttempts &&
          this.wait(attempt, 0);
        const lost = replay ? pending.filter(i => !replayable(i)) : pending;
        for (const i of lost) {
          outcomes[i] = {ok: false, error: networkError(calls[i].op, reason)};
        }
        pending = replay ? pending.filter(replayable) : [];
        continue;
      }
      const transient: number[] = [];
      const refused: number[] = [];
      let retryAfterMs = 0;
      responses.forEach((response, n) => {
        const i = pending[n];
        const {op, client} = calls[i];
        const outcome = open<T>(op, response);
        outcomes[i] = outcome;
        const busy =
          !outcome.ok && op.kind !== 'create' && isBusy(outcome.error);
        if (
          busy ||
          (isTransientStatus(response.status) &&
            mayReplay(op.kind, response.status))
        ) {
          transient.push(i);
          const after = parseRetryAfter(
            response.headers['retry-after'],
            this.deps.clock.now(),
          );
          retryAfterMs = Math.max(retryAfterMs, after ?? 0);
        } else if (
          !outcome.ok &&
          !refreshed.has(client.credentials) &&
          isKeyRefusal(outcome.error)
        ) {
          refused.push(i);
        }
      });
      // Refused keys are looked up afresh and the requests they hit sent again at once.
      const renewed = new Set<CredentialSource>();
      for (const i of refused) {
        const {credentials} = calls[i].client;
        if (refreshed.has(credentials)) continue;
        refreshed.add(credentials);
        if (credentials.refresh()) renewed.add(credentials);
      }
      const resign = refused.filter(i =>
        renewed.has(calls[i].client.credentials),
      );
      const replay =
        transient.length > 0 &&
        attempt < this.retry.maxAttempts &&
        this.wait(attempt, retryAfterMs);
      pending = [...resign, ...(replay ? transient : [])];
    }
    return outcomes;
  }

  private send(requests: HttpRequest[]): HttpResponse[] {
    return requests.length === 1
      ? [this.deps.http.send(requests[0])]
      : this.deps.http.sendAll(requests);
  }

  /** The URL a request of `op` with `query` goes to. */
  urlOf(op: OperationSpec, query?: Query): string {
    const base = op.upload
      ? this.endpoint.uploadBaseUrl
      : this.endpoint.baseUrl;
    const encoded = query ? encodeQuery(query) : '';
    return `${base.replace(/\/+$/, '')}${op.path}${encoded ? `?${encoded}` : ''}`;
  }

  /** The call signed by its client, or undefined with its failure in `outcomes[i]`. */
  private static signOrFail<T>(
    call: ApiCall,
    outcomes: Array<Outcome<T>>,
    i: number,
  ): Signed | undefined {
    try {
      return call.client.sign(call);
    } catch (e) {
      outcomes[i] = {
        ok: false,
        error: e instanceof Error ? e : new Error(String(e)),
      };
      return undefined;
    }
  }

  /** Signs with this client's keys at this client's clock. */
  private sign({op, payload}: ApiCall): Signed {
    const keys = this.credentials.current();
    const headers = authHeaders(keys, this.deps.clock.now(), this.deps.digest);
    const request: HttpRequest = {
      method: op.method,
      url: this.urlOf(op, payload.query),
      headers,
    };
    if (payload.json !== undefined) request.json = JSON.stringify(payload.json);
    if (payload.file !== undefined) request.file = payload.file;
    return {request, secrets: [keys.apiKey, keys.accessKey, headers.token]};
  }

  /** Sleeps before the next attempt unless that would pass the job's deadline. */
  private wait(attempt: number, retryAfterMs: number): boolean {
    const delay = backoffMs(
      attempt,
      this.retry,
      this.deps.random,
      retryAfterMs,
    );
    const {deadlineMs} = this.deps;
    if (deadlineMs !== undefined && this.deps.clock.now() + delay > deadlineMs)
      return false;
    this.deps.clock.sleep(delay);
    return true;
  }
}

/**
 * The answer's envelope opened. A write's failure that does not prove it was not applied
 * (retry.ts provesNotApplied) is an unknown outcome: the job looks the record up.
 */
function open<T>(op: OperationSpec, response: HttpResponse): Outcome<T> {
  try {
    return {
      ok: true,
      data: openEnvelope(op.name, response, op.messageField) as T,
    };
  } catch (e) {
    const error = e as ApiError;
    if (op.kind !== 'read' && !provesNotApplied(op.kind, error)) {
      return {ok: false, error: new OutcomeUnknownError(op.name, error)};
    }
    return {ok: false, error};
  }
}

function urlTooLong(op: OperationSpec, length: number): Error {
  return new ConfigError(
    `${op.name}: the request's URL would be ${length.toLocaleString('en-US')} characters, over the ${MAX_URL_LENGTH.toLocaleString('en-US')} Apps Script allows, so it was not sent. Shorten the base URL or the values asked for.`,
  );
}

/** `reason` has had keys and tokens cut out: a platform exception may quote URL and headers. */
function networkError(op: OperationSpec, reason: string): Error {
  const failure = new NetworkError(op.name, reason);
  return op.kind === 'read'
    ? failure
    : new OutcomeUnknownError(op.name, failure);
}

/**
 * Whether an answer refuses the signing keys. The API document shows no code for this, so it
 * is recognised by HTTP 401/403 or a message about the key, token, timestamp or signature.
 */
export function isKeyRefusal(error: Error): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.httpStatus === 401 || error.httpStatus === 403) return true;
  return /access[-_ ]?key|api[-_ ]?key|token|timestamp|signature|unauthori[sz]ed|authenticat/i.test(
    error.msg,
  );
}
