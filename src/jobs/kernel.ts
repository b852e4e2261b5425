/**
 * The job kernel: what every job that reads and writes the spreadsheet gets, made once here.
 * `withExecution` holds the document lock (released in finally), starts the time budget,
 * connects, and opens the spreadsheet and (when asked) the state book once, for every job of
 * the execution; `withJob` runs one job in an execution (a new one unless given `within`) and
 * gives it its History change log and the writers of its sheets. `Job.save` writes every
 * outcome settled so far (rows, state, History) and sends it, so a job saves as its answers
 * arrive; `withJob` saves once more at the end and closes the summary, built by the one
 * `Job.summary`.
 */
import type {Platform, Workbook} from '../platform/ports';
import type {SheetSchema} from '../sheets/schema';
import {StateBook} from '../state/book';
import {Outbox} from '../state/outbox';
import {Table, openTable} from '../sheets/table';
import {counted} from '../text/wording';
import {ChangeLog} from './change-log';
import {Connected, accountLabel, connect} from './connect';
import {previewSummary} from './preview';
import {RowWrites} from './row-writes';
import {
  JobSummary,
  MAX_PROBLEMS,
  RowProblem,
  TimeBudget,
  summaryLine,
  withDocumentLock,
} from './run';

/**
 * Rows are written again "when due": once the time since is this many times what writing them
 * took. Their state and History are saved after every batch whatever this says.
 */
const ROWS_SHARE = 30;

/** What the user may ask of a job that sends (the entry points take it). */
export interface RunOptions {
  /** A preview: nothing is sent, and nothing a later run reads is saved. */
  dryRun?: boolean;
  /** Run by the schedule, with no one looking: a refresh of offers emails its alerts. */
  scheduled?: boolean;
  /** A push to schedule instead of send (DESIGN 4.5): when it goes out, Unix seconds. */
  at?: unknown;
  /** When a scheduled push is put back, Unix seconds; optional. */
  until?: unknown;
  /**
   * The execution a job runs in after another (the scheduled refresh after the due changes):
   * the lock it already holds, its time budget, connection, workbook and state book, so the
   * job sees what the one before wrote and no other job runs between them.
   */
  within?: Execution;
  /**
   * With `within`: what took part of the execution's time before this job, as messages say it
   * ('the scheduled changes'). A refresh that cannot fit the time left says so and waits for
   * the next run; absent, the job has the run to itself.
   */
  after?: string;
}

export interface JobOptions extends RunOptions {
  /** Acts as the main account whatever the acting account (sub-accounts are made with it). */
  asMain?: boolean;
}

/** What a job found and did, for its summary. */
export interface JobFacts {
  /** The sheet whose sync_message says more. */
  sheet: string;
  ok: number;
  invalid: number;
  error: number;
  skipped: number;
  remaining?: number;
  requests?: number;
  problems?: RowProblem[];
  edited?: number;
  conflict?: number;
  /**
   * The sentence that says it better than the counts line: there was nothing to do (a
   * preview's too), or what a refresh listed.
   */
  message?: string;
  /** A preview's requests, known before anything is sent. */
  wouldSend?: unknown[];
  /** How many requests a preview's run would send, where wouldSend does not list them all. */
  wouldRequest?: number;
  /**
   * The records the job sent (or would send) by account ('' the main account): each goes out
   * as its owner, so where they are not all the acting account's, the summary names each.
   */
  accounts?: ReadonlyMap<string, number>;
}

/**
 * What the jobs of one execution share, made once under the document lock: the time budget
 * (Apps Script's limit is the execution's), the connection, the workbook (its sheets looked up
 * once) and the state book with its outbox, read the first time a job asks for it. A job
 * after another reads the state as the one before left it, its unsaved changes included.
 */
export class Execution {
  readonly budget: TimeBudget;
  readonly connected: Connected;
  readonly workbook: Workbook;
  private opened?: {book: StateBook; outbox: Outbox};

  constructor(
    readonly platform: Platform,
    /** When the execution started, if before the lock was held (a trigger's run). */
    startedAt?: number,
  ) {
    this.budget = new TimeBudget(() => platform.clock.now(), startedAt);
    this.connected = connect(platform, this.budget.retryDeadline);
    this.workbook = platform.workbook();
  }

  /**
   * The state book, read once (the first time it is asked for), and its outbox opened with it:
   * an earlier release's marks in the book are the outbox's before anything reads them.
   */
  get book(): StateBook {
    return this.open().book;
  }

  /** The requests out whose outcome is unknown (state/outbox.ts), kept in the state book. */
  get outbox(): Outbox {
    return this.open().outbox;
  }

  private open(): {book: StateBook; outbox: Outbox} {
    if (!this.opened) {
      const book = StateBook.open(this.workbook);
      this.opened = {book, outbox: Outbox.of(book)};
    }
    return this.opened;
  }

  /** Queues the state book's changes, where a job opened it (it is not read to be saved). */
  saveBook(): void {
    this.opened?.book.save();
  }
}

export class Job {
  readonly platform: Platform;
  readonly budget: TimeBudget;
  readonly connected: Connected;
  /** Who acts, as messages say it: 'main account', 'sub-account X'. */
  readonly account: string;
  /** Who acts: '' the main account, a sub-account's name, or EVERY_ACCOUNT. */
  private readonly acting: string;
  readonly workbook: Workbook;
  readonly log: ChangeLog;
  readonly dryRun: boolean;
  private readonly writers: Array<RowWrites<unknown>> = [];
  private gone = 0;
  /** When the rows were last written, and what writing them took (simulated ms). */
  private rowsSavedAt = 0;
  private rowsSaveMs = 0;

  constructor(
    private readonly execution: Execution,
    readonly name: string,
    options: JobOptions,
  ) {
    this.platform = execution.platform;
    this.dryRun = options.dryRun === true;
    this.budget = execution.budget;
    this.connected = execution.connected;
    const acting = options.asMain ? '' : this.connected.account;
    this.acting = acting;
    this.account = accountLabel(acting);
    this.workbook = execution.workbook;
    this.log = new ChangeLog(this.platform, name, this.account);
  }

  /** The execution's state book (Execution.book). */
  get book(): StateBook {
    return this.execution.book;
  }

  /** The execution's outbox (Execution.outbox). */
  get outbox(): Outbox {
    return this.execution.outbox;
  }

  /** The writer of a sheet of the user's input (created when missing), saved with the job. */
  rows<S>(schema: SheetSchema<S>): RowWrites<S> {
    return this.track(
      openTable(this.workbook, schema, {create: true, input: true})!,
    );
  }

  /**
   * The writer of a sheet the job read itself, saved with the job. `stamp` is the synced_at
   * its rows get, where one time stands for the whole run (a refresh's listing, a revert's
   * change): by default the time each row is written.
   */
  track<S>(
    table: Table<S>,
    stamp: () => number = () => this.platform.clock.now(),
  ): RowWrites<S> {
    const rows = new RowWrites(table, stamp);
    this.writers.push(rows as RowWrites<unknown>);
    return rows;
  }

  /**
   * Forgets a writer that has nothing left to write (a refresh's sheet, written): the job's
   * saves would flush it for nothing, and it would hold its sheet's values and rows in memory
   * until the job ends, beside the next sheet's.
   */
  release<S>(rows: RowWrites<S>): void {
    if (rows.writer.pending()) return;
    const at = this.writers.indexOf(rows as RowWrites<unknown>);
    if (at >= 0) this.writers.splice(at, 1);
  }

  /**
   * Writes every outcome settled so far and sends it (SpreadsheetApp.flush): the state and
   * History each time, so an execution Apps Script kills later loses no record of what the
   * server accepted; the rows too, unless `rows` is 'when due': then only once writing them
   * costs at most a thirtieth of the time since they were last written (locating rows reads the
   * sheet's identity columns again, DESIGN 6), so a long push on a large sheet does not spend
   * its time rewriting statuses its state already holds. A preview saves its rows only.
   */
  save(rows: 'now' | 'when due' = 'now'): void {
    const now = this.platform.clock.now();
    const due = now - this.rowsSavedAt >= ROWS_SHARE * this.rowsSaveMs;
    if (rows === 'now' || due) {
      for (const writer of this.writers) {
        this.gone += writer.flush().gone.length;
      }
      this.rowsSaveMs = this.platform.clock.now() - now;
      this.rowsSavedAt = this.platform.clock.now();
    }
    if (!this.dryRun) {
      // History first: finding its last row is a read, which would send the queue of the
      // state's writes in a round trip of its own.
      this.log.flush(this.workbook);
      this.execution.saveBook();
    }
    this.workbook.flush();
  }

  /**
   * Sends the state book's changes now, and nothing else: a mark a job needs on record before
   * its requests leave (the files of an upload batch), without locating rows again.
   */
  saveState(): void {
    if (this.dryRun) return;
    this.execution.saveBook();
    this.workbook.flush();
  }

  /** The summary every job returns, from what it found and did. */
  summary(facts: JobFacts): JobSummary {
    const counts = {
      job: this.name,
      account: this.account,
      ok: facts.ok,
      invalid: facts.invalid,
      error: facts.error,
      skipped: facts.skipped,
      remaining: facts.remaining ?? 0,
      dryRun: this.dryRun,
      problems: (facts.problems ?? []).slice(0, MAX_PROBLEMS),
      requests: facts.requests ?? 0,
      ...(facts.edited !== undefined && !this.dryRun
        ? {edited: facts.edited}
        : {}),
      ...(facts.conflict !== undefined ? {conflict: facts.conflict} : {}),
    };
    const whose = {...counts, account: touched(facts.accounts, this.acting)};
    const lines = accountLines(facts.accounts, this.acting);
    if (this.dryRun && facts.message === undefined) {
      const wouldSend = facts.wouldSend ?? [];
      return {
        ...previewSummary(whose, {
          sheet: facts.sheet,
          edited: facts.edited ?? 0,
          requests: facts.wouldRequest ?? wouldSend.length,
          wouldSend,
        }),
        account: this.account,
        ...lines,
      };
    }
    return {
      ...counts,
      message: facts.message ?? summaryLine(whose, facts.sheet),
      ...lines,
    };
  }

  /** The summary as the user gets it: rows that moved away said, History's change id added. */
  close(summary: JobSummary): JobSummary {
    const moved =
      this.gone > 0
        ? ` ${counted(this.gone, 'row')} moved away or deleted while the job ran: ${this.gone === 1 ? 'its' : 'their'} outcome is in History and the job's state, not in the sheet; refresh to see ${this.gone === 1 ? 'it' : 'them'}.`
        : '';
    return this.log.close(this.workbook, {
      ...summary,
      message: summary.message + moved,
    });
  }
}

/**
 * Runs `body` holding the document lock, with the execution its jobs share: a scheduled run
 * applies the due changes and refreshes in one, so no other job runs between them.
 */
export function withExecution<T>(
  platform: Platform,
  body: (execution: Execution) => T,
  startedAt?: number,
): T {
  return withDocumentLock(platform, () =>
    body(new Execution(platform, startedAt)),
  );
}

/** Runs `body` as the job `name`, in `options.within` or an execution of its own. */
export function withJob(
  platform: Platform,
  name: string,
  options: JobOptions,
  body: (job: Job) => JobSummary,
): JobSummary {
  const run = (execution: Execution) => {
    const job = new Job(execution, name, options);
    const summary = body(job);
    job.save();
    return job.close(summary);
  };
  return options.within ? run(options.within) : withExecution(platform, run);
}

/** Whether records of accounts other than the acting one were sent: then each is named. */
function othersTouched(
  rows: ReadonlyMap<string, number> | undefined,
  acting: string,
): rows is ReadonlyMap<string, number> {
  return rows !== undefined && [...rows.keys()].some(a => a !== acting);
}

/**
 * Whose records a summary names: the acting account where they were all its own (or none
 * went), else each account with its records ("main account: 1 record, sub-account x: 2
 * records").
 */
function touched(
  rows: ReadonlyMap<string, number> | undefined,
  acting: string,
): string {
  if (!othersTouched(rows, acting)) return accountLabel(acting);
  const named = [...rows].map(
    ([account, n]) => `${accountLabel(account)}: ${counted(n, 'record')}`,
  );
  // A toast is one line: an agency's 30 accounts are the sidebar's lines, not the toast's.
  return named.length > NAMED_IN_LINE
    ? `${named.slice(0, NAMED_IN_LINE).join(', ')} and ${counted(named.length - NAMED_IN_LINE, 'account')} more (the sidebar lists each)`
    : named.join(', ');
}

/** Accounts a summary line names before it counts the rest. */
const NAMED_IN_LINE = 5;

/** The sidebar's line per account, where records of accounts other than the acting one went. */
function accountLines(
  rows: ReadonlyMap<string, number> | undefined,
  acting: string,
): Pick<JobSummary, 'accounts'> {
  if (!othersTouched(rows, acting) || rows.size < 2) return {};
  return {
    accounts: [...rows].map(([account, n]) => ({
      account: accountLabel(account),
      records: n,
    })),
  };
}
