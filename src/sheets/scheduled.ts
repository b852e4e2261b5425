/**
 * The Scheduled sheet's I/O (schemas/scheduled.ts) over the log-sheet machinery
 * (log-sheet.ts): a scheduled push's rows appended in one block, every row read back with its
 * place, and a row's status and message settled in place. Columns are found by header; rows
 * are read whole each run, so a sort or a deleted row (a cancel) is read as it is.
 */
import type {CellValue, Workbook} from '../platform/ports';
import {isDate} from './cell';
import {LogCells, LogSheet, LogSpec} from './log-sheet';
import {SCHEDULED, ScheduledRow} from './schemas/scheduled';

const SCHEDULED_LOG: LogSpec = {
  schema: SCHEDULED as never,
  time: 'apply_at',
  protection:
    'Offer Desk sends these changes at their time: to cancel a WAITING change, delete its rows or type CANCELLED in status.',
  needed: SCHEDULED.columns.map(c => c.header).filter(h => h !== 'message'),
  neededFor: 'to send the changes at their time',
};

export type ScheduledStatus =
  'WAITING' | 'OK' | 'REVERTED' | 'CONFLICT' | 'ERROR' | 'CANCELLED';

/** A Scheduled row as read: its times in ms (NaN: none or unreadable), its place. */
export interface ScheduledEntry extends Omit<
  ScheduledRow,
  'apply_at' | 'revert_at'
> {
  /** Data row: 0 is sheet row 2. */
  index: number;
  applyAt: number;
  revertAt: number;
}

/** A time cell: a date, or Unix seconds typed as a number. */
function timeOf(cell: CellValue | undefined): number {
  if (isDate(cell)) return cell.getTime();
  if (typeof cell === 'number') return cell * 1000;
  return NaN;
}

export class ScheduledSheet {
  /** Rows marked and not written yet: status and message by data row. */
  private readonly pending = new Map<number, [ScheduledStatus, string]>();

  private constructor(private readonly log: LogSheet) {}

  /** The sheet; null when it does not exist and `create` is not set. */
  static open(workbook: Workbook, create: boolean): ScheduledSheet | null {
    const log = LogSheet.open(workbook, SCHEDULED_LOG, {create});
    return log ? new ScheduledSheet(log) : null;
  }

  append(rows: readonly ScheduledRow[]): void {
    this.log.append(rows as unknown as LogCells[]);
  }

  /** Every row that names a change, in sheet order. */
  entries(): ScheduledEntry[] {
    const held = this.log.held();
    const indexes = Array.from({length: held}, (_, i) => i);
    return this.log.read(indexes).flatMap((cells, index) => {
      const text = (header: keyof ScheduledRow) =>
        String(cells[header] ?? '').trim();
      const changeId = text('change_id');
      if (changeId === '') return [];
      return [
        {
          index,
          change_id: changeId,
          applyAt: timeOf(cells.apply_at),
          revertAt: timeOf(cells.revert_at),
          account: text('account'),
          sheet: text('sheet'),
          record: text('record'),
          field: text('field'),
          before: String(cells.before ?? ''),
          after: String(cells.after ?? ''),
          status: text('status').toUpperCase(),
          message: String(cells.message ?? ''),
        },
      ];
    });
  }

  /** Settles one row: its status and what happened, written at the next flush. */
  mark(entry: ScheduledEntry, status: ScheduledStatus, message: string): void {
    this.pending.set(entry.index, [status, message]);
    entry.status = status;
    entry.message = message;
  }

  /** Writes the rows marked since the last flush: one call per run of adjacent rows. */
  flush(): void {
    const rows = [...this.pending.keys()].sort((a, b) => a - b);
    let start = 0;
    for (let k = 1; k <= rows.length; k++) {
      if (k < rows.length && rows[k] === rows[k - 1] + 1) continue;
      const run = rows.slice(start, k);
      this.log.update(
        run[0],
        ['status', 'message'],
        run.map(row => this.pending.get(row)!),
      );
      start = k;
    }
    this.pending.clear();
  }
}
