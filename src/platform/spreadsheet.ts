/**
 * The Workbook port over SpreadsheetApp. Each port method is one Spreadsheet service call
 * (plus the getRange that names its block, shared by the calls on the same block); the
 * sheet's size is asked once and then tracked, because writing past the last row or column
 * throws on the real platform: the sheet is grown first. Sheets are looked up once per job.
 * Blocks of values, formulas, formats, colours and notes go in calls of bounded size
 * (blocks.ts), whatever the caller asks, so no call carries an unbounded block.
 */
import {a1Of} from './a1';
import {readInRuns, writeRuns} from './blocks';
import type {
  CellBlock,
  CellValue,
  ProtectedBlock,
  SheetPort,
  Workbook,
} from './ports';

/** Blocks coloured by one range list. */
const RANGES_PER_CALL = 1000;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

class AppsScriptSheet implements SheetPort {
  private rows: number | undefined;
  private columns: number | undefined;
  /** Header rows take several calls (values, notes, colours, bold, protection): one Range. */
  private readonly ranges = new Map<
    string,
    GoogleAppsScript.Spreadsheet.Range
  >();

  /** `size`: the sheet's size when it is known without asking (a sheet just inserted). */
  constructor(
    private readonly sheet: Sheet,
    size?: {rows: number; columns: number},
  ) {
    this.rows = size?.rows;
    this.columns = size?.columns;
  }

  name(): string {
    return this.sheet.getName();
  }
  /** Makes it the sheet the user sees (showInstead). */
  activate(): void {
    this.sheet.activate();
  }

  /** An empty sheet answers one empty cell (its data range is A1). */
  readValues(cellChars?: number): CellValue[][] {
    const data = this.sheet.getDataRange();
    const rows = data.getNumRows();
    const columns = data.getNumColumns();
    return readInRuns(
      rows,
      columns,
      (first, count) =>
        count === rows
          ? (data.getValues() as CellValue[][])
          : (this.range(
              1 + first,
              1,
              count,
              columns,
            ).getValues() as CellValue[][]),
      {cellChars},
    );
  }

  readBlock(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): CellValue[][] {
    if (rows <= 0 || columns <= 0) return [];
    return readInRuns(
      rows,
      columns,
      (first, count) =>
        this.range(
          row + first,
          column,
          count,
          columns,
        ).getValues() as CellValue[][],
    );
  }

  lastRow(): number {
    return this.sheet.getLastRow();
  }

  readFormulas(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): string[][] {
    if (rows <= 0 || columns <= 0) return [];
    return readInRuns(rows, columns, (first, count) =>
      this.range(row + first, column, count, columns).getFormulas(),
    );
  }

  readNumberFormats(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): string[][] {
    this.ensureSize(row + rows - 1, column + columns - 1);
    return readInRuns(
      rows,
      columns,
      (first, count) =>
        this.range(row + first, column, count, columns).getNumberFormats(),
      {countChars: false},
    );
  }

  maxRows(): number {
    this.rows ??= this.sheet.getMaxRows();
    return this.rows;
  }

  maxColumns(): number {
    this.columns ??= this.sheet.getMaxColumns();
    return this.columns;
  }

  ensureSize(rows: number, columns: number): void {
    const haveRows = this.maxRows();
    if (rows > haveRows) {
      this.sheet.insertRowsAfter(haveRows, rows - haveRows);
      this.rows = rows;
    }
    const haveColumns = this.maxColumns();
    if (columns > haveColumns) {
      this.sheet.insertColumnsAfter(haveColumns, columns - haveColumns);
      this.columns = columns;
    }
  }

  write(row: number, column: number, values: CellValue[][]): void {
    if (values.length === 0 || values[0].length === 0) return;
    this.ensureSize(row + values.length - 1, column + values[0].length - 1);
    for (const run of writeRuns(values)) {
      this.range(
        row + run.first,
        column,
        run.rows.length,
        values[0].length,
      ).setValues(run.rows);
    }
  }

  clearContent(row: number, column: number, rows: number, columns: number) {
    if (rows <= 0 || columns <= 0) return;
    this.range(row, column, rows, columns).clearContent();
  }

  setBackgrounds(
    row: number,
    column: number,
    colors: Array<Array<string | null>>,
  ): void {
    if (colors.length === 0 || colors[0].length === 0) return;
    this.ensureSize(row + colors.length - 1, column + colors[0].length - 1);
    for (const run of writeRuns(colors)) {
      this.range(
        row + run.first,
        column,
        run.rows.length,
        colors[0].length,
      ).setBackgrounds(run.rows as string[][]);
    }
  }

  setBackgroundOf(blocks: readonly CellBlock[], color: string | null): void {
    if (blocks.length === 0) return;
    const bottom = Math.max(...blocks.map(b => b.row + b.rows - 1));
    const right = Math.max(...blocks.map(b => b.column + b.columns - 1));
    this.ensureSize(bottom, right);
    // Apps Script documents no bound on a range list: a thousand per call keeps each modest.
    for (let i = 0; i < blocks.length; i += RANGES_PER_CALL) {
      this.sheet
        .getRangeList(blocks.slice(i, i + RANGES_PER_CALL).map(a1Of))
        .setBackground(color);
    }
  }

  setNotes(row: number, column: number, notes: string[][]): void {
    if (notes.length === 0 || notes[0].length === 0) return;
    for (const run of writeRuns(notes)) {
      this.range(
        row + run.first,
        column,
        run.rows.length,
        notes[0].length,
      ).setNotes(run.rows);
    }
  }

  setNumberFormat(
    row: number,
    column: number,
    rows: number,
    columns: number,
    format: string,
  ): void {
    if (rows <= 0 || columns <= 0) return;
    this.range(row, column, rows, columns).setNumberFormat(format);
  }

  setBold(row: number, column: number, rows: number, columns: number): void {
    this.range(row, column, rows, columns).setFontWeight('bold');
  }

  clipText(row: number, column: number, rows: number, columns: number): void {
    if (rows <= 0 || columns <= 0) return;
    this.range(row, column, rows, columns).setWrapStrategy(
      SpreadsheetApp.WrapStrategy.CLIP,
    );
  }

  setColumnWidths(column: number, count: number, width: number): void {
    this.sheet.setColumnWidths(column, count, width);
  }

  columnWidth(column: number): number {
    return this.sheet.getColumnWidth(column);
  }

  setDropdown(
    row: number,
    column: number,
    rows: number,
    columns: number,
    values: readonly string[],
  ): void {
    if (rows <= 0 || columns <= 0) return;
    const rule = SpreadsheetApp.newDataValidation()
      .requireValueInList([...values], true)
      .setAllowInvalid(true)
      .build();
    this.range(row, column, rows, columns).setDataValidation(rule);
  }

  /**
   * A block may reach below the last row: it is protected as far as the sheet goes, then the
   * sheet is grown and the protection stretched (Protection.setRange, a queued write), since
   * a protection made after the growth would first send it: one more round trip per sheet.
   */
  protectWarningOnly(blocks: readonly ProtectedBlock[]): void {
    if (blocks.length === 0) return;
    const bottom = Math.max(...blocks.map(b => b.row + b.rows - 1));
    const right = Math.max(...blocks.map(b => b.column + b.columns - 1));
    const top = Math.max(...blocks.map(b => b.row));
    this.ensureSize(top, right);
    const have = this.maxRows();
    const made = blocks.map(b =>
      this.range(
        b.row,
        b.column,
        Math.min(b.rows, have - b.row + 1),
        b.columns,
      ).protect(),
    );
    this.ensureSize(bottom, right);
    made.forEach((protection, i) => {
      const b = blocks[i];
      if (b.row + b.rows - 1 > have) {
        protection.setRange(this.range(b.row, b.column, b.rows, b.columns));
      }
      protection.setDescription(b.description).setWarningOnly(true);
    });
  }

  protectSheetWarningOnly(description: string): void {
    this.sheet.protect().setDescription(description).setWarningOnly(true);
  }

  exceptFromProtection(columns: readonly number[]): void {
    const [protection] = this.sheet.getProtections(
      SpreadsheetApp.ProtectionType.SHEET,
    );
    if (!protection || this.maxRows() < 2) return;
    protection.setUnprotectedRanges(
      columns.map(c => this.range(2, c, this.maxRows() - 1, 1)),
    );
  }

  deleteRows(row: number, count: number): void {
    if (count <= 0) return;
    this.sheet.deleteRows(row, count);
    if (this.rows !== undefined) this.rows -= count;
    this.ranges.clear();
  }

  insertRowsAfter(row: number, count: number): void {
    if (count <= 0) return;
    this.sheet.insertRowsAfter(row, count);
    if (this.rows !== undefined) this.rows += count;
    this.ranges.clear();
  }

  freezeRows(rows: number): void {
    this.sheet.setFrozenRows(rows);
  }

  /**
   * Hiding only keeps the tab out of the user's way; a host that cannot hide sheets (a
   * stand-in runtime) still works with the sheet visible.
   */
  hide(): void {
    if (typeof this.sheet.hideSheet === 'function') this.sheet.hideSheet();
  }

  filterColumn(column: number, hidden: readonly string[] | null): void {
    const filter =
      this.sheet.getFilter() ??
      (hidden === null ? null : this.sheet.getDataRange().createFilter());
    if (!filter) return;
    if (hidden === null) {
      filter.removeColumnFilterCriteria(column);
      return;
    }
    filter.setColumnFilterCriteria(
      column,
      SpreadsheetApp.newFilterCriteria()
        .setHiddenValues([...hidden])
        .build(),
    );
  }

  filteredOut(column: number): string[] {
    const criteria = this.sheet.getFilter()?.getColumnFilterCriteria(column);
    return criteria ? [...(criteria.getHiddenValues() ?? [])] : [];
  }

  private range(row: number, column: number, rows: number, columns: number) {
    const key = `${row},${column},${rows},${columns}`;
    let range = this.ranges.get(key);
    if (!range) {
      range = this.sheet.getRange(row, column, rows, columns);
      this.ranges.set(key, range);
    }
    return range;
  }
}

/**
 * The size Sheets gives a sheet it inserts: known, so a job that creates six sheets does not
 * ask twelve times (each ask is a round trip). Assumption (docs/architecture.md): were a new
 * sheet larger, it would only grow by more rows than needed; smaller has never been seen.
 */
const NEW_SHEET_SIZE = {rows: 1000, columns: 26};

/** Parses the `Z` pattern of Utilities.formatDate: '+0530' is 330 minutes. */
function offsetMinutes(text: string): number {
  const match = /^([+-])(\d\d)(\d\d)$/.exec(text.trim());
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The spreadsheet the add-on runs in, and its id, each asked at most once. */
export interface ActiveDocument {
  /** Throws where Apps Script gives the execution no active spreadsheet. */
  spreadsheet(): Spreadsheet;
  id(): string;
  /** The id, or null where there is no active spreadsheet (a trigger may have none). */
  idIfAny(): string | null;
}

/** Said where a job needs the spreadsheet and Apps Script gave the execution none. */
export const NO_ACTIVE_SPREADSHEET =
  'Apps Script gave this run no active spreadsheet (SpreadsheetApp.getActive() answered null), so Offer Desk cannot tell which spreadsheet to work on: nothing was done.';

/**
 * A handle on the active document for one entry point call: every part of a job (the
 * workbook, the settings keyed by document, the progress board) shares it, since each ask
 * is a round trip. A time-driven trigger may run without an active spreadsheet; an add-on's
 * trigger that lacks the user's authorization may be refused one.
 */
export function activeDocument(): ActiveDocument {
  let asked = false;
  let spreadsheet: Spreadsheet | null = null;
  // Why Apps Script refused it, said again to whoever needs the spreadsheet after all.
  let refusal: unknown;
  let id: string | undefined;
  const find = (): Spreadsheet | null => {
    if (!asked) {
      asked = true;
      try {
        spreadsheet = SpreadsheetApp.getActive();
      } catch (e) {
        refusal = e;
      }
    }
    return spreadsheet;
  };
  const open = (): Spreadsheet => {
    const found = find();
    if (found) return found;
    throw refusal ?? new Error(NO_ACTIVE_SPREADSHEET);
  };
  return {
    spreadsheet: open,
    id: () => (id ??= open().getId()),
    idIfAny: () => (find() ? (id ??= open().getId()) : null),
  };
}

/** A workbook handle for one job over `document`. */
export function activeWorkbook(document: ActiveDocument): Workbook {
  let zone: string | undefined;
  let count: number | undefined;
  let shownInserted = false;
  const sheets = new Map<string, AppsScriptSheet | null>();
  const open = document.spreadsheet;
  const timeZone = () => (zone ??= open().getSpreadsheetTimeZone());
  return {
    sheet(name) {
      if (!sheets.has(name)) {
        const found = open().getSheetByName(name);
        sheets.set(name, found ? new AppsScriptSheet(found) : null);
      }
      return sheets.get(name)!;
    },
    insertSheet(name, options) {
      const book = open();
      count ??= book.getNumSheets();
      const shown = options?.background ? book.getActiveSheet() : null;
      const sheet = new AppsScriptSheet(
        book.insertSheet(name, count),
        NEW_SHEET_SIZE,
      );
      shown?.activate();
      shownInserted ||= !options?.background;
      count++;
      sheets.set(name, sheet);
      return sheet;
    },
    showInstead(name) {
      if (!shownInserted) return;
      // The job's own handle when it has one: no look-up round trip.
      const known = sheets.get(name);
      if (known) known.activate();
      else open().getSheetByName(name)?.activate();
    },
    timeZone,
    name: () => open().getName(),
    url: () => open().getUrl(),
    utcOffsetMinutes: atMs =>
      offsetMinutes(Utilities.formatDate(new Date(atMs), timeZone(), 'Z')),
    flush: () => SpreadsheetApp.flush(),
  };
}
