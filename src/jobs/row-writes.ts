/**
 * What a job decided for the rows of a sheet it read once (ids, md5s, statuses), and the tally
 * of the statuses it gave for its summary. Every cell goes through the one writer
 * (sheets/writer.ts), so it lands on the row that holds its record when it is written, even if
 * people sorted or inserted rows meanwhile. A job that must record something before its next
 * request (an offer_id the moment it exists) flushes more than once.
 */
import type {CellValue} from '../platform/ports';
import type {SyncStatus} from '../sheets/status';
import {Formula, Table, cellOf, sheetRow} from '../sheets/table';
import {FlushReport, SheetWriter} from '../sheets/writer';
import {MAX_PROBLEMS, RowProblem} from './run';

export class RowWrites<S> {
  readonly writer: SheetWriter<S>;
  private readonly statuses = new Map<
    number,
    {status: SyncStatus; message: string}
  >();

  constructor(
    readonly table: Table<S>,
    now: () => number,
  ) {
    this.writer = new SheetWriter(table, now);
  }

  /** A new empty row below the others, written at the next flush; answers its handle. */
  append(): number {
    return this.writer.append();
  }

  /** Sets the cell under `header` (nothing when the sheet has no such column). */
  set(index: number, header: string, value: CellValue): void {
    this.writer.set(index, header, value);
  }

  /** The row's sync_status, sync_message and synced_at ('' clears them: no status). */
  status(index: number, status: SyncStatus | '', message: string): void {
    if (status === '') this.statuses.delete(index);
    else this.statuses.set(index, {status, message});
    this.writer.status(index, status, message);
  }

  /** The status given to the row in this job, if any. */
  statusOf(index: number): {status: SyncStatus; message: string} | undefined {
    return this.statuses.get(index);
  }

  /** How many rows got `status` in this job. */
  count(status: SyncStatus): number {
    return [...this.statuses.values()].filter(s => s.status === status).length;
  }

  /**
   * How many rows got `status` in this job by their account ('' the main account; a row
   * `accountOf` names none of is left out): the records a summary names (JobFacts.accounts).
   */
  countByAccount(
    status: SyncStatus,
    accountOf: (index: number) => string | undefined,
  ): Map<string, number> {
    const out = new Map<string, number>();
    for (const [index, s] of this.statuses) {
      const account = s.status === status ? accountOf(index) : undefined;
      if (account !== undefined) out.set(account, (out.get(account) ?? 0) + 1);
    }
    return out;
  }

  /** Rows marked INVALID or ERROR in this job, in sheet order, for the summary. */
  problems(): RowProblem[] {
    return [...this.statuses.entries()]
      .filter(([, s]) => s.status === 'INVALID' || s.status === 'ERROR')
      .sort(([a], [b]) => a - b)
      .slice(0, MAX_PROBLEMS)
      .map(([index, s]) => ({
        sheet: this.table.schema.name,
        row: sheetRow(index),
        status: s.status,
        message: s.message,
      }));
  }

  /** What the rows' statuses give a job's summary (kernel.ts JobFacts). */
  tally() {
    return {
      sheet: this.table.schema.name,
      ok: this.count('OK'),
      invalid: this.count('INVALID'),
      error: this.count('ERROR'),
      problems: this.problems(),
    };
  }

  /** Writes what was decided since the last flush; says which rows could not be found. */
  flush(): FlushReport {
    return this.writer.flush();
  }

  /** The cell's value as read, or as this job last decided it. */
  cell(index: number, header: string): CellValue {
    const contents = this.writer.known(index, header);
    return contents instanceof Formula
      ? cellOf(this.table, index, header)
      : contents;
  }
}
