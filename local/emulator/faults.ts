/**
 * Fault injection: latency, a skewed clock, and rules that answer 5xx or 429 or drop the
 * connection instead of (or after) serving a request. Random choices come from a PRNG seeded
 * from the emulator seed and restarted whenever the rules change, so a test that sets its
 * faults sees the same failures on every run.
 */
import {deriveSeed, Prng} from './prng';

export type FaultKind = 'error' | 'rateLimit' | 'drop';

export interface FaultRule {
  kind: FaultKind;
  /** Only requests with this method (any case); all when omitted. */
  method?: string;
  /** Only this path; a trailing '*' matches a prefix. All API paths when omitted. */
  path?: string;
  /** error: the HTTP status, default 503. */
  status?: number;
  /** rateLimit: the Retry-After seconds, default 1. */
  retryAfterSeconds?: number;
  /** drop: whether the request was applied before the connection dropped; default true. */
  applied?: boolean;
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
  retryAfterSeconds: number;
  applied: boolean;
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

  /** The first rule that fires for this request, if any. `key` identifies a retry. */
  decide(method: string, path: string, key: string): FaultDecision | undefined {
    for (const entry of this.active) {
      const {rule} = entry;
      if (!matches(rule, method, path)) continue;
      if (rule.once && entry.failed.has(key)) continue;
      const index = entry.eligible++;
      const fires =
        (rule.count === undefined || entry.fired < rule.count) &&
        (rule.every === undefined || index % rule.every === 0) &&
        (rule.rate === undefined || this.rng.next() < rule.rate);
      if (!fires) continue;
      entry.fired++;
      if (rule.once) entry.failed.add(key);
      return {
        kind: rule.kind,
        status: rule.kind === 'rateLimit' ? 429 : (rule.status ?? 503),
        retryAfterSeconds: rule.retryAfterSeconds ?? 1,
        applied: rule.applied ?? true,
      };
    }
    return undefined;
  }

  private freshRng(): Prng {
    return new Prng(deriveSeed(this.seed, 'faults'));
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (!rule.path) return true;
  return rule.path.endsWith('*')
    ? path.startsWith(rule.path.slice(0, -1))
    : path === rule.path;
}

function checkRule(rule: FaultRule): void {
  if (!['error', 'rateLimit', 'drop'].includes(rule.kind)) {
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
  if (rule.every !== undefined && !(rule.every >= 1)) {
    throw new RangeError('a fault `every` is at least 1');
  }
}
