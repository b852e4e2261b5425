/**
 * An in-memory Workbook port for unit tests of the sheets layer and the jobs: cells with
 * values, formulas, number formats, backgrounds, notes and dropdowns, and a log of every call
 * so tests can assert "one read, one write". Text entry follows Sheets where it matters here:
 * '=...' is a formula unless the cell is plain text ('@'); a leading apostrophe marks text
 * outside plain-text cells and is not stored.
 */
import type {
  CellValue,
  CellBlock,
  ProtectedBlock,
  SheetPort,
  Workbook,
} from '../../src/platform/ports';

export const FORMULA_VALUE = '#ERROR!';

interface Cell {
  value: CellValue;
  formula: string;
  format: string;
  background: string | null;
  note: string;
  dropdown?: readonly string[];
  clipped?: boolean;
}

const blank = (): Cell => ({
  value: '',
  formula: '',
  format: '',
  background: null,
  note: '',
});

export class MemorySheet implements SheetPort {
  readonly calls: string[] = [];
  /** Every write's top-left cell and values, in order. */
  readonly writes: Array<{row: number; column: number; values: CellValue[][]}> =
    [];
  readonly protections: Array<{
    row: number;
    column: number;
    rows: number;
    columns: number;
    description: string;
  }> = [];
  /** Column widths set, by 1-based column. */
  readonly widths = new Map<number, number>();
  frozenRows = 0;
  hidden = false;
  private cells: Cell[][] = [];
  rows: number;
  columns: number;

  constructor(
    private readonly title: string,
    rows = 1000,
    columns = 26,
  ) {
    this.rows = rows;
    this.columns = columns;
  }

  name(): string {
    return this.title;
  }

  /** A cell (1-based), created blank on first touch. */
  cell(row: number, column: number): Cell {
    if (row > this.rows || column > this.columns) {
      throw new Error(
        `${this.title}: cell ${row},${column} is outside ${this.rows}x${this.columns}`,
      );
    }
    this.cells[row - 1] ??= [];
    return (this.cells[row - 1][column - 1] ??= blank());
  }

  /** What a person typing would leave in a cell (tests use it to edit). */
  type(row: number, column: number, entry: CellValue): void {
    this.enter(this.cell(row, column), entry);
  }

  private enter(cell: Cell, entry: CellValue): void {
    cell.formula = '';
    if (typeof entry !== 'string') {
      cell.value = entry;
      return;
    }
    if (cell.format === '@') cell.value = entry;
    else if (entry.startsWith("'")) cell.value = entry.slice(1);
    else if (entry.startsWith('=') && entry.length > 1) {
      cell.formula = entry;
      cell.value = FORMULA_VALUE;
    } else cell.value = entry;
  }

  private usedRows(): number {
    let last = 0;
    this.cells.forEach((row, r) => {
      if (row?.some(c => c && (c.value !== '' || c.formula !== '')))
        last = r + 1;
    });
    return last;
  }

  private lastColumn(): number {
    let last = 0;
    for (const row of this.cells) {
      row?.forEach((c, k) => {
        if (c && (c.value !== '' || c.formula !== ''))
          last = Math.max(last, k + 1);
      });
    }
    return last;
  }

  /** Values of the used range, as getDataRange().getValues() gives them. */
  grid(): CellValue[][] {
    const rows = Math.max(1, this.usedRows());
    const columns = Math.max(1, this.lastColumn());
    return Array.from({length: rows}, (_, r) =>
      Array.from({length: columns}, (_, c) => this.cells[r]?.[c]?.value ?? ''),
    );
  }

  readValues(): CellValue[][] {
    this.calls.push('readValues');
    return this.grid();
  }

  readBlock(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): CellValue[][] {
    this.calls.push('readBlock');
    return this.block(row, column, rows, columns, c => c.value);
  }

  /** The last row with content, as getLastRow answers. */
  lastRow(): number {
    this.calls.push('lastRow');
    return this.usedRows();
  }

  readFormulas(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): string[][] {
    this.calls.push('readFormulas');
    return this.block(row, column, rows, columns, c => c.formula);
  }

  readNumberFormats(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): string[][] {
    this.calls.push('readNumberFormats');
    return this.block(row, column, rows, columns, c => c.format);
  }

  maxRows(): number {
    return this.rows;
  }

  maxColumns(): number {
    return this.columns;
  }

  ensureSize(rows: number, columns: number): void {
    if (rows > this.rows) {
      this.calls.push('insertRowsAfter');
      this.rows = rows;
    }
    if (columns > this.columns) {
      this.calls.push('insertColumnsAfter');
      this.columns = columns;
    }
  }

  write(row: number, column: number, values: CellValue[][]): void {
    this.calls.push('write');
    this.writes.push({row, column, values});
    this.ensureSize(row + values.length - 1, column + values[0].length - 1);
    values.forEach((r, i) =>
      r.forEach((v, k) => this.enter(this.cell(row + i, column + k), v)),
    );
  }

  clearContent(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): void {
    this.calls.push('clearContent');
    this.each(row, column, rows, columns, c => {
      c.value = '';
      c.formula = '';
    });
  }

  setBackgrounds(
    row: number,
    column: number,
    colors: Array<Array<string | null>>,
  ): void {
    this.calls.push('setBackgrounds');
    colors.forEach((r, i) =>
      r.forEach(
        (color, k) => (this.cell(row + i, column + k).background = color),
      ),
    );
  }

  setBackgroundOf(blocks: readonly CellBlock[], color: string | null): void {
    this.calls.push('setBackgroundOf');
    for (const b of blocks) {
      this.each(
        b.row,
        b.column,
        b.rows,
        b.columns,
        c => (c.background = color),
      );
    }
  }

  setNotes(row: number, column: number, notes: string[][]): void {
    this.calls.push('setNotes');
    notes.forEach((r, i) =>
      r.forEach((note, k) => (this.cell(row + i, column + k).note = note)),
    );
  }

  setNumberFormat(
    row: number,
    column: number,
    rows: number,
    columns: number,
    format: string,
  ): void {
    this.calls.push('setNumberFormat');
    this.each(row, column, rows, columns, c => (c.format = format));
  }

  setBold(): void {
    this.calls.push('setBold');
  }

  clipText(row: number, column: number, rows: number, columns: number): void {
    this.calls.push('clipText');
    this.each(row, column, rows, columns, c => (c.clipped = true));
  }

  setColumnWidths(column: number, count: number, width: number): void {
    this.calls.push('setColumnWidths');
    for (let c = column; c < column + count; c++) this.widths.set(c, width);
  }

  columnWidth(column: number): number {
    this.calls.push('getColumnWidth');
    return this.widths.get(column) ?? 100;
  }

  setDropdown(
    row: number,
    column: number,
    rows: number,
    columns: number,
    values: readonly string[],
  ): void {
    this.calls.push('setDropdown');
    this.each(row, column, rows, columns, c => (c.dropdown = values));
  }

  protectWarningOnly(blocks: readonly ProtectedBlock[]): void {
    for (const block of blocks) {
      this.calls.push('protect');
      this.protections.push({...block});
    }
    for (const b of blocks) {
      this.ensureSize(b.row + b.rows - 1, b.column + b.columns - 1);
    }
  }

  /** The description of the sheet's own protection, if it has one. */
  sheetProtection: string | undefined;

  protectSheetWarningOnly(description: string): void {
    this.calls.push('protectSheet');
    this.sheetProtection = description;
  }

  exceptFromProtection(columns: readonly number[]): void {
    this.calls.push(`exceptFromProtection ${columns.join(',')}`);
  }

  deleteRows(row: number, count: number): void {
    this.calls.push('deleteRows');
    this.cells.splice(row - 1, count);
    this.rows -= count;
  }

  insertRowsAfter(row: number, count: number): void {
    this.calls.push('insertRowsAfter');
    this.cells.splice(row, 0, ...Array.from({length: count}, () => []));
    this.rows += count;
  }

  freezeRows(rows: number): void {
    this.calls.push('freezeRows');
    this.frozenRows = rows;
  }

  hide(): void {
    this.calls.push('hide');
    this.hidden = true;
  }

  /** Column -> the values its filter hides. */
  readonly filters = new Map<number, readonly string[]>();

  filterColumn(column: number, hidden: readonly string[] | null): void {
    this.calls.push('filterColumn');
    if (hidden === null) this.filters.delete(column);
    else this.filters.set(column, hidden);
  }

  filteredOut(column: number): string[] {
    return [...(this.filters.get(column) ?? [])];
  }

  private each(
    row: number,
    column: number,
    rows: number,
    columns: number,
    f: (c: Cell) => void,
  ): void {
    for (let r = 0; r < rows; r++)
      for (let k = 0; k < columns; k++) f(this.cell(row + r, column + k));
  }

  private block<T>(
    row: number,
    column: number,
    rows: number,
    columns: number,
    f: (c: Cell) => T,
  ): T[][] {
    return Array.from({length: rows}, (_, r) =>
      Array.from({length: columns}, (_, k) =>
        f(this.cell(row + r, column + k)),
      ),
    );
  }
}

export class MemoryWorkbook implements Workbook {
  readonly sheets = new Map<string, MemorySheet>();

  /** `offsetMinutes`: the spreadsheet time zone's offset from UTC. */
  constructor(private readonly offsetMinutes = 0) {}

  sheet(name: string): MemorySheet | null {
    return this.sheets.get(name) ?? null;
  }

  insertSheet(name: string): MemorySheet {
    if (this.sheets.has(name))
      throw new Error(`A sheet named ${name} already exists`);
    const sheet = new MemorySheet(name);
    this.sheets.set(name, sheet);
    return sheet;
  }

  /** No sheet is shown here. */
  showInstead(): void {}

  timeZone(): string {
    return 'Test/Zone';
  }

  name(): string {
    return 'Test spreadsheet';
  }

  url(): string {
    return 'https://docs.google.com/spreadsheets/d/test/edit';
  }

  utcOffsetMinutes(): number {
    return this.offsetMinutes;
  }

  /** Writes land at once here: nothing is queued. */
  flush(): void {}

  /** The used range of a sheet, headers included. */
  grid(name: string): CellValue[][] {
    const sheet = this.sheets.get(name);
    if (!sheet) throw new Error(`no sheet ${name}`);
    return sheet.grid();
  }

  /** Rows of a sheet as objects by header (data rows only). */
  records(name: string): Array<Record<string, CellValue>> {
    const [headers, ...rows] = this.grid(name);
    return rows.map(row =>
      Object.fromEntries(headers.map((h, i) => [String(h), row[i]])),
    );
  }

  /** Types into the cell of data row `index` (0-based) under `header`, as a user would. */
  edit(name: string, index: number, header: string, entry: CellValue): void {
    const sheet = this.sheets.get(name)!;
    const column = sheet.grid()[0].indexOf(header) + 1;
    if (column === 0) throw new Error(`no column ${header} in ${name}`);
    sheet.type(index + 2, column, entry);
  }
}
