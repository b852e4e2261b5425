/**
 * Cell changes a job makes to the rows of a sheet it read once (ids, md5s, statuses), kept as
 * the rows' contents and written in one block per `flush`. A job that must record something
 * before its next request (an offer_id the moment it exists) flushes more than once; each
 * flush writes only what changed since the last.
 */
import type {CellValue} from '../platform/ports';
import {SYNCED_AT, SYNC_MESSAGE, SYNC_STATUS} from '../sheets/schema';
import type {SyncStatus} from '../sheets/status';
import {
  Contents,
  Formula,
  Table,
  cellOf,
  rowContents,
  sheetRow,
  writeTable,
} from '../sheets/table';
import {MAX_PROBLEMS, RowProblem} from './run';

export class RowWrites<S> {
  private readonly rows: Contents[][];
  private readonly statuses = new Map<
    number,
    {status: SyncStatus; message: string}
  >();
  private pending = false;

  constructor(
    readonly table: Table<S>,
    private readonly now: () => number,
  ) {
    this.rows = table.values.map((_, i) => rowContents(table, i));
  }

  /** A new empty row below the others, written at the next flush; answers its index. */
  append(): number {
    this.rows.push(new Array<Contents>(this.table.width).fill(''));
    return this.rows.length - 1;
  }

  /** Sets the cell under `header` (nothing when the sheet has no such column). */
  set(index: number, header: string, value: CellValue): void {
    const at = this.table.position.get(header);
    if (at === undefined) return;
    this.rows[index][at] = value;
    this.pending = true;
  }

  /** The row's sync_status, sync_message and synced_at. */
  status(index: number, status: SyncStatus, message: string): void {
    this.statuses.set(index, {status, message});
    this.set(index, SYNC_STATUS, status);
    this.set(index, SYNC_MESSAGE, message);
    this.set(index, SYNCED_AT, new Date(this.now()));
  }

  /** The status given to the row in this job, if any. */
  statusOf(index: number): {status: SyncStatus; message: string} | undefined {
    return this.statuses.get(index);
  }

  /** How many rows got `status` in this job. */
  count(status: SyncStatus): number {
    return [...this.statuses.values()].filter(s => s.status === status).length;
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

  /** Writes what changed since the last flush, in one block. */
  flush(): void {
    if (!this.pending) return;
    writeTable(this.table, this.rows);
    // The next flush compares with what is in the sheet now.
    this.rows.forEach((row, i) => {
      row.forEach((cell, c) => {
        if (cell instanceof Formula) return;
        (this.table.values[i] ??= [])[c] = cell;
        if (this.table.formulas[i]) this.table.formulas[i][c] = '';
      });
    });
    this.pending = false;
  }

  /** The cell as read (or as last flushed). */
  cell(index: number, header: string): CellValue {
    return cellOf(this.table, index, header);
  }
}
