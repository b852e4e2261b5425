/**
 * Fault injection: latency, a skewed clock, and rules that answer 5xx or 429, drop the
 * connection, answer a garbled body or a transient refusal under HTTP 200, or answer slowly,
 * instead of (or after) serving a request. Random choices come from a PRNG seeded
 * from the emulator seed and restarted whenever the rules change, so a test that sets its
 * faults sees the same failures on every run.
 */
import {deriveSeed, Prng} from './prng';

/**
 * - error: a gateway's 5xx (text/plain); with `applied` the request was served first.
 * - rateLimit: 429 with Retry-After, never applied.
 * - drop: the connection is lost; with `applied` (the default) after serving.
 * - garbled: HTTP 200 whose body is not JSON (a proxy's page, a cut-off body); with `applied`
 *   (the default) after serving.
 * - busy: HTTP 200 with a failure envelope `{code, msg}` (default 10500, "system busy,
 *   please try again later"), never applied: the service's own transient refusal.
 * - slow: served normally, `latencyMs` later.
 * - recode: served, then answered with the service's envelope under another `code` (and `msg`,
 *   when given), its data kept: a dialect that calls success 0, say.
 * - strip: served, then the named `fields` taken out of the answer's data (of each record, for
 *   a list; `data` takes out data itself): an answer short of what the document names.
 * - page: a list page served off the document (`page`): without `total`, or short of records
 *   that later pages still hold (a hole). Other answers pass untouched.
 */
export type FaultKind =
  | 'error'
  | 'rateLimit'
  | 'drop'
  | 'garbled'
  | 'busy'
  | 'slow'
  | 'recode'
  | 'strip'
  | 'page';

/**
 * How a `page` fault bends a list answer: `noTotal` leaves `total` out of data; `zeroTotal`
 * tells a total of 0 beside the records; `short` keeps
 * the first half of the page's records (rounded down) and drops the rest; `noLimit` pages by
 * OWN_PAGE_SIZE whatever limit was asked and leaves `limit` out of data; `repeat` answers
 * page 1 whatever page was asked (a server that ignores `page`); `noId` takes its id
 * (ad_id, offer_id, campaign_id, creative_md5 or sub_adv_user_name, the first it has) from the
 * page's first record.
 */
export type PageShape =
  'noTotal' | 'zeroTotal' | 'short' | 'noLimit' | 'repeat' | 'noId';

/** The page size of a `noLimit` answer. */
export const OWN_PAGE_SIZE = 20;

export const FAULT_KINDS: readonly FaultKind[] = [
  'error',
  'rateLimit',
  'drop',
  'garbled',
  'busy',
  'slow',
  'recode',
  'strip',
  'page',
];

export const BUSY_CODE = 10500;
export const BUSY_MSG = 'system busy, please try again later';
/** What a garbled answer carries unless the rule gives its own `body`. */
export const GARBLED_BODY =
  '<html><head><title>502 Bad Gateway</title></head><body>upstream closed</body></html>';

export interface FaultRule {
  kind: FaultKind;
  /** Only requests with this method (any case); all when omitted. */
  method?: string;
  /** Only this path; a trailing '*' matches a prefix. All API paths when omitted. */
  path?: string;
  /**
   * Only requests signed with this account's access-key (its user name): one account of an
   * agency failing while the others answer. All accounts when omitted.
   */
  account?: string;
  /** error: the HTTP status, default 503. */
  status?: number;
  /** rateLimit: the Retry-After seconds, default 1; null leaves the header out. */
  retryAfterSeconds?: number | null;
  /**
   * Whether the request was served (applied) before the fault answered: default true for
   * drop and garbled, false for error; busy and rateLimit are never applied.
   */
  applied?: boolean;
  /**
   * busy: the envelope code (default BUSY_CODE) and msg (default BUSY_MSG); recode: the code
   * (required) and msg (default: the answer's own) the served answer is given. Text (`'200'`)
   * is sent as a JSON string: a code the document types int, answered as text.
   */
  code?: number | string;
  msg?: string;
  /**
   * garbled: the body text (default GARBLED_BODY); error and rateLimit: the body text in place
   * of the status line (an HTML page, or '' for an empty body).
   */
  body?: string;
  /** slow: the added latency of each matching request, in ms. */
  latencyMs?: number;
  /** strip: the fields taken out of data (or of each listed record); `data` for data itself. */
  fields?: string[];
  /** page: how the list answer is bent, default 'noTotal'. */
  page?: PageShape;
  /** Fire on at most this many requests, then stay quiet. */
  count?: number;
  /** Fire on the 1st, (1+every)th, (1+2*every)th... eligible matching request. */
  every?: number;
  /** Fire on this share (0-1) of eligible matching requests, drawn from the seeded PRNG. */
  rate?: number;
  /**
   * Fire at most once per distinct request (method, path, query and body): a retry of a
   * request that failed passes, and does not count as eligible.
   */
  once?: boolean;
}

export interface FaultConfig {
  /** Added to every API exchange: reported in-process, slept over HTTP. */
  latencyMs: number;
  /** The emulator's clock runs this many seconds ahead (negative: behind). */
  clockSkewSeconds: number;
  rules: FaultRule[];
}

export interface FaultDecision {
  kind: FaultKind;
  status: number;
  retryAfterSeconds: number | null;
  applied: boolean;
  code: number | string;
  msg: string;
  body: string | undefined;
  latencyMs: number;
  page: PageShape;
  fields: string[];
}

interface ActiveRule {
  rule: FaultRule;
  eligible: number;
  fired: number;
  failed: Set<string>;
}

export class Faults {
  private latency = 0;
  private skew = 0;
  private active: ActiveRule[] = [];
  private rng: Prng;

  constructor(private readonly seed: number) {
    this.rng = this.freshRng();
  }

  get latencyMs(): number {
    return this.latency;
  }

  get clockSkewSeconds(): number {
    return this.skew;
  }

  /** Replaces the parts given; rules given replace all rules (and restart their counters). */
  configure(config: Partial<FaultConfig>): void {
    if (config.latencyMs !== undefined) this.latency = config.latencyMs;
    if (config.clockSkewSeconds !== undefined)
      this.skew = config.clockSkewSeconds;
    if (config.rules !== undefined) {
      this.active = [];
      this.rng = this.freshRng();
      config.rules.forEach(rule => this.add(rule));
    }
  }

  add(rule: FaultRule): void {
    checkRule(rule);
    this.active.push({
      rule: {...rule},
      eligible: 0,
      fired: 0,
      failed: new Set(),
    });
  }

  /** No latency, no skew, no rules. */
  clear(): void {
    this.configure({latencyMs: 0, clockSkewSeconds: 0, rules: []});
  }

  config(): FaultConfig {
    return {
      latencyMs: this.latency,
      clockSkewSeconds: this.skew,
      rules: this.active.map(({rule}) => ({...rule})),
    };
  }

  /**
   * The first rule that fires for this request, if any. `key` identifies a retry; `signer` is
   * the account whose access-key the request carries (null: none has it).
   */
  decide(
    method: string,
    path: string,
    key: string,
    signer: string | null = null,
  ): FaultDecision | undefined {
    for (const entry of this.active) {
      const {rule} = entry;
      if (!matches(rule, method, path)) continue;
      if (rule.account !== undefined && rule.account !== signer) continue;
      if (rule.once && entry.failed.has(key)) continue;
      const index = entry.eligible++;
      const fires =
        (rule.count === undefined || entry.fired < rule.count) &&
        (rule.every === undefined || index % rule.every === 0) &&
        (rule.rate === undefined || this.rng.next() < rule.rate);
      if (!fires) continue;
      entry.fired++;
      if (rule.once) entry.failed.add(key);
      return decision(rule);
    }
    return undefined;
  }

  private freshRng(): Prng {
    return new Prng(deriveSeed(this.seed, 'faults'));
  }
}

function decision(rule: FaultRule): FaultDecision {
  const statuses: Record<FaultKind, number> = {
    error: rule.status ?? 503,
    rateLimit: 429,
    drop: 0,
    garbled: 200,
    busy: 200,
    slow: 200,
    recode: 200,
    strip: 200,
    page: 200,
  };
  const appliedByDefault: Record<FaultKind, boolean> = {
    error: false,
    rateLimit: false,
    drop: true,
    garbled: true,
    busy: false,
    slow: true,
    recode: true,
    strip: true,
    page: true,
  };
  const neverApplied = rule.kind === 'rateLimit' || rule.kind === 'busy';
  return {
    kind: rule.kind,
    status: statuses[rule.kind],
    retryAfterSeconds:
      rule.retryAfterSeconds === null ? null : (rule.retryAfterSeconds ?? 1),
    applied:
      rule.kind === 'slow' ||
      rule.kind === 'recode' ||
      rule.kind === 'strip' ||
      rule.kind === 'page' ||
      (!neverApplied && (rule.applied ?? appliedByDefault[rule.kind])),
    code: rule.code ?? BUSY_CODE,
    msg: rule.msg ?? (rule.kind === 'recode' ? '' : BUSY_MSG),
    body: rule.body,
    latencyMs: rule.latencyMs ?? 0,
    page: rule.page ?? 'noTotal',
    fields: rule.fields ?? [],
  };
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (!rule.path) return true;
  return rule.path.endsWith('*')
    ? path.startsWith(rule.path.slice(0, -1))
    : path === rule.path;
}

function checkRule(rule: FaultRule): void {
  if (!FAULT_KINDS.includes(rule.kind)) {
    throw new RangeError(`unknown fault kind: ${String(rule.kind)}`);
  }
  if (rule.kind === 'error' && rule.status !== undefined) {
    if (rule.status < 500 || rule.status > 599) {
      throw new RangeError('an error fault answers a 5xx status');
    }
  }
  if (rule.rate !== undefined && (rule.rate < 0 || rule.rate > 1)) {
    throw new RangeError('a fault rate lies between 0 and 1');
  }
  if (rule.kind === 'strip' && !rule.fields?.length) {
    throw new RangeError('a strip fault names the fields it takes out');
  }
  if (rule.kind === 'recode' && rule.code === undefined) {
    throw new RangeError('a recode fault names the code it answers');
  }
  if (rule.kind === 'busy' && Number(rule.code) === 200) {
    throw new RangeError('a busy fault answers a failure code, not 200');
  }
  if (rule.kind === 'slow' && !((rule.latencyMs ?? 0) > 0)) {
    throw new RangeError('a slow fault adds a positive latencyMs');
  }
  if (
    rule.page !== undefined &&
    !['noTotal', 'zeroTotal', 'short', 'noLimit', 'repeat', 'noId'].includes(
      rule.page,
    )
  ) {
    throw new RangeError(`unknown page shape: ${String(rule.page)}`);
  }
  if (rule.every !== undefined && !(rule.every >= 1)) {
    throw new RangeError('a fault `every` is at least 1');
  }
}
