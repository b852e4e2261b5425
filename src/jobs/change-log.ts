/**
 * One job run's changes for the History sheet (sheets/history.ts), under one change id:
 * collected as the answers arrive, and appended one block per `flush` (a push flushes after
 * each batch, so a run killed later keeps the record of the writes the server accepted) and
 * at `close`.
 */
import type {Platform, Workbook} from '../platform/ports';
import {
  DEFAULT_HISTORY_LIMIT,
  HistoryChange,
  appendHistory,
} from '../sheets/history';
import {excerpt} from '../rules/values';
import {SheetLayoutError} from '../sheets/table';
import type {JobSummary} from './run';
import {SettingsStore} from './settings-store';

/** A change id: when the run started (UTC) and four random characters, e.g. 20261125-184512-k3f9. */
export function newChangeId(platform: Platform): string {
  const stamp = new Date(platform.clock.now())
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
  /** Changes added since the last flush. */
  private pending: HistoryChange[] = [];
  /** Whether any change was added: the run sent something. */
  private sent = false;
  /** What the summary is told of the History writes (archiving, a failure), once each. */
  private readonly notes = new Set<string>();

  constructor(
    private readonly platform: Platform,
    private readonly job: string,
    /** Who acted, as accountLabel says it. */
    private readonly account: string,
  ) {
    this.changeId = newChangeId(platform);
  }

  /** Records changes whose answers arrived now (unless they say when). */
  add(changes: readonly HistoryChange[]): void {
    const now = new Date(this.platform.clock.now());
    this.pending.push(...changes.map(c => ({at: now, ...c})));
    this.sent ||= changes.length > 0;
  }

  /** Appends the changes added since the last flush, in one block; nothing when none. */
  flush(workbook: Workbook): void {
    if (this.pending.length === 0) return;
    const changes = this.pending;
    this.pending = [];
    const note = this.write(workbook, changes);
    if (note !== '') this.notes.add(note);
  }

  /**
   * Appends what is left, and tells the summary: the change id, and what became of the History
   * writes when it was not plain. A run that sent nothing writes nothing and is told nothing.
   */
  close(workbook: Workbook, summary: JobSummary): JobSummary {
    this.flush(workbook);
    if (!this.sent) return summary;
    return {
      ...summary,
      changeId: this.changeId,
      message: summary.message + [...this.notes].join(''),
    };
  }

  /**
   * Appends one block. What was sent stays sent when the History cannot be written: the
   * answer is a sentence for the job's summary, '' when all went well.
   */
  private write(workbook: Workbook, changes: readonly HistoryChange[]): string {
    try {
      const limit = historyLimit(this.platform);
      const result = appendHistory(
        workbook,
        {
          changeId: this.changeId,
          job: this.job,
          account: this.account,
          user: this.platform.identity.email(),
          at: new Date(this.platform.clock.now()),
        },
        changes,
        limit,
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
