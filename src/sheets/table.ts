/**
 * Table I/O: a sheet read once into plain arrays and written back where it changed.
 *
 * Columns are found by header, never by position: users reorder columns and add their own.
 * Any column whose header is not the schema's belongs to the user and is never changed by the
 * add-on (its cells only travel with their record when a refresh moves rows). When a header of
 * the schema is missing, `openTable` either puts the column back at the end (refresh: nothing
 * of the user's is lost, and the sheet works again) or refuses with an error naming it (push:
 * the user's edits cannot be told without it). A missing id column is never put back under
 * rows: they could not be told apart from new records, so both refuse. The first column with
 * a header counts when a header appears twice.
 *
 * Writing compares the new rows with what was read and writes only the smallest block that
 * holds every change, in one setValues (split where a run of unchanged columns costs more
 * cells than a call); rows left over below are cleared in one call. Rows are given as
 * contents: values, and `Formula` for a formula to keep. Text stays text: setValues parses
 * a string as typed input (a number, a date, a formula) unless its cell is plain text, so
 * text goes as it is into a plain-text cell and marked with an apostrophe into any other.
 * The formats are those layout.ts gave when this job created the sheet; otherwise they are
 * read for the cells that get text.
 */
import type {CellValue, SheetPort, Workbook} from '../platform/ports';
import {markedAsText, sameCell} from './cell';
import {addColumns, formatRows, isPlainText} from './layout';
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
   * Formulas of the columns the user may type in, the user's own and the editable ones ('' for
   * none; no rows at all when there are no such columns): a cell written back keeps its
   * formula, so a user's formula survives even when the block written spans its column, and
   * a refresh can keep one whose value the server still has. The other columns hold what the
   * add-on writes, never a formula it must keep, so theirs are not read.
   */
  formulas: string[][];
  /**
   * Headers of the schema's columns that this open put back because the sheet had none: their
   * cells hold nothing the user typed, so no cell of theirs is an edit.
   */
  added: ReadonlySet<string>;
  /**
   * Whether each column's cells are plain text, known when this job created the sheet (it
   * formatted every column); otherwise undefined, and formats are read when text is written.
   */
  plainText?: readonly boolean[];
}

export class SheetLayoutError extends Error {
  override readonly name = 'SheetLayoutError';
}

export interface OpenOptions {
  /** Create the sheet and put back missing columns (refresh); otherwise refuse (push). */
  create: boolean;
  /**
   * Data rows the caller expects to write: a sheet created now is made that tall before its
   * columns are formatted, so they are formatted once rather than again as it grows.
   */
  rows?: number;
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
    const columns = allColumns(schema) as ReadonlyArray<Column<never>>;
    addColumns(sheet, schema as SheetSchema<never>, 1, columns, {
      rows: sheetRow(options.rows ?? 0) - 1,
      created: true,
    });
    sheet.freezeRows(1);
    return {
      schema,
      sheet,
      position: positions(schema, 0),
      width: columns.length,
      values: [],
      formulas: [],
      added: new Set(),
      plainText: columns.map(isPlainText),
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
  const rowsBelow = grid.slice(1).some(row => row.some(cell => cell !== ''));
  if (rowsBelow && missing.some(c => c.header === schema.id)) {
    throw new SheetLayoutError(
      `The ${schema.name} sheet has no ${schema.id} column: rows are matched with the API's records by it, so it cannot come back empty: restore the header text.`,
    );
  }
  if (missing.length > 0) {
    if (!options.create) {
      throw new SheetLayoutError(
        `The ${schema.name} sheet has no ${missing.map(c => c.header).join(', ')} column: refresh it to put the column back, or restore the header text.`,
      );
    }
    if (empty) sheet.freezeRows(1);
    addColumns(
      sheet,
      schema as SheetSchema<never>,
      width + 1,
      missing as ReadonlyArray<Column<never>>,
    );
    missing.forEach((c, i) => position.set(c.header, width + i));
    width += missing.length;
  }
  const pad = <T>(row: T[], fill: T) =>
    row.length < width
      ? [...row, ...new Array<T>(width - row.length).fill(fill)]
      : row;
  const values = empty ? [] : grid.slice(1).map(row => pad(row, ''));
  const owned = new Set(
    allColumns(schema)
      .filter(c => !c.editable || missing.includes(c))
      .map(c => position.get(c.header)),
  );
  const typed = (c: number) => c < width && !owned.has(c);
  const formulas = readFormulas(sheet, values.length, width, typed);
  const added = new Set(missing.map(c => c.header));
  return {schema, sheet, position, width, values, formulas, added};
}

/**
 * What one more read costs besides its cells, in cells, by the latency model the bench prices
 * with (DESIGN 6): a call of 40 ms, at 0.01 ms a cell. Two runs of columns closer than that
 * are read as one.
 */
const CELLS_PER_READ = 4000;

/**
 * Formulas of the columns `typed` tells ('' in the others), one read per run of columns;
 * empty when there are none (or no rows).
 */
function readFormulas(
  sheet: SheetPort,
  rows: number,
  width: number,
  typed: (column: number) => boolean,
): string[][] {
  const runs = columnRuns(width, typed, Math.floor(CELLS_PER_READ / rows));
  if (rows === 0 || runs.length === 0) return [];
  const formulas = Array.from({length: rows}, () =>
    new Array<string>(width).fill(''),
  );
  for (const [from, to] of runs) {
    const read = sheet.readFormulas(FIRST_ROW, from + 1, rows, to - from);
    read.forEach((row, i) =>
      row.forEach((formula, k) => {
        if (typed(from + k)) formulas[i][from + k] = formula;
      }),
    );
  }
  return formulas;
}

/**
 * [from, to) of each run of columns below `width` for which `keep` holds, runs at most `gap`
 * columns apart joined.
 */
function columnRuns(
  width: number,
  keep: (column: number) => boolean,
  gap: number,
): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let c = 0; c < width; c++) {
    if (!keep(c)) continue;
    const last = runs[runs.length - 1];
    if (last && c - last[1] <= gap) last[1] = c + 1;
    else runs.push([c, c + 1]);
  }
  return runs;
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
 * Makes the sheet's data rows `rows` (each `table.width` long). Writes only the blocks that
 * changed, clears rows left over below, colours the sync_status cells that changed, and
 * formats new rows when the sheet had to grow.
 */
export function writeTable<S>(
  table: Table<S>,
  rows: Contents[][],
): WriteResult {
  const before = table.values.length;
  // Per column, the first and the last data row whose cell changes.
  const first = new Array<number>(table.width).fill(-1);
  const last = new Array<number>(table.width).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    for (let c = 0; c < table.width; c++) {
      const old = i < before ? contentsOf(table, i, c) : '';
      if (!sameContents(old, rows[i][c] ?? '')) {
        if (first[c] < 0) first[c] = i;
        last[c] = i;
      }
    }
  }
  growFor(table, rows.length);
  let cellsWritten = 0;
  for (const {top, bottom, left, right} of changedBlocks(first, last)) {
    const block = rows
      .slice(top, bottom + 1)
      .map(row =>
        Array.from({length: right - left + 1}, (_, k) => row[left + k] ?? ''),
      );
    const entries = toEntries(table, top, left, block);
    table.sheet.write(sheetRow(top), left + 1, entries);
    cellsWritten += entries.length * entries[0].length;
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

/**
 * What one more block costs besides its cells, in cells, by the latency model the bench
 * prices with (DESIGN 6): a getRange (1 ms, coordinates) and a setValues the service queues
 * with the other writes (2 ms), at 0.01 ms a cell. Empty columns of a few hundred rows are
 * thus worth a block of their own rather than being written as blanks.
 */
const CELLS_PER_BLOCK = 300;

/** Data rows top..bottom and columns left..right (0-based, inclusive). */
interface Block {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const area = (b: Block) => (b.bottom - b.top + 1) * (b.right - b.left + 1);

/**
 * The blocks to write, from each column's first and last changed row (-1: unchanged): one
 * block, split where the unchanged cells between two columns would cost more than a block.
 */
function changedBlocks(first: number[], last: number[]): Block[] {
  const blocks: Block[] = [];
  first.forEach((top, c) => {
    if (top < 0) return;
    const column = {top, bottom: last[c], left: c, right: c};
    const open = blocks[blocks.length - 1];
    if (open) {
      const joined = {
        top: Math.min(open.top, top),
        bottom: Math.max(open.bottom, last[c]),
        left: open.left,
        right: c,
      };
      if (area(joined) <= area(open) + area(column) + CELLS_PER_BLOCK) {
        blocks[blocks.length - 1] = joined;
        return;
      }
    }
    blocks.push(column);
  });
  return blocks;
}

/** The block at data row `top`, column `left`, as setValues takes it (see the header). */
function toEntries<S>(
  table: Table<S>,
  top: number,
  left: number,
  block: Contents[][],
): CellValue[][] {
  const plain = plainTextCells(table, top, left, block);
  return block.map((r, i) =>
    r.map((c, k) => {
      if (c instanceof Formula) return c.text;
      if (typeof c !== 'string' || c === '' || plain(i, k)) return c;
      return markedAsText(c);
    }),
  );
}

/**
 * Whether cell (i, k) of the block is plain text: known for a sheet this job created;
 * otherwise the formats of the cells that get text are read, in one call.
 */
function plainTextCells<S>(
  table: Table<S>,
  top: number,
  left: number,
  block: Contents[][],
): (i: number, k: number) => boolean {
  const known = table.plainText;
  if (known) return (_, k) => known[left + k] ?? false;
  let first = -1;
  let last = -1;
  let from = Infinity;
  let to = -1;
  block.forEach((row, i) =>
    row.forEach((c, k) => {
      if (typeof c !== 'string' || c === '') return;
      if (first < 0) first = i;
      last = i;
      from = Math.min(from, k);
      to = Math.max(to, k);
    }),
  );
  if (first < 0) return () => false;
  const formats = table.sheet.readNumberFormats(
    sheetRow(top + first),
    left + from + 1,
    last - first + 1,
    to - from + 1,
  );
  return (i, k) => formats[i - first]?.[k - from] === TEXT_FORMAT;
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
