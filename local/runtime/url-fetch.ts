import {Env} from './env';
import {isPlainObject, PreparedRequest, prepareRequest} from './http-request';
import {FakeHttpResponse} from './http-response';
import {WireFetch, WireOutcome, WireRequest} from '../http-types';

const RESPONSE_LIMIT = 50 * 1024 * 1024;
const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** How much of an error body Apps Script quotes in its exception. */
const QUOTED_BODY_CHARS = 150;
const DAY_MS = 86400000;

/** UrlFetch calls per user per day (20,000 for consumer accounts), counted on the virtual clock. */
export class UrlFetchQuota {
  private readonly used = new Map<string, number>();

  constructor(readonly perDay: number) {}

  take(env: Env, requests: number): void {
    const key = `${env.user}:${Math.floor(env.clock.now() / DAY_MS)}`;
    const total = (this.used.get(key) ?? 0) + requests;
    if (total > this.perDay)
      env.fail('Service invoked too many times for one day: urlfetch.');
    this.used.set(key, total);
  }
}

interface Exchange {
  outcome: WireOutcome;
  /** Simulated time of the exchange, redirects included. */
  ms: number;
}

/** The UrlFetchApp global, over a pluggable synchronous wire. */
export class FakeUrlFetchApp {
  constructor(
    private readonly env: Env,
    private readonly wire: WireFetch,
    private readonly quota: UrlFetchQuota,
    /** Called once per fetch or fetchAll, after the wire answered and before the script sees it. */
    private readonly answering: () => void = () => {},
  ) {}

  fetch(url: unknown, params?: unknown): FakeHttpResponse {
    this.env.call('UrlFetchApp', 'UrlFetchApp.fetch');
    const request = prepareRequest(this.env, url, params);
    this.quota.take(this.env, 1);
    this.env.meter.add('UrlFetchApp.requests');
    const exchange = this.exchange(request);
    this.env.clock.advance(exchange.ms);
    this.answering();
    return this.answer(request, exchange);
  }

  /**
   * Sends every request at once: the batch costs its slowest exchange. A dropped connection
   * fails the whole call; so does an HTTP error of a request without muteHttpExceptions.
   */
  fetchAll(requests: unknown): FakeHttpResponse[] {
    if (!Array.isArray(requests)) {
      this.env.fail(
        "The parameters don't match the method signature for UrlFetchApp.fetchAll.",
      );
    }
    const perRequest = this.env.latency.urlFetchPerRequestMs;
    this.env.call(
      'UrlFetchApp',
      'UrlFetchApp.fetchAll',
      perRequest * Math.max(0, requests.length - 1),
    );
    const prepared = requests.map(r => {
      if (typeof r === 'string') return prepareRequest(this.env, r);
      if (!isPlainObject(r)) return this.env.fail('Invalid argument: requests');
      const {url, ...params} = r;
      return prepareRequest(this.env, url, params);
    });
    this.quota.take(this.env, prepared.length);
    this.env.meter.add('UrlFetchApp.requests', prepared.length);
    this.env.meter.add('UrlFetchApp.fetchAll.requests', prepared.length);
    const exchanges = prepared.map(p => this.exchange(p));
    this.env.clock.advance(Math.max(0, ...exchanges.map(e => e.ms)));
    this.answering();
    const dropped = exchanges.findIndex(e => e.outcome.kind === 'dropped');
    if (dropped >= 0)
      this.env.fail(`Address unavailable: ${prepared[dropped].wire.url}`);
    return this.env.realm.array(
      prepared.map((p, i) => this.answer(p, exchanges[i])),
    );
  }

  getRequest(url: unknown, params?: unknown): Record<string, unknown> {
    this.env.call('UrlFetchApp', 'UrlFetchApp.getRequest');
    const shown = prepareRequest(this.env, url, params).shown;
    return this.env.realm.object({
      ...shown,
      headers: this.env.realm.object(shown.headers as object),
    });
  }

  private exchange(request: PreparedRequest): Exchange {
    let wire: WireRequest = request.wire;
    let ms = 0;
    for (let hop = 0; ; hop++) {
      const outcome = this.wire(wire);
      this.env.meter.add('UrlFetchApp.exchanges');
      this.env.meter.add('UrlFetchApp.bytesSent', wire.body.length);
      ms += Math.max(this.env.latency.httpRoundTripMs, outcome.latencyMs);
      if (outcome.kind === 'dropped') return {outcome, ms};
      this.env.meter.add('UrlFetchApp.bytesReceived', outcome.body.length);
      const location = outcome.headers['location'];
      if (
        !request.followRedirects ||
        !REDIRECTS.has(outcome.status) ||
        !location ||
        hop === MAX_REDIRECTS
      ) {
        return {outcome, ms};
      }
      const url = new URL(location, wire.url).toString();
      const keepsBody =
        outcome.status === 307 ||
        outcome.status === 308 ||
        (outcome.status !== 303 && wire.method === 'GET');
      wire = keepsBody
        ? {...wire, url}
        : {
            method: 'GET',
            url,
            headers: Object.fromEntries(
              Object.entries(wire.headers).filter(
                ([k]) => k !== 'content-type',
              ),
            ),
            body: new Uint8Array(0),
          };
    }
  }

  private answer(
    request: PreparedRequest,
    {outcome}: Exchange,
  ): FakeHttpResponse {
    if (outcome.kind === 'dropped')
      return this.env.fail(`Address unavailable: ${request.wire.url}`);
    if (outcome.body.length > RESPONSE_LIMIT)
      this.env.fail('Limit Exceeded: URLFetch Response Size.');
    const response = new FakeHttpResponse(
      this.env,
      outcome.status,
      {...outcome.headers},
      outcome.body,
    );
    if (outcome.status >= 400 && !request.muteHttpExceptions) {
      const text = response.getContentText();
      const quoted =
        text.length > QUOTED_BODY_CHARS
          ? `${text.slice(0, QUOTED_BODY_CHARS)}...`
          : text;
      const origin = new URL(request.wire.url).origin;
      this.env.fail(
        `Request failed for ${origin} returned code ${outcome.status}. Truncated server response: ${quoted} (use muteHttpExceptions option to examine full response)`,
      );
    }
    return response;
  }
}
