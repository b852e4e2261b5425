/**
 * The Scheduled sheet's I/O (schemas/scheduled.ts): a scheduled push's rows appended in one
 * block over the log-sheet machinery (log-sheet.ts), every row read once with its cells, and a
 * row's status and message settled through the one writer (writer.ts). Columns are found by
 * header; a settled status lands on the row that holds its change's identity when it is
 * written (change_id, account, sheet, record, field and the status it had), so a sort or an
 * insert while a run reads the server moves nothing onto another change's row. A row deleted
 * meanwhile (a cancel), or whose status was typed over (CANCELLED), is not written: `flush`
 * answers it.
 */
import type {CellValue, Workbook} from '../platform/ports';
import {accountCellOf, accountLabel, accountOfCell} from './accounts';
import {isDate} from './cell';
import {LogCells, LogSheet, LogSpec} from './log-sheet';
import {SCHEDULED, ScheduledRow} from './schemas/scheduled';
import {SheetLayoutError, Table, cellOf, openTable} from './table';
import {SheetWriter} from './writer';

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
  /** Data row when read (0 is sheet row 2): the writer's handle of the row. */
  index: number;
  applyAt: number;
  revertAt: number;
  /** The History change that sent it (its put-back cites it); kept in the store only. */
  sentAs?: string;
}

const SHOWN_TIME =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}) ([+-])(\d{2}):(\d{2})/;

/**
 * The instant a time cell shows: its text with its offset ('2026-01-05 11:00 +01:00 …', as
 * the add-on writes it), a date, or Unix seconds typed as a number; NaN.
 */
function timeOf(cell: CellValue | undefined): number {
  if (isDate(cell)) return cell.getTime();
  if (typeof cell === 'number') return cell * 1000;
  const m = SHOWN_TIME.exec(String(cell ?? '').trim());
  if (!m) return NaN;
  const [y, mo, d, h, mi, , oh, om] = m.slice(1).map(Number);
  const offset = (m[6] === '-' ? -1 : 1) * (oh * 60 + om);
  return Date.UTC(y, mo - 1, d, h, mi) - offset * 60_000;
}

export class ScheduledSheet {
  /** The rows as read, and their writer: set by `entries`. */
  private read?: {writer: SheetWriter<ScheduledRow>; entries: ScheduledEntry[]};

  private constructor(
    private readonly workbook: Workbook,
    private readonly now: () => number,
    /** The log, when open (a push that schedules appends to it). */
    private log?: LogSheet,
  ) {}

  /** The sheet; null when it does not exist and `create` is not set. */
  static open(
    workbook: Workbook,
    create: boolean,
    now: () => number,
  ): ScheduledSheet | null {
    if (create) {
      const log = LogSheet.open(workbook, SCHEDULED_LOG, {create})!;
      return new ScheduledSheet(workbook, now, log);
    }
    return workbook.sheet(SCHEDULED.name)
      ? new ScheduledSheet(workbook, now)
      : null;
  }

  append(rows: readonly ScheduledRow[]): void {
    this.log ??= LogSheet.open(this.workbook, SCHEDULED_LOG, {create: true})!;
    this.log.append(
      rows.map(row => ({
        ...row,
        account: accountCellOf(row.account),
      })) as unknown as LogCells[],
    );
  }

  /** Every row that names a change, in sheet order, read in one call. */
  entries(): ScheduledEntry[] {
    const table = this.table();
    const entries = table.values.flatMap((_, index) => {
      const entry = entryOf(table, index);
      return entry ? [entry] : [];
    });
    this.read = {writer: new SheetWriter(table, this.now), entries};
    return entries;
  }

  /**
   * The sheet read whole. A layout the table refuses (a column renamed or deleted) is told
   * as the log tells it, which puts back a column reading does not need (message) and names
   * one it does: read again after that, or stopped with that message.
   */
  private table(): Table<ScheduledRow> {
    try {
      return openTable(this.workbook, SCHEDULED, {create: false})!;
    } catch (e) {
      if (!(e instanceof SheetLayoutError)) throw e;
      this.log ??= LogSheet.open(this.workbook, SCHEDULED_LOG, {create: true})!;
      return openTable(this.workbook, SCHEDULED, {create: false})!;
    }
  }

  /** Settles one row: its status and what happened, written at the next flush. */
  mark(entry: ScheduledEntry, status: ScheduledStatus, message: string): void {
    const {writer} = this.read!;
    writer.set(entry.index, 'status', status);
    writer.set(entry.index, 'message', message);
    entry.status = status;
    entry.message = message;
  }

  /**
   * Writes the rows marked since the last flush, each on the row holding its identity now.
   * Answers the entries not written: deleted or moved out of reach, or their status typed
   * over since the read (a cancel), which a run must then not send.
   */
  flush(): ScheduledEntry[] {
    if (!this.read) return [];
    const {writer, entries} = this.read;
    const gone = new Set(writer.flush().gone);
    return entries.filter(e => gone.has(e.index));
  }
}

/** An account cell as a label; '' (no account) stays ''. */
function labelOf(cell: string): string {
  const account = accountOfCell(cell);
  return account === undefined ? '' : accountLabel(account);
}

/** A data row as an entry; undefined for a row that names no change (the user's). */
function entryOf(
  table: Table<ScheduledRow>,
  index: number,
): ScheduledEntry | undefined {
  const cell = (header: keyof ScheduledRow) => cellOf(table, index, header);
  const text = (header: keyof ScheduledRow) => String(cell(header)).trim();
  const changeId = text('change_id');
  if (changeId === '') return undefined;
  return {
    index,
    change_id: changeId,
    applyAt: timeOf(cell('apply_at')),
    revertAt: timeOf(cell('revert_at')),
    // As the jobs compare it (accountLabel), whichever way the sheet spells it.
    account: labelOf(text('account')),
    sheet: text('sheet'),
    record: text('record'),
    field: text('field'),
    before: String(cell('before')),
    after: String(cell('after')),
    status: text('status').toUpperCase(),
    message: String(cell('message')),
  };
}
