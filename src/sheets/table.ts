/**
 * Table I/O: a sheet read once into plain arrays and written back as one block.
 *
 * Columns are found by header, never by position: users reorder columns and add their own.
 * Any column whose header is not the schema's belongs to the user and is never changed by the
 * add-on (its cells only travel with their record when a refresh moves rows). When a header of
 * the schema is missing, `openTable` either puts the column back at the end (refresh: nothing
 * of the user's is lost, and the sheet works again) or refuses with an error naming it (push:
 * the user's edits cannot be told without it). The first column with a header counts when a
 * header appears twice.
 *
 * Writing compares the new rows with what was read and writes only the smallest block that
 * holds every change, in one setValues; rows left over below are cleared in one call. Rows
 * are given as contents: values, and `Formula` for a formula to keep. Text that Sheets would
 * read as a formula is written as text: as it is in a plain-text cell, marked with an
 * apostrophe in any other (the block's number formats are read only when such text occurs).
 */
import type {CellValue, SheetPort, Workbook} from '../platform/ports';
import {markedAsText, mayBecomeFormula, sameCell} from './cell';
import {addColumns, formatRows} from './layout';
import {
  Column,
  SYNC_STATUS,
  SheetSchema,
  TEXT_FORMAT,
  allColumns,
} from './schema';
import {statusColor} from './status';

/** Sheet row of the first data row. */
export const FIRST_ROW = 2;

/** A formula to write back as a formula (a user's, moved with its row). */
export class Formula {
  constructor(readonly text: string) {}
}

/** What a cell is to hold after a write. */
export type Contents = CellValue | Formula;

export interface Table<S = unknown> {
  schema: SheetSchema<S>;
  sheet: SheetPort;
  /** 0-based position of each of the schema's columns. */
  position: ReadonlyMap<string, number>;
  /** Columns in use: the schema's and the user's. */
  width: number;
  /** Data rows from row 2, each `width` long. */
  values: CellValue[][];
  /**
   * Formulas of the same cells ('' for none): a cell written back keeps its formula, so a
   * user's formula survives even when the block written spans its column.
   */
  formulas: string[][];
}

export class SheetLayoutError extends Error {
  override readonly name = 'SheetLayoutError';
}

export interface OpenOptions {
  /** Create the sheet and put back missing columns (refresh); otherwise refuse (push). */
  create: boolean;
}

/** Reads a sheet of `schema`; null when it does not exist and `create` is false. */
export function openTable<S>(
  workbook: Workbook,
  schema: SheetSchema<S>,
  options: OpenOptions,
): Table<S> | null {
  let sheet = workbook.sheet(schema.name);
  if (!sheet) {
    if (!options.create) return null;
    sheet = workbook.insertSheet(schema.name);
    addColumns(sheet, 1, allColumns(schema) as ReadonlyArray<Column<never>>);
    sheet.freezeRows(1);
    return {
      schema,
      sheet,
      position: positions(schema, 0),
      width: allColumns(schema).length,
      values: [],
      formulas: [],
    };
  }
  const grid = sheet.readValues();
  const empty = grid.every(row => row.every(cell => cell === ''));
  const headers = empty ? [] : grid[0].map(cell => String(cell).trim());
  const position = new Map<string, number>();
  headers.forEach((header, i) => {
    if (header !== '' && !position.has(header)) position.set(header, i);
  });
  const missing = allColumns(schema).filter(c => !position.has(c.header));
  let width = empty ? 0 : grid[0].length;
  if (missing.length > 0) {
    if (!options.create) {
      throw new SheetLayoutError(
        `The ${schema.name} sheet has no ${missing.map(c => c.header).join(', ')} column: refresh it to put the column back, or restore the header text.`,
      );
    }
    if (empty) sheet.freezeRows(1);
    addColumns(sheet, width + 1, missing as ReadonlyArray<Column<never>>);
    missing.forEach((c, i) => position.set(c.header, width + i));
    width += missing.length;
  }
  const pad = <T>(row: T[], fill: T) =>
    row.length < width
      ? [...row, ...new Array<T>(width - row.length).fill(fill)]
      : row;
  const values = empty ? [] : grid.slice(1).map(row => pad(row, ''));
  const formulas =
    values.length > 0
      ? sheet
          .readFormulas()
          .slice(1)
          .map(row => pad(row, ''))
      : [];
  return {schema, sheet, position, width, values, formulas};
}

function positions<S>(
  schema: SheetSchema<S>,
  from: number,
): Map<string, number> {
  return new Map(allColumns(schema).map((c, i) => [c.header, from + i]));
}

/** The 1-based sheet row of data row `index`. */
export function sheetRow(index: number): number {
  return FIRST_ROW + index;
}

export function cellOf<S>(
  table: Table<S>,
  index: number,
  header: string,
): CellValue {
  const at = table.position.get(header);
  return at === undefined ? '' : (table.values[index]?.[at] ?? '');
}

/** What a cell holds: its formula, or its value. */
export function contentsOf<S>(
  table: Table<S>,
  index: number,
  column: number,
): Contents {
  const formula = table.formulas[index]?.[column] ?? '';
  if (formula !== '') return new Formula(formula);
  return table.values[index]?.[column] ?? '';
}

function sameContents(a: Contents, b: Contents): boolean {
  if (a instanceof Formula || b instanceof Formula) {
    return a instanceof Formula && b instanceof Formula && a.text === b.text;
  }
  return sameCell(a, b);
}

/** The current contents of data row `index`, as a row to write. */
export function rowContents<S>(table: Table<S>, index: number): Contents[] {
  const row: Contents[] = [];
  for (let c = 0; c < table.width; c++) row.push(contentsOf(table, index, c));
  return row;
}

export interface WriteResult {
  /** Cells in the block written (0 when nothing changed). */
  cellsWritten: number;
}

/**
 * Makes the sheet's data rows `rows` (each `table.width` long). Writes only the block that
 * changed, clears rows left over below, colours the sync_status cells that changed, and
 * formats new rows when the sheet had to grow.
 */
export function writeTable<S>(
  table: Table<S>,
  rows: Contents[][],
): WriteResult {
  const before = table.values.length;
  const span = Math.max(before, rows.length);
  let top = Infinity;
  let bottom = -1;
  let left = Infinity;
  let right = -1;
  for (let i = 0; i < Math.min(rows.length, span); i++) {
    for (let c = 0; c < table.width; c++) {
      const old = i < before ? contentsOf(table, i, c) : '';
      if (!sameContents(old, rows[i][c] ?? '')) {
        top = Math.min(top, i);
        bottom = Math.max(bottom, i);
        left = Math.min(left, c);
        right = Math.max(right, c);
      }
    }
  }
  growFor(table, rows.length);
  let cellsWritten = 0;
  if (bottom >= 0) {
    const block = rows
      .slice(top, bottom + 1)
      .map(row =>
        Array.from({length: right - left + 1}, (_, k) => row[left + k] ?? ''),
      );
    const entries = toEntries(table.sheet, sheetRow(top), left + 1, block);
    table.sheet.write(sheetRow(top), left + 1, entries);
    cellsWritten = entries.length * entries[0].length;
  }
  if (before > rows.length) {
    table.sheet.clearContent(
      sheetRow(rows.length),
      1,
      before - rows.length,
      table.width,
    );
  }
  colourStatuses(table, rows);
  return {cellsWritten};
}

/** The block as setValues takes it: formulas as text, text kept from becoming a formula. */
function toEntries(
  sheet: SheetPort,
  row: number,
  column: number,
  block: Contents[][],
): CellValue[][] {
  const risky = block.some(r =>
    r.some(c => typeof c === 'string' && mayBecomeFormula(c)),
  );
  const formats = risky
    ? sheet.readNumberFormats(row, column, block.length, block[0].length)
    : [];
  return block.map((r, i) =>
    r.map((c, k) => {
      if (c instanceof Formula) return c.text;
      if (typeof c !== 'string' || !mayBecomeFormula(c)) return c;
      return formats[i]?.[k] === TEXT_FORMAT ? c : markedAsText(c);
    }),
  );
}

function growFor<S>(table: Table<S>, rows: number): void {
  // The sheet already holds as many rows as were read.
  if (rows <= table.values.length) return;
  const had = table.sheet.maxRows();
  const needed = sheetRow(rows) - 1;
  if (needed <= had) return;
  table.sheet.ensureSize(needed, table.width);
  const placed = allColumns(table.schema).map(column => ({
    column: column as Column<never>,
    at: (table.position.get(column.header) ?? 0) + 1,
  }));
  formatRows(table.sheet, placed, had + 1, needed - had);
}

/** Backgrounds of the sync_status cells whose status changed, in one call. */
function colourStatuses<S>(table: Table<S>, rows: Contents[][]): void {
  const at = table.position.get(SYNC_STATUS);
  if (!table.schema.sync || at === undefined) return;
  const before = table.values.length;
  const span = Math.max(before, rows.length);
  let top = -1;
  let bottom = -1;
  for (let i = 0; i < span; i++) {
    const old = i < before ? table.values[i][at] : '';
    const now = i < rows.length ? rows[i][at] : '';
    if (statusColor(old) !== statusColor(now)) {
      if (top < 0) top = i;
      bottom = i;
    }
  }
  if (top < 0) return;
  const colors: Array<Array<string | null>> = [];
  for (let i = top; i <= bottom; i++) {
    colors.push([i < rows.length ? statusColor(rows[i][at]) : null]);
  }
  table.sheet.setBackgrounds(sheetRow(top), at + 1, colors);
}
