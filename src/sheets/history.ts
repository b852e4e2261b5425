/**
 * The History sheet's I/O (schemas/history.ts): a job run's changes appended in one block,
 * the oldest runs moved to a dated archive sheet past a size, and runs read back from the
 * newest, a chunk at a time, so a sidebar listing or a revert does not read 50,000 rows.
 *
 * The sheet is the add-on's log: protected whole with a warning (a sheet protection covers
 * the rows appended later too), text columns formatted as plain text so a value such as
 * `=1+1` or `007` stays what was sent. Columns are found by header, as everywhere: a column
 * the user deleted is put back at the end, their own columns are left alone. A sheet with
 * content but no change_id header in row 1 (the user's own sheet named History, or the
 * header row deleted) is not read as runs nor written into: its first row would pass for headers and the
 * log would land beside it in new columns.
 */
import type {CellValue, SheetPort, Workbook} from '../platform/ports';
import {isDate} from './cell';
import {addColumns, formatRows} from './layout';
import {HISTORY, HistoryRow} from './schemas/history';
import {SheetLayoutError} from './table';

export const DEFAULT_HISTORY_LIMIT = 50000;
/** Rows read per call when reading from the newest. */
const CHUNK_ROWS = 2000;
const PROTECTION =
  "The History sheet is Offer Desk's record of what it sent: revert a change from the sidebar instead of editing it here.";

export type HistoryOutcome = 'OK' | 'ERROR' | 'UNKNOWN';

/** What one job run shares across its History rows. */
export interface HistoryRun {
  changeId: string;
  job: string;
  account: string;
  user: string;
  at: Date;
}

/** One field of one record a job run sent, and what came of it. */
export interface HistoryChange {
  sheet: string;
  record: string;
  field: string;
  before: string;
  after: string;
  outcome: HistoryOutcome;
  message: string;
  /** When its answer arrived; the run's time when not given. */
  at?: Date;
}

const HEADERS = HISTORY.columns.map(c => c.header) as ReadonlyArray<
  keyof HistoryRow
>;

/** The History sheet with its columns found by header. */
class HistorySheet {
  private constructor(
    readonly sheet: SheetPort,
    /** 1-based column of each header. */
    private readonly at: ReadonlyMap<string, number>,
    readonly width: number,
    /** Made by this job: it holds no rows yet. */
    private readonly fresh = false,
  ) {}

  /** The sheet, made (or its missing columns put back) when `create`. */
  static open(workbook: Workbook, name: string, create: boolean) {
    let sheet = workbook.sheet(name);
    if (!sheet) {
      if (!create) return null;
      sheet = workbook.insertSheet(name, {background: true});
      addColumns(sheet, HISTORY as never, 1, HISTORY.columns as never, {
        created: true,
      });
      sheet.freezeRows(1);
      sheet.protectSheetWarningOnly(PROTECTION);
      return new HistorySheet(sheet, positions(HEADERS), HEADERS.length, true);
    }
    const header = sheet
      .readBlock(1, 1, 1, sheet.maxColumns())[0]
      .map(cell => String(cell).trim());
    const at = new Map<string, number>();
    header.forEach((h, i) => {
      if (h !== '' && !at.has(h)) at.set(h, i + 1);
    });
    if (!at.has(HISTORY.id) && sheet.lastRow() > 0) {
      throw new SheetLayoutError(
        `Row 1 of the ${name} sheet has no ${HISTORY.id} header, so its rows are not Offer Desk's runs: if its header row was deleted, undo that; if the sheet is your own, rename it, and the next job makes a new ${name} sheet`,
      );
    }
    const missing = HISTORY.columns.filter(c => !at.has(c.header));
    if (missing.length > 0 && create) {
      const first = lastUsed(header) + 1;
      addColumns(sheet, HISTORY as never, first, missing as never);
      missing.forEach((c, i) => at.set(c.header, first + i));
    }
    return new HistorySheet(sheet, at, Math.max(...at.values(), 0));
  }

  column(header: string): number | undefined {
    return this.at.get(header);
  }

  /** A row's cells in this sheet's column order. */
  cells(row: HistoryRow): CellValue[] {
    const cells: CellValue[] = new Array<CellValue>(this.width).fill('');
    for (const header of HEADERS) {
      const at = this.at.get(header);
      if (at !== undefined) cells[at - 1] = row[header];
    }
    return cells;
  }

  read(cells: readonly CellValue[]): HistoryRow {
    const text = (header: string) => {
      const at = this.at.get(header);
      return at === undefined ? '' : String(cells[at - 1] ?? '');
    };
    const at = this.at.get('time');
    const time = at === undefined ? '' : cells[at - 1];
    return {
      time: isDate(time) ? time : new Date(NaN),
      change_id: text('change_id'),
      job: text('job'),
      account: text('account'),
      user: text('user'),
      sheet: text('sheet'),
      record: text('record'),
      field: text('field'),
      before: text('before'),
      after: text('after'),
      outcome: text('outcome'),
      message: text('message'),
    };
  }

  /** Data rows held: a round trip, except for a sheet just made. */
  held(): number {
    return this.fresh ? 0 : Math.max(this.sheet.lastRow() - 1, 0);
  }

  /** Appends rows below the `held` data rows, formatted first so text stays text. */
  append(rows: readonly CellValue[][], held = this.held()): void {
    if (rows.length === 0) return;
    const first = held + 2;
    const placed = HISTORY.columns.flatMap(column => {
      const at = this.at.get(column.header);
      return at === undefined ? [] : [{column: column as never, at}];
    });
    this.sheet.ensureSize(first + rows.length - 1, this.width);
    formatRows(this.sheet, placed, first, rows.length);
    this.sheet.write(first, 1, rows as CellValue[][]);
  }
}

function positions(headers: readonly string[]): Map<string, number> {
  return new Map(headers.map((h, i) => [h, i + 1]));
}

function lastUsed(header: readonly string[]): number {
  for (let i = header.length - 1; i >= 0; i--)
    if (header[i] !== '') return i + 1;
  return 0;
}

export interface AppendResult {
  /** The archive sheet the oldest runs moved to, and how many rows. */
  archived?: {sheet: string; rows: number};
}

/**
 * Appends a job run's changes in one block. Past `limit` rows, the oldest runs (whole runs:
 * a change is never split) move to the archive sheet of the day first, a tenth of the limit
 * more than needed so that archiving is rare; they are written there and sent before being
 * deleted here, so a run killed in between leaves them twice, never nowhere.
 */
export function appendHistory(
  workbook: Workbook,
  run: HistoryRun,
  changes: readonly HistoryChange[],
  limit = DEFAULT_HISTORY_LIMIT,
): AppendResult {
  if (changes.length === 0) return {};
  const history = HistorySheet.open(workbook, HISTORY.name, true)!;
  const rows = changes.map(({at, ...change}) =>
    history.cells({
      time: at ?? run.at,
      change_id: run.changeId,
      job: run.job,
      account: run.account,
      user: run.user,
      ...change,
    }),
  );
  const held = history.held();
  const result = archiveOldest(
    workbook,
    history,
    held,
    rows.length,
    limit,
    run.at,
  );
  history.append(rows, held - (result.archived?.rows ?? 0));
  return result;
}

function archiveOldest(
  workbook: Workbook,
  history: HistorySheet,
  held: number,
  adding: number,
  limit: number,
  at: Date,
): AppendResult {
  if (held + adding <= limit) return {};
  const idColumn = history.column('change_id');
  let move = Math.min(held, held + adding - limit + Math.floor(limit / 10));
  // Whole runs only: the move ends where a change id ends.
  if (idColumn !== undefined && move < held) {
    const ids = history.sheet
      .readBlock(move + 1, idColumn, held - move + 1, 1)
      .map(r => String(r[0]));
    const last = ids[0];
    const end = ids.findIndex(id => id !== last);
    move = end < 0 ? held : move + end - 1;
  }
  if (move <= 0) return {};
  const moved = history.sheet.readBlock(2, 1, move, history.width);
  const name = `History archive ${dayOf(workbook, at)}`;
  const archive = HistorySheet.open(workbook, name, true)!;
  archive.append(moved.map(cells => archive.cells(history.read(cells))));
  workbook.flush();
  history.sheet.deleteRows(2, move);
  return {archived: {sheet: name, rows: move}};
}

/** yyyy-mm-dd in the spreadsheet's time zone. */
function dayOf(workbook: Workbook, at: Date): string {
  const local = new Date(
    at.getTime() + workbook.utcOffsetMinutes(at.getTime()) * 60000,
  );
  return local.toISOString().slice(0, 10);
}

/**
 * History rows from the newest back, a chunk at a time, until `enough` says to stop (it sees
 * every row read so far, newest first). Empty when there is no History sheet.
 */
export function readHistoryBackwards(
  workbook: Workbook,
  enough: (rows: readonly HistoryRow[]) => boolean,
): HistoryRow[] {
  const history = HistorySheet.open(workbook, HISTORY.name, false);
  if (!history || history.width === 0) return [];
  const rows: HistoryRow[] = [];
  let bottom = history.sheet.lastRow();
  while (bottom >= 2 && !enough(rows)) {
    const top = Math.max(2, bottom - CHUNK_ROWS + 1);
    const block = history.sheet.readBlock(
      top,
      1,
      bottom - top + 1,
      history.width,
    );
    for (let i = block.length - 1; i >= 0; i--)
      rows.push(history.read(block[i]));
    bottom = top - 1;
  }
  return rows;
}
