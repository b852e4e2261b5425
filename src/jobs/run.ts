/**
 * What every job shares: one job at a time per spreadsheet (the document lock, released in
 * finally), a time budget inside Apps Script's 6-minute execution limit, and the summary
 * every entry point returns.
 */
import {ConfigError} from '../api/errors';
import type {Platform} from '../platform/ports';
import type {SyncStatus} from '../sheets/status';
import {counted} from '../text/wording';

/** Apps Script ends an execution after 6 minutes. */
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
/** No new batch starts after this: what is under way still finishes and writes its rows. */
export const START_BUDGET_MS = 4.5 * 60 * 1000;
/** No retry is waited for after this. */
const RETRY_BUDGET_MS = 5 * 60 * 1000;
/** How long a job waits for another job's lock before giving up. */
export const LOCK_WAIT_MS = 10 * 1000;

/** A row's sync_status (DESIGN 4.3). */
export type RowStatus = SyncStatus;

/** A row that needs the user's attention. */
export interface RowProblem {
  sheet: string;
  /** 1-based sheet row. */
  row: number;
  status: RowStatus;
  message: string;
}

export interface JobSummary {
  job: string;
  /** Who acted: 'main account' or 'sub-account NAME'. */
  account: string;
  ok: number;
  invalid: number;
  error: number;
  /** Rows looked at and left as they were (not edited, nothing to do): "unchanged" in messages. */
  skipped: number;
  /** Rows not reached because the time budget ran out; running the job again continues. */
  remaining: number;
  dryRun: boolean;
  /** One line for a toast. */
  message: string;
  /** The first rows that need attention (at most MAX_PROBLEMS). */
  problems: RowProblem[];
  /** Requests sent to the API. */
  requests?: number;
  /** Rows kept with unpushed edits (a refresh) or found changed (a push preview). */
  edited?: number;
  /** Rows kept as CONFLICT: edited here while the server changed them. */
  conflict?: number;
  /** The History change id of what this run sent (none when it sent nothing). */
  changeId?: string;
  /** A preview: the request bodies a push would send. */
  wouldSend?: unknown[];
  /** A refresh of offers: the new alerts, one line each (offer, what changed, reason). */
  alerts?: string[];
  /** A scheduled run: what became of its emails (alerts, scheduled changes applied). */
  alertsEmail?: string;
  /** A refresh of offers: alerts the Alerts sheet could not take, kept for the next one. */
  unwrittenAlerts?: number;
  /** A job that acted for several accounts: one line each (the sidebar lists them). */
  accounts?: AccountLine[];
}

/** What one account of a run that acted for several came to. */
export interface AccountLine {
  /** As accountLabel says it: 'main account', 'sub-account NAME'. */
  account: string;
  /** Records listed (a refresh). */
  records: number;
  /** Why the account was left out, its rows as they were. */
  error?: string;
}

export const MAX_PROBLEMS = 50;

/**
 * Whether rows wait for the user: refused, failed, left for lack of time, or CONFLICT (a
 * refresh or a revert kept them); or alerts the Alerts sheet could not take. The menu alerts, the schedule records "attention" and the
 * sidebar turns amber or red alike.
 */
export function needsAttention(summary: JobSummary): boolean {
  return (
    summary.invalid > 0 ||
    summary.error > 0 ||
    summary.remaining > 0 ||
    (summary.conflict ?? 0) > 0 ||
    (summary.unwrittenAlerts ?? 0) > 0
  );
}

/** When the job started and whether it may still start new work. */
export class TimeBudget {
  readonly startedAt: number;
  /** The longest batch of requests so far, in ms. */
  private slowest = 0;
  constructor(
    private readonly now: () => number,
    /** When the execution started, if before this job: the limit is the execution's. */
    startedAt?: number,
  ) {
    this.startedAt = Math.min(startedAt ?? Infinity, now());
  }
  /** True while a new batch may still start. */
  canStart(): boolean {
    return this.leftMs() > 0;
  }
  /**
   * How long new batches may still start: the time a job's plan must fit, less what the jobs
   * before it in the execution took.
   */
  leftMs(): number {
    return START_BUDGET_MS - (this.now() - this.startedAt);
  }
  get retryDeadline(): number {
    return this.startedAt + RETRY_BUDGET_MS;
  }
  /**
   * Whether `batches` batches in a row may start now: the slowest batch so far says they would
   * all end before the retry deadline.
   */
  fits(batches: number): boolean {
    return (
      this.canStart() &&
      this.now() + this.slowest * batches <= this.retryDeadline
    );
  }
  /**
   * Runs one batch of requests if it may start, and if the slowest batch so far says it would
   * end before the retry deadline (a batch Apps Script cuts off loses every answer in it);
   * measures it. Undefined: not started.
   */
  batch<T>(send: () => T): T | undefined {
    const started = this.now();
    if (!this.fits(1)) return undefined;
    try {
      return send();
    } finally {
      this.slowest = Math.max(this.slowest, this.now() - started);
    }
  }
}

/** LockService gives no document lock outside a document's context (a trigger may be there). */
export const NO_DOCUMENT_LOCK =
  'Apps Script gave this run no document lock (LockService.getDocumentLock() answered null), so Offer Desk cannot keep other jobs from running at the same time: nothing was done.';

export class LockBusyError extends Error {
  override readonly name = 'LockBusyError';
  constructor() {
    super(
      'Another Offer Desk job is running in this spreadsheet: try again when it has finished.',
    );
  }
}

/**
 * Runs `job` holding the document lock; the lock is released however the job ends, and its
 * progress report goes with it (a job that threw half-way would otherwise look still running).
 * The report goes first, while the lock still keeps the next job from reporting, and a cache
 * that fails to remove it does not keep the lock.
 */
export function withDocumentLock<T>(platform: Platform, job: () => T): T {
  const lock = platform.documentLock();
  if (!lock) throw new ConfigError(NO_DOCUMENT_LOCK);
  if (!lock.tryAcquire(LOCK_WAIT_MS)) throw new LockBusyError();
  try {
    return job();
  } finally {
    try {
      platform.progress.end();
    } finally {
      lock.release();
    }
  }
}

/** The toast line: counts first, then what is left and where to look. */
export function summaryLine(
  s: Omit<JobSummary, 'message'>,
  sheet?: string,
): string {
  // "168 unchanged" beside 120 offers reads as offers: the count is of the sheet's rows.
  const unchanged = sheet
    ? counted(
        s.skipped,
        `unchanged ${sheet.toLowerCase().replace(/s$/, '')} row`,
      )
    : `${s.skipped} unchanged`;
  const counts = `${s.ok} OK, ${s.invalid} invalid, ${s.error} error, ${unchanged}`;
  const preview = s.dryRun ? 'Preview (nothing sent): ' : '';
  const left =
    s.remaining > 0
      ? ` ${counted(s.remaining, 'row')} left for lack of time: run it again to continue.`
      : '';
  const look =
    sheet && (s.invalid > 0 || s.error > 0)
      ? ` See sync_message in ${sheet}.`
      : '';
  return `${preview}${counts} (${s.account}).${left}${look}`;
}
