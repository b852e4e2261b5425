/**
 * When a request may be sent again, and after how long; and what an API refusal says.
 *
 * Reads are replayed after any transient failure. A write (create or replace) is replayed only
 * after an answer that proves it was not applied: a 429 (the API document shows no rate-limit
 * behaviour; this is the HTTP meaning) or, for a replace, a busy refusal (`isBusy`). A lost
 * connection, a 5xx or an HTTP 200 that is no envelope may come after the server applied it:
 * its outcome is unknown, and the job reads the record back rather than send it blind (a
 * replayed PUT tracking restarts the click-URL test; a replayed create makes a twin).
 */
import {ApiError} from './errors';

export type OperationKind = 'read' | 'replace' | 'create';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 20000,
};

export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Whether a transient answer (or a network failure, status undefined) may be replayed. */
export function mayReplay(
  kind: OperationKind,
  status: number | undefined,
): boolean {
  if (kind === 'read') return true;
  return status === 429;
}

/**
 * Codes the API document lists for validation failures (4.5): the values were judged. The
 * document shows no other codes (assumption, docs/architecture.md).
 */
const VERDICT_CODES = new Set([10000, 11423]);

/**
 * Whether an API refusal is a definite verdict on the values sent, so the same request would
 * be refused again: field details (a validation answer maps fields to texts, part 7), a code
 * the document lists for validation, or "Permission denied". Anything else (an unknown code
 * without details, "busy", refused keys, a 429 or 5xx) says nothing about the values.
 */
export function hasVerdict(error: Error): boolean {
  if (!(error instanceof ApiError) || error.code === null) return false;
  if (error.httpStatus >= 500 || error.httpStatus === 429) return false;
  if (error.httpStatus === 401 || error.httpStatus === 403) return false;
  return (
    Object.keys(error.details).length > 0 ||
    VERDICT_CODES.has(error.code) ||
    /permission denied/i.test(error.msg)
  );
}

/**
 * A refusal that says the service could not take the request now ("system busy, please try
 * again later"): a failure code without field details whose text asks to come back later.
 * Taken to mean nothing was applied (assumption, docs/architecture.md).
 */
export function isBusy(error: Error): boolean {
  return (
    error instanceof ApiError &&
    error.code !== null &&
    error.httpStatus < 400 &&
    !hasVerdict(error) &&
    (error.code === BUSY_CODE ||
      /busy|try again|later|temporar|overload|too (many|frequent)/i.test(
        error.msg,
      ))
  );
}

/** The code the service answers "system busy, please try again later" with (assumption). */
const BUSY_CODE = 10500;

/**
 * Whether a write's failed answer proves the write was not applied, so that sending it again
 * cannot apply it twice:
 * - a 429, 401 or 403: refused at the door (rate limit, keys);
 * - the service's own failure envelope (JSON with a code other than 200) under an HTTP status
 *   below 500, unless its text says the service timed out (it may have applied the write) or
 *   says success (a dialect that calls success 0, say: assumption, docs/architecture.md), and,
 *   for a create, unless it is a busy refusal: the document does not say a busy service applied
 *   nothing, and a create applied twice is a twin offer, so its offer is looked up by name. A
 *   replace's busy answer is taken as not applied and replayed (assumption).
 * Anything else may come from a proxy or gateway after the service applied the write: a 5xx
 * (even with an envelope), an answer that is no envelope (an HTML page under HTTP 200, a
 * cut-off body).
 */
export function provesNotApplied(
  kind: 'replace' | 'create',
  error: ApiError,
): boolean {
  if ([401, 403, 429].includes(error.httpStatus)) return true;
  if (error.code === null || error.code === 200 || error.httpStatus >= 500)
    return false;
  if (/timed? ?out|timeout/i.test(error.msg) || saysSuccess(error.msg))
    return false;
  return kind === 'replace' || !isBusy(error);
}

/** A msg that reports success, whatever the code beside it says. */
function saysSuccess(msg: string): boolean {
  return /^\s*(success(ful(ly)?)?|succeeded|ok)\s*[.!]?\s*$/i.test(msg);
}

/**
 * Exponential backoff with full jitter, never shorter than the server's Retry-After.
 * `attempt` counts from 1 (the attempt that just failed).
 */
export function backoffMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs = 0,
): number {
  const ceiling = Math.min(
    policy.maxDelayMs,
    policy.baseDelayMs * 2 ** (attempt - 1),
  );
  const jittered = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return Math.max(jittered, retryAfterMs);
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | undefined,
  nowMs: number,
): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
