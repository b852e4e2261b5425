/**
 * One job run's changes for the History sheet (sheets/history.ts): collected as the answers
 * arrive, written in a block at each flush (a job flushes after each batch) and when the run
 * ends, under one change id.
 */
import type {Platform, Workbook} from '../platform/ports';
import {
  DEFAULT_HISTORY_LIMIT,
  HistoryChange,
  appendHistory,
  openHistory,
} from '../sheets/history';
import type {LogSheet} from '../sheets/log-sheet';
import {excerpt} from '../rules/values';
import {SheetLayoutError} from '../sheets/table';
import type {JobSummary} from './run';
import {SettingsStore} from './settings-store';

/**
 * A change id: when the run started (UTC, `at`) and four random characters, e.g.
 * 20261125-184512-k3f9.
 */
export function newChangeId(platform: Platform, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .slice(0, 15);
  const tag = Array.from({length: 4}, () =>
    Math.floor(platform.random() * 36).toString(36),
  ).join('');
  return `${stamp}-${tag}`;
}

/** Rows the History keeps before the oldest runs move to an archive sheet (sidebar setting). */
export function historyLimit(platform: Platform): number {
  return (
    new SettingsStore(platform.userProperties).historyLimit(
      platform.documentId(),
    ) ?? DEFAULT_HISTORY_LIMIT
  );
}

export class ChangeLog {
  readonly changeId: string;
  /**
   * The change's one time, read from the clock once when the run starts and cut to the
   * second: every History row of the change, its id and the sidebar show the same second
   * (a sheet rounds milliseconds where the sidebar and the id cut them).
   */
  readonly at: Date;
  /** Changes recorded and not written yet. */
  private changes: HistoryChange[] = [];
  /** Whether any change was recorded in this run (written or not). */
  private recorded = false;
  /** What the writes so far have to tell the summary (an archive, a failure). */
  private notes = '';
  /**
   * The History sheet as the run's first write opened it (its header read), and the row
   * limit then read: a run writes after every batch, and reading them again each time would
   * cost two more round trips a batch. The last row is asked again at each write.
   */
  private history?: LogSheet;
  private limit?: number;

  constructor(
    private readonly platform: Platform,
    private readonly job: string,
    /** Who acted, as accountLabel says it. */
    private readonly account: string,
  ) {
    this.at = new Date(Math.floor(platform.clock.now() / 1000) * 1000);
    this.changeId = newChangeId(platform, this.at);
  }

  /** Records changes whose answers arrived. */
  add(changes: readonly HistoryChange[]): void {
    this.changes.push(...changes);
    if (changes.length > 0) this.recorded = true;
  }

  /**
   * Appends the changes recorded since the last flush, in one block under the run's change
   * id: a job flushes after each batch, so what the server accepted is in History even if the
   * run is killed later.
   */
  flush(workbook: Workbook): void {
    if (this.changes.length === 0) return;
    const note = this.write(workbook);
    this.changes = [];
    if (note && !this.notes.includes(note)) this.notes += note;
  }

  /**
   * Writes what is left, and tells the summary: the change id, and what became of the
   * writes when it was not plain. A run that sent nothing writes nothing and is told nothing.
   */
  close(workbook: Workbook, summary: JobSummary): JobSummary {
    this.flush(workbook);
    if (!this.recorded) return summary;
    return {
      ...summary,
      changeId: this.changeId,
      message: summary.message + this.notes,
    };
  }

  /**
   * Appends the run's block. What was sent stays sent when the History cannot be written: the
   * answer is a sentence for the job's summary, '' when all went well.
   */
  private write(workbook: Workbook): string {
    if (this.changes.length === 0) return '';
    try {
      const limit = (this.limit ??= historyLimit(this.platform));
      if (this.history) this.history.recount();
      else this.history = openHistory(workbook);
      const result = appendHistory(
        workbook,
        {
          changeId: this.changeId,
          job: this.job,
          account: this.account,
          user: this.platform.identity.email(),
          at: this.at,
        },
        this.changes,
        limit,
        this.history,
      );
      return result.archived
        ? ` History was past ${limit} rows: its ${result.archived.rows} oldest rows moved to "${result.archived.sheet}".`
        : '';
    } catch (e) {
      // The add-on's own layout message says what to do, in full; another error's is excerpted.
      const why =
        e instanceof SheetLayoutError
          ? e.message
          : excerpt(e instanceof Error ? e.message : String(e));
      return ` The History sheet could not be written (${why}): this run's outcomes are in the rows' sync_message only.`;
    }
  }
}
