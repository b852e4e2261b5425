import {ApiError, NetworkError, OutcomeUnknownError, redact} from './errors';
import {MessageField, openEnvelope} from './envelope';
import {encodeQuery, QueryValue} from './query';
import {
  DEFAULT_RETRY,
  OperationKind,
  RetryPolicy,
  backoffMs,
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
}

export interface Payload {
  query?: Readonly<Record<string, QueryValue>>;
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
    const outcomes: Array<Outcome<T>> = [];
    for (let start = 0; start < payloads.length; start += this.batchSize) {
      outcomes.push(
        ...this.sendChunk<T>(op, payloads.slice(start, start + this.batchSize)),
      );
    }
    return outcomes;
  }

  private sendChunk<T>(
    op: OperationSpec,
    payloads: readonly Payload[],
  ): Array<Outcome<T>> {
    const outcomes = new Array<Outcome<T>>(payloads.length);
    let pending = payloads.map((_, i) => i);
    let keysRefreshed = false;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const requests = pending.map(i => this.buildRequest(op, payloads[i]));
      let responses: HttpResponse[];
      try {
        responses = this.send(requests);
      } catch (e) {
        const failure = this.networkError(op, e, requests);
        const replay =
          mayReplay(op.kind, undefined) && attempt < this.retry.maxAttempts;
        if (replay && this.wait(attempt, 0)) continue;
        for (const i of pending) outcomes[i] = {ok: false, error: failure};
        return outcomes;
      }
      const transient: number[] = [];
      const refused: number[] = [];
      let retryAfterMs = 0;
      responses.forEach((response, n) => {
        const i = pending[n];
        const outcome = this.open<T>(op, response);
        outcomes[i] = outcome;
        if (
          isTransientStatus(response.status) &&
          mayReplay(op.kind, response.status)
        ) {
          transient.push(i);
          const after = parseRetryAfter(
            response.headers['retry-after'],
            this.deps.clock.now(),
          );
          retryAfterMs = Math.max(retryAfterMs, after ?? 0);
        } else if (
          !outcome.ok &&
          !keysRefreshed &&
          isKeyRefusal(outcome.error)
        ) {
          refused.push(i);
        }
      });
      // Keys refused once are looked up afresh and the requests they hit sent again at once.
      if (refused.length > 0) keysRefreshed = true;
      const resign =
        refused.length > 0 && this.credentials.refresh() ? refused : [];
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

  private buildRequest(op: OperationSpec, payload: Payload): HttpRequest {
    const base = op.upload
      ? this.endpoint.uploadBaseUrl
      : this.endpoint.baseUrl;
    const query = payload.query ? encodeQuery(payload.query) : '';
    const request: HttpRequest = {
      method: op.method,
      url: `${base.replace(/\/+$/, '')}${op.path}${query ? `?${query}` : ''}`,
      headers: authHeaders(
        this.credentials.current(),
        this.deps.clock.now(),
        this.deps.digest,
      ),
    };
    if (payload.json !== undefined) request.json = JSON.stringify(payload.json);
    if (payload.file !== undefined) request.file = payload.file;
    return request;
  }

  private open<T>(op: OperationSpec, response: HttpResponse): Outcome<T> {
    try {
      return {
        ok: true,
        data: openEnvelope(op.name, response, op.messageField) as T,
      };
    } catch (e) {
      const error = e as ApiError;
      if (op.kind === 'create' && response.status >= 500) {
        return {ok: false, error: new OutcomeUnknownError(op.name, error)};
      }
      return {ok: false, error};
    }
  }

  /** A platform exception may quote the URL or headers: keys and tokens are cut out. */
  private networkError(
    op: OperationSpec,
    e: unknown,
    sent: HttpRequest[],
  ): Error {
    const keys = this.credentials.current();
    const reason = redact(e instanceof Error ? e.message : String(e), [
      keys.apiKey,
      keys.accessKey,
      ...sent.map(r => r.headers.token),
    ]);
    const failure = new NetworkError(op.name, reason);
    return op.kind === 'create'
      ? new OutcomeUnknownError(op.name, failure)
      : failure;
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
