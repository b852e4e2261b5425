import type {Env, Service} from './env';

/**
 * What Google may do to an add-on's runs that a plain run here never meets: the user must
 * authorize the add-on again (its triggers keep firing), a trigger runs without the active
 * spreadsheet or the document lock, the day's time for triggers is spent.
 */

/** Apps Script's error for a service whose permission the user has not granted (yet). */
export const AUTHORIZATION_REQUIRED =
  'Authorization is required to perform that action.';
/** Apps Script's error once the day's time for a user's triggers is spent (the quotas page). */
export const TRIGGER_TIME_USED_UP =
  'Service using too much computer time for one day';
/** Trigger runtime a day: 90 minutes for a consumer account (6 hours with Workspace). */
export const DEFAULT_TRIGGER_DAILY_MS = 90 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Users who must authorize the add-on again, and the services that fail for them until then. */
export class Authorizations {
  private readonly pending = new Map<string, ReadonlySet<Service>>();

  constructor(private readonly scriptId: string) {}

  /**
   * `user` must authorize again: ScriptApp.getAuthorizationInfo(FULL) says REQUIRED, and each
   * service in `blocked` throws AUTHORIZATION_REQUIRED (what a new scope the user has not
   * granted does; the services of scopes granted before keep working).
   */
  require(user: string, blocked: readonly Service[] = []): void {
    this.pending.set(user, new Set(blocked));
  }

  /** `user` authorized the add-on (opened a menu item and allowed it). */
  grant(user: string): void {
    this.pending.delete(user);
  }

  required(user: string): boolean {
    return this.pending.has(user);
  }

  /** A stand-in for the page Google answers with getAuthorizationUrl(); null when none is needed. */
  url(user: string): string | null {
    return this.required(user)
      ? `https://script.google.com/macros/d/${this.scriptId}/authorize?authuser=${encodeURIComponent(user)}`
      : null;
  }

  /** Throws Apps Script's error where `service` waits for the user's authorization. */
  check(env: Env, service: Service, key: string): void {
    // Asking whether authorization is needed is what works without it.
    if (key === 'ScriptApp.getAuthorizationInfo') return;
    if (this.pending.get(env.user)?.has(service))
      env.fail(AUTHORIZATION_REQUIRED);
  }
}

/**
 * Each user's time spent in trigger runs, per (UTC) day, against the daily quota. A trigger run
 * whose call finds the day's time spent gets Google's error once: from the call that crosses
 * the quota, or from its first call when it starts past it (Google then refuses it at once, and
 * it ends there, the add-on's handler having caught nothing). Not said by Google: whether calls
 * after that error succeed; here they do, so a handler may record what happened.
 */
export class TriggerTime {
  private readonly used = new Map<string, number>();
  /** Executions that already got the error. */
  private readonly told = new Set<number>();

  constructor(readonly dailyMs: number) {}

  /** Adds a finished trigger run's time to its user's day. */
  add(user: string, startMs: number, endMs: number): void {
    const key = this.key(user, startMs);
    this.used.set(key, (this.used.get(key) ?? 0) + (endMs - startMs));
  }

  /** The user's trigger time so far on the day of `atMs` (runs that ended). */
  spent(user: string, atMs: number): number {
    return this.used.get(this.key(user, atMs)) ?? 0;
  }

  check(env: Env): void {
    const run = env.execution;
    if (!run || run.kind !== 'trigger' || this.told.has(run.id)) return;
    const now = env.clock.now();
    if (this.spent(run.user, run.startMs) + (now - run.startMs) < this.dailyMs)
      return;
    this.told.add(run.id);
    env.fail(TRIGGER_TIME_USED_UP);
  }

  private key(user: string, atMs: number): string {
    return `${user} ${Math.floor(atMs / DAY_MS)}`;
  }
}

/** Whether a trigger run gets an active spreadsheet and a document lock (Google may give neither). */
export interface TriggerContext {
  spreadsheet: boolean;
  documentLock: boolean;
}
