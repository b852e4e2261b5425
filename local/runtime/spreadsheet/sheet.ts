import {Env} from '../env';
import {a1Of, parseA1, Rect} from './a1';
import {
  Content,
  contentLength,
  Entry,
  entryFromScript,
  MAX_CELL_CHARS,
} from './cell';
import {FakeDataValidation} from './data-validation';
import {displayValue} from './display';
import {FakeFilter} from './filter';
import {compareSortValues, FormulaSheet, sortValue} from './formula';
import {FakeProtection, PROTECTED_EDIT, ProtectionType} from './protection';
import {FakeRange} from './range';
import {FakeRangeList} from './range-list';
import {Axis, followCopy, StructureChange} from './references';

/** One cell's content and formats; absent fields are Sheets' defaults. */
export interface Cell {
  content?: Content;
  format?: string;
  background?: string;
  fontWeight?: string;
  fontColor?: string;
  horizontalAlignment?: string;
  note?: string;
  validation?: FakeDataValidation;
  /** A SpreadsheetApp.WrapStrategy member other than the default OVERFLOW. */
  wrapStrategy?: unknown;
}

/** One key of a sort: a column of the sheet (1-based) and its direction. */
export interface SortKey {
  column: number;
  ascending: boolean;
}

/** What a sheet needs from its spreadsheet. */
export interface SheetHost {
  readonly timeZone: string;
  /** Refuses growth that would pass the workbook's cell limit. */
  checkGrowth(extraCells: number): void;
  /** Refuses a name another sheet has. */
  checkName(name: string, renaming?: FakeSheet): void;
  /** The sheet a formula's reference names, if there is one. */
  referencedSheet(name: string): FakeSheet | undefined;
  /** The script read values of `sheet` (a collaborator may act right after). */
  valuesRead(sheet: FakeSheet): void;
  /** Rows or columns of `sheet` were inserted or deleted: formulas pointing into it follow. */
  structureChanged(sheet: FakeSheet, change: StructureChange): void;
  activate(sheet: FakeSheet): void;
  /** Range.activate: the sheet becomes active and the range selected. */
  select(sheet: FakeSheet, rect: Rect): void;
  indexOf(sheet: FakeSheet): number;
  /** Sheets not hidden, this one included. */
  visibleSheets(): number;
  parent(): unknown;
}

/** The meter's count of characters that value writes carried; `${key} ${sheet}` per sheet. */
export const CHARS_WRITTEN = 'SpreadsheetApp.charsWritten';
/** A date as the service carries it: a timestamp. */
const DATE_CHARS = 24;

const OUTSIDE =
  'The coordinates of the range are outside the dimensions of the sheet.';
const DEFAULT_COLUMN_WIDTH = 100;

/** A sheet: a grid of at most maxRows x maxColumns cells, stored sparsely by row. */
export class FakeSheet implements FormulaSheet {
  private readonly rows: ((Cell | undefined)[] | undefined)[] = [];
  private frozen = {rows: 0, columns: 0};
  private readonly columnWidths = new Map<number, number>();
  private readonly hiddenColumns = new Set<number>();
  private tabColor: string | null = null;
  private hidden = false;
  private readonly protections: FakeProtection[] = [];
  private filter: FakeFilter | null = null;

  constructor(
    readonly env: Env,
    readonly host: SheetHost,
    private name: string,
    private readonly sheetId: number,
    private maxRows = 1000,
    private maxColumns = 26,
  ) {}

  // ---- the Apps Script surface ----

  getName(): string {
    this.call('Sheet.getName');
    return this.name;
  }

  setName(name: string): FakeSheet {
    this.call('Sheet.setName');
    this.host.checkName(String(name), this);
    this.name = String(name);
    return this;
  }

  getSheetId(): number {
    this.call('Sheet.getSheetId');
    return this.sheetId;
  }

  getIndex(): number {
    this.call('Sheet.getIndex');
    return this.host.indexOf(this) + 1;
  }

  getParent(): unknown {
    return this.host.parent();
  }

  activate(): FakeSheet {
    this.call('Sheet.activate');
    this.host.activate(this);
    return this;
  }

  getRange(...args: unknown[]): FakeRange {
    this.call('Sheet.getRange');
    return new FakeRange(this, this.rectFromArgs(args, 'Sheet.getRange'));
  }

  /** Ranges by A1 notation, formatted together by one call (RangeList). */
  getRangeList(a1Notations: unknown): FakeRangeList {
    this.call('Sheet.getRangeList');
    if (
      !Array.isArray(a1Notations) ||
      a1Notations.some(a => typeof a !== 'string')
    ) {
      this.env.fail(
        'The parameters (' +
          typeof a1Notations +
          ") don't match the method signature for SpreadsheetApp.Sheet.getRangeList.",
      );
    }
    return new FakeRangeList(
      this,
      (a1Notations as string[]).map(
        a1 =>
          new FakeRange(this, this.rectFromArgs([a1], 'Sheet.getRangeList')),
      ),
    );
  }

  getDataRange(): FakeRange {
    this.call('Sheet.getDataRange');
    return new FakeRange(this, {
      row: 1,
      column: 1,
      numRows: Math.max(1, this.lastRow()),
      numColumns: Math.max(1, this.lastColumn()),
    });
  }

  getSheetValues(
    row: number,
    column: number,
    numRows: number,
    numColumns: number,
  ): unknown[][] {
    return this.getRange(row, column, numRows, numColumns).getValues();
  }

  getLastRow(): number {
    this.call('Sheet.getLastRow');
    return this.lastRow();
  }

  getLastColumn(): number {
    this.call('Sheet.getLastColumn');
    return this.lastColumn();
  }

  getMaxRows(): number {
    this.call('Sheet.getMaxRows');
    return this.maxRows;
  }

  getMaxColumns(): number {
    this.call('Sheet.getMaxColumns');
    return this.maxColumns;
  }

  /** Writes after the last row with content, growing the sheet by a row when it is full. */
  appendRow(rowContents: unknown[]): FakeSheet {
    if (!Array.isArray(rowContents) || rowContents.length === 0) {
      this.env.fail(
        "The parameters don't match the method signature for SpreadsheetApp.Sheet.appendRow.",
      );
    }
    this.call('Sheet.appendRow', rowContents.length);
    this.env.meter.add('SpreadsheetApp.cellsWritten', rowContents.length);
    this.carried([rowContents]);
    const row = this.lastRow() + 1;
    if (row > this.maxRows)
      this.grow('rows', this.maxRows + 1, row - this.maxRows);
    if (rowContents.length > this.maxColumns) {
      this.grow(
        'columns',
        this.maxColumns + 1,
        rowContents.length - this.maxColumns,
      );
    }
    this.writeEntries(
      {row, column: 1, numRows: 1, numColumns: rowContents.length},
      [rowContents],
      (v, cell) => this.scriptEntry(v, cell),
    );
    return this;
  }

  insertRowBefore(beforePosition: number): FakeSheet {
    return this.insert('rows', 'Sheet.insertRowBefore', beforePosition, 1);
  }

  insertRowAfter(afterPosition: number): FakeSheet {
    return this.insert('rows', 'Sheet.insertRowAfter', afterPosition + 1, 1);
  }

  insertRowsBefore(beforePosition: number, howMany: number): FakeSheet {
    return this.insert(
      'rows',
      'Sheet.insertRowsBefore',
      beforePosition,
      howMany,
    );
  }

  insertRowsAfter(afterPosition: number, howMany: number): FakeSheet {
    return this.insert(
      'rows',
      'Sheet.insertRowsAfter',
      afterPosition + 1,
      howMany,
    );
  }

  insertRows(rowIndex: number, numRows = 1): FakeSheet {
    return this.insert('rows', 'Sheet.insertRows', rowIndex, numRows);
  }

  insertColumnBefore(beforePosition: number): FakeSheet {
    return this.insert(
      'columns',
      'Sheet.insertColumnBefore',
      beforePosition,
      1,
    );
  }

  insertColumnAfter(afterPosition: number): FakeSheet {
    return this.insert(
      'columns',
      'Sheet.insertColumnAfter',
      afterPosition + 1,
      1,
    );
  }

  insertColumnsBefore(beforePosition: number, howMany: number): FakeSheet {
    return this.insert(
      'columns',
      'Sheet.insertColumnsBefore',
      beforePosition,
      howMany,
    );
  }

  insertColumnsAfter(afterPosition: number, howMany: number): FakeSheet {
    return this.insert(
      'columns',
      'Sheet.insertColumnsAfter',
      afterPosition + 1,
      howMany,
    );
  }

  insertColumns(columnIndex: number, numColumns = 1): FakeSheet {
    return this.insert(
      'columns',
      'Sheet.insertColumns',
      columnIndex,
      numColumns,
    );
  }

  deleteRow(rowPosition: number): FakeSheet {
    return this.remove('rows', 'Sheet.deleteRow', rowPosition, 1);
  }

  deleteRows(rowPosition: number, howMany: number): FakeSheet {
    return this.remove('rows', 'Sheet.deleteRows', rowPosition, howMany);
  }

  deleteColumn(columnPosition: number): FakeSheet {
    return this.remove('columns', 'Sheet.deleteColumn', columnPosition, 1);
  }

  deleteColumns(columnPosition: number, howMany: number): FakeSheet {
    return this.remove(
      'columns',
      'Sheet.deleteColumns',
      columnPosition,
      howMany,
    );
  }

  clear(): FakeSheet {
    this.call('Sheet.clear');
    this.checkEditable(this.whole());
    this.rows.length = 0;
    return this;
  }

  clearContents(): FakeSheet {
    this.call('Sheet.clearContents');
    this.checkEditable(this.whole());
    this.eachStoredCell(cell => {
      this.env.queueCellWrite(cell);
      delete cell.content;
    });
    return this;
  }

  clearFormats(): FakeSheet {
    this.call('Sheet.clearFormats');
    this.eachStoredCell(clearFormats);
    return this;
  }

  setFrozenRows(rows: number): void {
    this.call('Sheet.setFrozenRows');
    this.frozen.rows = this.count(rows, 0, this.maxRows - 1, 'rows');
  }

  setFrozenColumns(columns: number): void {
    this.call('Sheet.setFrozenColumns');
    this.frozen.columns = this.count(
      columns,
      0,
      this.maxColumns - 1,
      'columns',
    );
  }

  getFrozenRows(): number {
    this.call('Sheet.getFrozenRows');
    return this.frozen.rows;
  }

  getFrozenColumns(): number {
    this.call('Sheet.getFrozenColumns');
    return this.frozen.columns;
  }

  setColumnWidth(columnPosition: number, width: number): FakeSheet {
    return this.setColumnWidths(columnPosition, 1, width);
  }

  setColumnWidths(
    startColumn: number,
    numColumns: number,
    width: number,
  ): FakeSheet {
    this.call('Sheet.setColumnWidths');
    this.columnSpan(startColumn, numColumns);
    const px = this.count(width, 0, 10000, 'width');
    for (let c = startColumn; c < startColumn + numColumns; c++)
      this.columnWidths.set(c, px);
    return this;
  }

  getColumnWidth(columnPosition: number): number {
    this.call('Sheet.getColumnWidth');
    this.columnSpan(columnPosition, 1);
    return this.columnWidths.get(columnPosition) ?? DEFAULT_COLUMN_WIDTH;
  }

  autoResizeColumns(startColumn: number, numColumns: number): FakeSheet {
    this.call('Sheet.autoResizeColumns');
    this.columnSpan(startColumn, numColumns);
    return this;
  }

  autoResizeColumn(columnPosition: number): FakeSheet {
    return this.autoResizeColumns(columnPosition, 1);
  }

  hideColumns(columnIndex: number, numColumns = 1): void {
    this.call('Sheet.hideColumns');
    this.columnSpan(columnIndex, numColumns);
    for (let c = columnIndex; c < columnIndex + numColumns; c++)
      this.hiddenColumns.add(c);
  }

  showColumns(columnIndex: number, numColumns = 1): void {
    this.call('Sheet.showColumns');
    this.columnSpan(columnIndex, numColumns);
    for (let c = columnIndex; c < columnIndex + numColumns; c++)
      this.hiddenColumns.delete(c);
  }

  isColumnHiddenByUser(columnPosition: number): boolean {
    this.call('Sheet.isColumnHiddenByUser');
    return this.hiddenColumns.has(columnPosition);
  }

  setTabColor(color: string | null): FakeSheet {
    this.call('Sheet.setTabColor');
    this.tabColor = color === null ? null : String(color);
    return this;
  }

  getTabColor(): string | null {
    this.call('Sheet.getTabColor');
    return this.tabColor;
  }

  /** Apps Script refuses to hide the last visible sheet. */
  hideSheet(): FakeSheet {
    this.call('Sheet.hideSheet');
    if (!this.hidden && this.host.visibleSheets() <= 1) {
      this.env.fail("You can't hide all the sheets in a document.");
    }
    this.hidden = true;
    return this;
  }

  showSheet(): FakeSheet {
    this.call('Sheet.showSheet');
    this.hidden = false;
    return this;
  }

  isSheetHidden(): boolean {
    this.call('Sheet.isSheetHidden');
    return this.hidden;
  }

  /** Hidden or not, without a service call (for the host). */
  isHidden(): boolean {
    return this.hidden;
  }

  protect(): FakeProtection {
    this.call('Sheet.protect');
    return this.addProtection('SHEET');
  }

  getFilter(): FakeFilter | null {
    this.call('Sheet.getFilter');
    return this.filter;
  }

  isRowHiddenByFilter(rowPosition: unknown): boolean {
    this.call('Sheet.isRowHiddenByFilter');
    const row = this.count(rowPosition, 1, this.maxRows, 'rowPosition');
    return this.filter?.hides(row, (r, c) => this.shownAt(r, c)) ?? false;
  }

  getProtections(type: unknown): FakeProtection[] {
    this.call('Sheet.getProtections');
    const wanted = type === ProtectionType.SHEET ? 'SHEET' : 'RANGE';
    return this.env.realm.array(
      this.protections.filter(p => p.getProtectionType().name() === wanted),
    );
  }

  toString(): string {
    return 'Sheet';
  }

  // ---- for ranges, the spreadsheet and tests (not Apps Script methods) ----

  /** The sheet's name without a metered call. */
  title(): string {
    return this.name;
  }

  sibling(name: string): FakeSheet | undefined {
    return this.host.referencedSheet(name);
  }

  size(): {maxRows: number; maxColumns: number} {
    return {maxRows: this.maxRows, maxColumns: this.maxColumns};
  }

  /** Counts a Spreadsheet service call, priced per cell it touches. */
  call(key: string, cells = 0): void {
    this.env.spreadsheet(key, cells);
  }

  cellAt(row: number, column: number): Cell | undefined {
    return this.rows[row - 1]?.[column - 1];
  }

  cellFor(row: number, column: number): Cell {
    const cells = (this.rows[row - 1] ??= []);
    return (cells[column - 1] ??= {});
  }

  /** Range.createFilter: refused while the sheet has one, as in Sheets. */
  addFilter(range: FakeRange): FakeFilter {
    if (this.filter)
      this.env.fail(
        "You can't create a filter in a sheet that already has a filter.",
      );
    this.filter = new FakeFilter(this.env, range, () => {
      this.filter = null;
    });
    return this.filter;
  }

  /** The filter, for the host (no call). */
  filterNow(): FakeFilter | null {
    return this.filter;
  }

  /** Rows its filter hides now, for the host (no call). */
  rowsHiddenByFilter(): number[] {
    const filter = this.filter;
    if (!filter) return [];
    const rows: number[] = [];
    for (let row = 1; row <= this.maxRows; row++)
      if (filter.hides(row, (r, c) => this.shownAt(r, c))) rows.push(row);
    return rows;
  }

  private shownAt(row: number, column: number): string {
    const cell = this.cellAt(row, column);
    return displayValue(cell?.content, cell?.format, this);
  }

  addProtection(type: 'RANGE' | 'SHEET', range?: FakeRange): FakeProtection {
    const p = new FakeProtection(
      this.env,
      type,
      gone => this.protections.splice(this.protections.indexOf(gone), 1),
      range ?? new FakeRange(this, this.whole()),
    );
    this.protections.push(p);
    return p;
  }

  /** Refuses, with Apps Script's error, an edit of `rect` that a protection forbids the user. */
  checkEditable(rect: Rect): void {
    if (this.protections.some(p => p.refusesEdit(rect)))
      this.env.fail(PROTECTED_EDIT);
  }

  /** The description of a warning-only protection over the cell, if one covers it. */
  protectionWarningAt(row: number, column: number): string | undefined {
    for (const p of this.protections) {
      const warning = p.warningAt(row, column);
      if (warning !== undefined) return warning;
    }
    return undefined;
  }

  /** Replaces each formula by what `rewrite` makes of it (references that follow moved cells). */
  rewriteFormulas(rewrite: (formula: string) => string): void {
    this.eachStoredCell(cell => {
      this.env.followInQueue(cell, rewrite);
      if (cell.content?.kind !== 'formula') return;
      const formula = rewrite(cell.content.formula);
      if (formula !== cell.content.formula)
        cell.content = {kind: 'formula', formula};
    });
  }

  /**
   * Sorts the rows of `rect` by `keys` (stable; blanks last in either direction), moving every
   * cell of the block whole (content, formats, notes, validation). A moved formula is a copy:
   * its relative references move by as many rows as it did.
   */
  sortRows(rect: Rect, keys: SortKey[]): void {
    const sources = Array.from({length: rect.numRows}, (_, i) => rect.row + i);
    const values = new Map(
      sources.map(r => [r, keys.map(k => sortValue(this, r, k.column))]),
    );
    const order = [...sources].sort((a, b) => {
      for (let k = 0; k < keys.length; k++) {
        const x = values.get(a)![k];
        const y = values.get(b)![k];
        if (x === null || y === null) {
          if (x !== y) return x === null ? 1 : -1;
          continue;
        }
        const c = compareSortValues(x, y);
        if (c !== 0) return keys[k].ascending ? c : -c;
      }
      return 0;
    });
    const columns = Array.from(
      {length: rect.numColumns},
      (_, j) => rect.column + j,
    );
    const moving = order.map(r => columns.map(c => this.cellAt(r, c)));
    order.forEach((source, i) => {
      const target = rect.row + i;
      const cells = (this.rows[target - 1] ??= []);
      const copied = (formula: string) =>
        followCopy(formula, target - source, 0);
      columns.forEach((c, j) => {
        const cell = moving[i][j];
        cells[c - 1] = cell;
        if (!cell || target === source) return;
        this.env.followInQueue(cell, copied);
        if (cell.content?.kind === 'formula') {
          cell.content = {
            kind: 'formula',
            formula: copied(cell.content.formula),
          };
        }
      });
    });
  }

  lastRow(): number {
    for (let r = this.rows.length; r > 0; r--) {
      if (this.rows[r - 1]?.some(c => c?.content)) return r;
    }
    return 0;
  }

  lastColumn(): number {
    let last = 0;
    for (const cells of this.rows) {
      for (let c = cells?.length ?? 0; c > last; c--) {
        if (cells![c - 1]?.content) {
          last = c;
          break;
        }
      }
    }
    return last;
  }

  /** Resolves getRange's forms: (a1), (row, column), (row, column, numRows[, numColumns]). */
  rectFromArgs(args: unknown[], method: string): Rect {
    if (args.length === 1 && typeof args[0] === 'string') {
      const parsed = parseA1(args[0], this.maxRows, this.maxColumns);
      if (
        !parsed ||
        (parsed.sheetName !== undefined && parsed.sheetName !== this.name)
      ) {
        this.env.fail('Range not found');
      }
      return this.inside(parsed.rect);
    }
    if (
      args.length < 2 ||
      args.length > 4 ||
      args.some(a => typeof a !== 'number')
    ) {
      const types = args.map(a => (a === null ? 'null' : typeof a)).join(',');
      this.env.fail(
        `The parameters (${types}) don't match the method signature for SpreadsheetApp.${method}.`,
      );
    }
    const [row, column, numRows = 1, numColumns = 1] = args as number[];
    if (!Number.isInteger(row) || row < 1)
      this.env.fail('The starting row of the range is too small.');
    if (!Number.isInteger(column) || column < 1)
      this.env.fail('The starting column of the range is too small.');
    if (!Number.isInteger(numRows) || numRows < 1)
      this.env.fail('The number of rows in the range must be at least 1.');
    if (!Number.isInteger(numColumns) || numColumns < 1)
      this.env.fail('The number of columns in the range must be at least 1.');
    return this.inside({row, column, numRows, numColumns});
  }

  inside(rect: Rect): Rect {
    if (
      rect.row + rect.numRows - 1 > this.maxRows ||
      rect.column + rect.numColumns - 1 > this.maxColumns
    ) {
      this.env.fail(OUTSIDE);
    }
    return rect;
  }

  /**
   * Writes a grid, all or nothing: every value is parsed and checked (cell size, data
   * validation) before any cell changes.
   */
  writeEntries(
    rect: Rect,
    values: unknown[][],
    parse: (value: unknown, cell: Cell | undefined) => Entry,
  ): void {
    this.checkEditable(rect);
    const planned: {row: number; column: number; entry: Entry}[] = [];
    for (let i = 0; i < rect.numRows; i++) {
      for (let j = 0; j < rect.numColumns; j++) {
        const row = rect.row + i;
        const column = rect.column + j;
        const cell = this.cellAt(row, column);
        const entry = parse(values[i][j], cell);
        if (contentLength(entry.content) > MAX_CELL_CHARS) {
          this.env.fail(
            `Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`,
          );
        }
        const format = cell?.format ?? entry.format;
        if (
          cell?.validation &&
          !cell.validation.accepts(entry.content, format)
        ) {
          this.env.fail(
            `The data you entered in cell ${a1Of({row, column, numRows: 1, numColumns: 1})} violates the data validation rules set on this cell.`,
          );
        }
        planned.push({row, column, entry});
      }
    }
    for (const {row, column, entry} of planned) {
      if (!entry.content && !this.cellAt(row, column)) continue;
      const cell = this.cellFor(row, column);
      this.env.queueCellWrite(cell);
      if (entry.content) cell.content = entry.content;
      else delete cell.content;
      if (entry.format && cell.format === undefined) cell.format = entry.format;
    }
  }

  /**
   * Meters the characters a write of values or formulas carries (a value set on a whole range
   * counts once), in all and for this sheet: what Apps Script sends, which the price per cell
   * does not tell (a state cell of 40,000 characters costs what a cell of one does).
   */
  carried(values: readonly unknown[][]): void {
    let chars = 0;
    for (const row of values) {
      for (const value of row) {
        if (typeof value === 'string') chars += value.length;
        else if (typeof value === 'number' || typeof value === 'boolean')
          chars += String(value).length;
        else if (typeof value === 'object' && value !== null)
          chars += DATE_CHARS;
      }
    }
    this.env.meter.add(CHARS_WRITTEN, chars);
    this.env.meter.add(`${CHARS_WRITTEN} ${this.name}`, chars);
  }

  /** A value from setValue(s): parsed as typed input, under the cell's number format. */
  scriptEntry(value: unknown, cell: Cell | undefined): Entry {
    return entryFromScript(value, cell?.format, this.host.timeZone);
  }

  // ---- private ----

  /** Every cell of the sheet. */
  private whole(): Rect {
    return {
      row: 1,
      column: 1,
      numRows: this.maxRows,
      numColumns: this.maxColumns,
    };
  }

  private eachStoredCell(fn: (cell: Cell) => void): void {
    for (const cells of this.rows) cells?.forEach(c => c && fn(c));
  }

  private count(
    value: unknown,
    min: number,
    max: number,
    what: string,
  ): number {
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < min ||
      value > max
    ) {
      this.env.fail(`Invalid argument: ${what}`);
    }
    return value;
  }

  private columnSpan(start: number, count: number): void {
    this.count(start, 1, this.maxColumns, 'column');
    this.count(count, 1, this.maxColumns - start + 1, 'numColumns');
  }

  private insert(
    dimension: Axis,
    key: string,
    before: number,
    howMany: number,
  ): FakeSheet {
    this.call(key);
    const max = dimension === 'rows' ? this.maxRows : this.maxColumns;
    this.count(before, 1, max + 1, dimension === 'rows' ? 'row' : 'column');
    this.count(howMany, 1, Infinity, 'howMany');
    this.grow(dimension, before, howMany);
    return this;
  }

  /** Adds `howMany` empty rows or columns before index `before` (1-based). */
  private grow(dimension: Axis, before: number, howMany: number): void {
    const other = dimension === 'rows' ? this.maxColumns : this.maxRows;
    this.host.checkGrowth(howMany * other);
    if (dimension === 'rows') {
      if (this.rows.length >= before)
        this.rows.splice(before - 1, 0, ...new Array<undefined>(howMany));
      this.maxRows += howMany;
    } else {
      for (const cells of this.rows) {
        if (cells && cells.length >= before)
          cells.splice(before - 1, 0, ...new Array<undefined>(howMany));
      }
      this.maxColumns += howMany;
    }
    this.host.structureChanged(this, {
      axis: dimension,
      at: before,
      count: howMany,
    });
  }

  private remove(
    dimension: Axis,
    key: string,
    start: number,
    howMany: number,
  ): FakeSheet {
    this.call(key);
    const rows = dimension === 'rows';
    const max = rows ? this.maxRows : this.maxColumns;
    if (
      typeof start !== 'number' ||
      typeof howMany !== 'number' ||
      !Number.isInteger(start) ||
      !Number.isInteger(howMany) ||
      start < 1 ||
      howMany < 1 ||
      start + howMany - 1 > max
    ) {
      this.env.fail(`Those ${dimension} are out of bounds.`);
    }
    if (howMany >= max - (rows ? this.frozen.rows : this.frozen.columns)) {
      this.env.fail(
        `Sorry, it is not possible to delete all non-frozen ${dimension}.`,
      );
    }
    if (rows) {
      this.rows.splice(start - 1, howMany);
      this.maxRows -= howMany;
    } else {
      for (const cells of this.rows) cells?.splice(start - 1, howMany);
      this.maxColumns -= howMany;
    }
    this.host.structureChanged(this, {
      axis: dimension,
      at: start,
      count: -howMany,
    });
    return this;
  }
}

export function clearFormats(cell: Cell): void {
  delete cell.format;
  delete cell.background;
  delete cell.fontWeight;
  delete cell.fontColor;
  delete cell.horizontalAlignment;
  delete cell.wrapStrategy;
}
