/**
 * When a request may be sent again, and after how long.
 *
 * Reads and full-replacement PUTs (budget, tracking, campaign) are safe to replay: sending
 * the same replacement twice leaves the same state. Creates are not: a network failure or a
 * 5xx after sending leaves their outcome unknown. A 429 is taken to mean the request was
 * refused before it was applied (the API document shows no rate-limit behaviour; this is the
 * HTTP meaning), so it is retried for every kind.
 */

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
  if (kind !== 'create') return true;
  return status === 429;
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
