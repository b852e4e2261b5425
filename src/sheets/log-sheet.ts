/**
 * A log sheet: rows the add-on appends and never edits (History, and any other log), each row
 * carrying a key shared by the rows of one run and the time it was written. Users sort it,
 * filter it, type notes beside it and rename its columns, so nothing here trusts row order or
 * column position: rows are read by key and time, columns by header.
 *
 * The whole API:
 * - `LogSheet.open(workbook, spec, options)`: the sheet, made protected with a warning when
 *   `create` and absent; a column of the schema the user deleted is put back at the end, but
 *   one that reading needs (`spec.needed`) stops the sheet with a message naming it, since
 *   its rows would be read as empty;
 * - `append(rows)`: one block below the last row, every text bounded to what a cell takes
 *   (a server's message of any length never makes the write throw); `recount()` before the
 *   next append of a sheet kept open asks again where the last row is;
 * - `runs()`: every run, newest first by time, with its rows' positions (the key and time
 *   columns read whole: one read when they are side by side); `find(key)`: one run's rows
 *   (the key column read whole);
 * - `read(rows)`: those rows, every header's cell (the user's own columns included), in as few
 *   reads as the latency model makes cheapest;
 * - `archive(workbook, name, count)`: moves the oldest whole runs (at least `count` rows),
 *   whole rows, to the archive sheet of that name, under the same headers.
 *
 * Price (DESIGN section 6: a Spreadsheet call about 40 ms, a cell about 0.01 ms): at 50,000
 * rows `runs()` costs a call and 100,000 cells, about 1 s; `read` then pays for the rows it
 * returns, not for the sheet.
 */
import type {CellValue, SheetPort, Workbook} from '../platform/ports';
import {isDate} from './cell';
import {addColumns, formatRows} from './layout';
import type {Column, SheetSchema} from './schema';
import {SheetLayoutError} from './table';
import {bounded} from './cell-entries';

/** What makes a schema a log: its key is `schema.id`, its time column `time`. */
export interface LogSpec {
  schema: SheetSchema<never>;
  /** Header of the time column (a timestamp). */
  time: string;
  /** What the sheet's warning says before an edit. */
  protection: string;
  /** Headers of the columns the user types in: the warning leaves them out. */
  editable?: readonly string[];
  /** Headers reading needs: missing from a sheet with rows, it is not read nor written. */
  needed: readonly string[];
  /** What the needed columns are read for, for the message: "to list and revert changes". */
  neededFor?: string;
}

/** One row's cells by header: the schema's and the user's own. */
export type LogCells = Record<string, CellValue>;

/** The rows of one key, and when its newest row was written (NaN: no readable time). */
export interface LogRun {
  key: string;
  /** Data row indexes: 0 is sheet row 2. */
  rows: number[];
  time: number;
}

/**
 * Rows read through rather than split into two reads: a call costs about as much as 4,000
 * cells (40 ms against 0.01 ms a cell).
 */
const CELLS_PER_CALL = 4000;

export class LogSheet {
  private constructor(
    readonly sheet: SheetPort,
    private readonly spec: LogSpec,
    /** 1-based column of each header of row 1, the user's own included. */
    private readonly at: Map<string, number>,
    /** Data rows held (the sheet was just made: none). */
    private rowsHeld: number | undefined,
  ) {}

  /**
   * The log sheet `name` (the schema's unless given), or null when it does not exist and
   * `create` is not set. A sheet with content whose row 1 has no key header is the user's own:
   * refused. `needed` false: every missing schema column is put back (an archive is never read).
   */
  static open(
    workbook: Workbook,
    spec: LogSpec,
    options: {create: boolean; name?: string; needed?: boolean},
  ): LogSheet | null {
    const {schema} = spec;
    const name = options.name ?? schema.name;
    const columns = schema.columns as ReadonlyArray<Column<never>>;
    let sheet = workbook.sheet(name);
    if (!sheet) {
      if (!options.create) return null;
      sheet = workbook.insertSheet(name, {background: true});
      addColumns(sheet, schema, 1, columns, {created: true});
      sheet.freezeRows(1);
      sheet.protectSheetWarningOnly(spec.protection);
      const at = new Map(columns.map((c, i) => [c.header, i + 1]));
      const log = new LogSheet(sheet, spec, at, 0);
      log.exceptEditable();
      return log;
    }
    const header = sheet
      .readBlock(1, 1, 1, sheet.maxColumns())[0]
      .map(cell => String(cell).trim());
    const at = new Map<string, number>();
    header.forEach((h, i) => {
      if (h !== '' && !at.has(h)) at.set(h, i + 1);
    });
    const log = new LogSheet(sheet, spec, at, undefined);
    if (!at.has(schema.id) && sheet.lastRow() > 0) {
      throw new SheetLayoutError(
        `Row 1 of the ${name} sheet has no ${schema.id} header, so its rows are not Offer Desk's runs: if its header row was deleted, undo that; if the sheet is your own, rename it, and the next job makes a new ${name} sheet`,
      );
    }
    const missing = columns.filter(c => !at.has(c.header));
    const lacking = missing.filter(c => spec.needed.includes(c.header));
    if (options.needed !== false && lacking.length > 0 && log.held() > 0) {
      const names = lacking.map(c => c.header).join(', ');
      throw new SheetLayoutError(
        `Row 1 of the ${name} sheet has no ${names} header${lacking.length > 1 ? 's' : ''}: Offer Desk reads ${lacking.length > 1 ? 'those columns' : 'that column'} ${spec.neededFor ?? 'to read its rows'}, and would take ${lacking.length > 1 ? 'them' : 'it'} as empty. Name the column ${names} again (undo the rename or the deletion), then try again`,
      );
    }
    if (missing.length > 0 && options.create) {
      const first = Math.max(0, ...at.values()) + 1;
      addColumns(sheet, schema, first, missing);
      missing.forEach((c, i) => at.set(c.header, first + i));
    }
    return log;
  }

  /** The columns of row 1, through the last header. */
  get width(): number {
    return Math.max(0, ...this.at.values());
  }

  /** Data rows held: a round trip the first time, except for a sheet just made. */
  held(): number {
    this.rowsHeld ??= Math.max(this.sheet.lastRow() - 1, 0);
    return this.rowsHeld;
  }

  /**
   * Forgets the rows held, so the next append asks again where the last row is: a sheet kept
   * open across a run's appends, where a person may have added or deleted rows meanwhile.
   */
  recount(): void {
    this.rowsHeld = undefined;
  }

  /** The warning leaves the editable columns out, down to the sheet's last row. */
  private exceptEditable(): void {
    const columns = (this.spec.editable ?? []).flatMap(header => {
      const at = this.at.get(header);
      return at === undefined ? [] : [at];
    });
    if (columns.length > 0) this.sheet.exceptFromProtection(columns);
  }

  /** Appends rows in one block below the last, formatted first so text stays text. */
  append(rows: readonly LogCells[]): void {
    if (rows.length === 0) return;
    this.addHeaders(rows);
    const first = this.held() + 2;
    const placed = (this.spec.schema.columns as ReadonlyArray<Column<never>>)
      .filter(c => this.at.has(c.header))
      .map(column => ({column, at: this.at.get(column.header)!}));
    const grows = first + rows.length - 1 > this.sheet.maxRows();
    this.sheet.ensureSize(first + rows.length - 1, this.width);
    if (grows) this.exceptEditable();
    formatRows(this.sheet, placed, first, rows.length);
    this.sheet.write(
      first,
      1,
      rows.map(row => this.cells(row)),
    );
    this.rowsHeld = this.held() + rows.length;
  }

  /**
   * Every run, newest first: by its newest row's time, runs without a readable time last,
   * then by the position of their last row.
   */
  runs(): LogRun[] {
    const held = this.held();
    if (held === 0) return [];
    const [keys, times] = this.keysAndTimes(held);
    const runs = new Map<string, LogRun>();
    keys.forEach((cell, i) => {
      const key = String(cell).trim();
      // A row without a key (one the user typed) is no run of the add-on's.
      if (key === '') return;
      const run = runs.get(key) ?? {key, rows: [], time: NaN};
      runs.set(key, run);
      run.rows.push(i);
      const time = times[i];
      if (isDate(time) && !(time.getTime() <= run.time))
        run.time = time.getTime();
    });
    const order = (run: LogRun) =>
      Number.isNaN(run.time) ? -Infinity : run.time;
    // Runs of one time (a clock's resolution) are told apart by where they were appended.
    const last = (run: LogRun) => run.rows[run.rows.length - 1];
    return [...runs.values()].sort(
      (a, b) => order(b) - order(a) || last(b) - last(a),
    );
  }

  /** The data rows of one run, in sheet order: the key column read whole, alone. */
  find(key: string): number[] {
    const held = this.held();
    if (held === 0) return [];
    const at = this.at.get(this.spec.schema.id)!;
    const rows: number[] = [];
    this.sheet.readBlock(2, at, held, 1).forEach(([cell], i) => {
      if (String(cell).trim() === key) rows.push(i);
    });
    return rows;
  }

  /** The cells of those data rows (0 is sheet row 2), by header, in the order given. */
  read(rows: readonly number[]): LogCells[] {
    const width = this.width;
    const byRow = new Map<number, CellValue[]>();
    for (const [top, count] of blocks(rows, width)) {
      this.sheet
        .readBlock(top + 2, 1, count, width)
        .forEach((cells, i) => byRow.set(top + i, cells));
    }
    const headers = [...this.at];
    return rows.map(row => {
      const cells = byRow.get(row)!;
      return Object.fromEntries(headers.map(([h, at]) => [h, cells[at - 1]]));
    });
  }

  /**
   * Moves the oldest runs by time, whole, until at least `count` rows have moved, to the
   * archive sheet `name` (made like this one), every column of theirs under its header. They
   * are written and sent there before being deleted here: a run killed in between leaves them
   * twice, never nowhere. Answers the rows moved.
   */
  archive(workbook: Workbook, name: string, count: number): number {
    const moving: number[] = [];
    for (const run of this.runs().reverse()) {
      if (moving.length >= count) break;
      moving.push(...run.rows);
    }
    if (moving.length === 0) return 0;
    const rows = this.read(moving);
    const archive = LogSheet.open(workbook, this.spec, {
      create: true,
      name,
      needed: false,
    })!;
    archive.append(rows);
    workbook.flush();
    // From the bottom up, so the rows still to delete keep their places.
    for (const [top, n] of blocks(moving, 0).reverse())
      this.sheet.deleteRows(top + 2, n);
    this.rowsHeld = this.held() - moving.length;
    return moving.length;
  }

  /** Row 1 gains the headers of the rows' cells it lacks (the user's own, archived). */
  private addHeaders(rows: readonly LogCells[]): void {
    const extra = [...new Set(rows.flatMap(Object.keys))].filter(
      h => !this.at.has(h),
    );
    if (extra.length === 0) return;
    const first = this.width + 1;
    this.sheet.ensureSize(1, first + extra.length - 1);
    this.sheet.write(1, first, [extra]);
    extra.forEach((h, i) => this.at.set(h, first + i));
  }

  /** A row's cells in this sheet's column order, each text bounded to what a cell takes. */
  private cells(row: LogCells): CellValue[] {
    const cells = new Array<CellValue>(this.width).fill('');
    for (const [header, at] of this.at) {
      const value = row[header] ?? '';
      cells[at - 1] = typeof value === 'string' ? bounded(value) : value;
    }
    return cells;
  }

  /** The key and time cells of the data rows: one read when the columns are side by side. */
  private keysAndTimes(held: number): [CellValue[], CellValue[]] {
    const key = this.at.get(this.spec.schema.id)!;
    const time = this.at.get(this.spec.time);
    const column = (at: number) =>
      this.sheet.readBlock(2, at, held, 1).map(cells => cells[0]);
    if (time === undefined) return [column(key), []];
    if (Math.abs(time - key) !== 1) return [column(key), column(time)];
    const left = Math.min(key, time);
    const cells = this.sheet.readBlock(2, left, held, 2);
    return [
      cells.map(pair => pair[key - left]),
      cells.map(pair => pair[time - left]),
    ];
  }
}

/**
 * Sorted data rows as [first, count] blocks: rows `width` cells wide are read through a gap
 * when that is cheaper than another call; with width 0, only adjacent rows join.
 */
function blocks(
  rows: readonly number[],
  width: number,
): Array<[number, number]> {
  const gap = width === 0 ? 0 : Math.floor(CELLS_PER_CALL / width);
  const out: Array<[number, number]> = [];
  for (const row of [...new Set(rows)].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && row - (last[0] + last[1]) <= gap) last[1] = row - last[0] + 1;
    else out.push([row, 1]);
  }
  return out;
}
