/**
 * Table I/O: a sheet read once into plain arrays.
 *
 * Columns are found by header, never by position: users reorder columns and add their own.
 * Any column whose header is not the schema's belongs to the user and is never changed by the
 * add-on (its cells only travel with their record when a refresh moves rows). When a header of
 * the schema is missing, `openTable` either puts the column back at the end (refresh: nothing
 * of the user's is lost, and the sheet works again) or refuses with an error naming it (push:
 * the user's edits cannot be told without it). A missing id column is never put back under
 * rows: they could not be told apart from new records, so both refuse. The first column with
 * a header counts when a header appears twice (a push or a create refuses such a sheet, naming
 * the columns); a header retyped in other case or with spaces
 * (`Daily Cap`) counts as the schema's when it is the only one that could be.
 *
 * Writing goes through the one writer (writer.ts), which takes a table's rows as contents:
 * values, and `Formula` for a formula to keep.
 */
import {columnLetter} from '../platform/a1';
import type {CellValue, SheetPort, Workbook} from '../platform/ports';
import {ACCOUNT} from './accounts';
import {addColumns, isPlainText} from './layout';
import {isEmptyCell, showsFormulaError} from './cell';
import {Column, SYNC_COLUMNS, SheetSchema, allColumns} from './schema';

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
   * add-on writes, never a formula it must keep, so theirs are not read. Opened with
   * `formulasToJudge`, only the rows whose values need them are read ('' in the others).
   */
  formulas: ReadonlyArray<readonly string[]>;
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
   * The rows are the user's input to a create: a column put back under them would read as
   * empty in each, and a row would go out without what was typed under the old header. The
   * column is put back, and the open refused, once, naming it.
   */
  input?: boolean;
  /**
   * Data rows the caller expects to write: a sheet created now is made that tall before its
   * columns are formatted, so they are formatted once rather than again as it grows.
   */
  rows?: number;
  /**
   * Reads formulas only in the rows whose values cannot be judged without them: a row that
   * looks blank (a formula may show ''), a cell that shows a formula's error (rows.ts). A job
   * that writes no cell people type in (a push) needs no other; on a large sheet the formulas
   * of every row cost a third as much as its values.
   */
  formulasToJudge?: boolean;
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
  matchRetyped(schema, headers, position);
  if (!options.create || options.input) refuseTwice(schema, headers);
  const missing = allColumns(schema).filter(c => !position.has(c.header));
  let width = empty ? 0 : grid[0].length;
  const rowsBelow = grid.slice(1).some(row => row.some(cell => cell !== ''));
  if (rowsBelow && missing.some(c => c.header === schema.id)) {
    const down = grid.findIndex(row =>
      row.some(cell => loose(String(cell).trim()) === schema.id),
    );
    if (down > 0) {
      // Rows with content above are records a sort moved there, never to be deleted.
      const blank = grid
        .slice(0, down)
        .every(row => row.every(cell => cell === ''));
      const fix = blank
        ? 'delete the empty rows above them'
        : 'move the header row back to row 1 (undo the sort or the move that put rows above it)';
      throw new SheetLayoutError(
        `The ${schema.name} sheet has its headers in row ${down + 1}, not row 1, where Offer Desk reads them: ${fix}. Nothing was changed.`,
      );
    }
    throw new SheetLayoutError(
      `The ${schema.name} sheet has no ${schema.id} column: rows are matched with the API's records by it, so it cannot come back empty: restore the header text.`,
    );
  }
  // An account column an earlier release did not make is put back whatever the job: its
  // empty cells mean what they meant then (rows.ts rowAccount), so nothing is lost or misread.
  // A later release's read-only column (maintain_by) waits for a refresh to add it.
  const refused = missing.filter(c => c.header !== ACCOUNT && !c.later);
  if (!options.create && refused.length > 0) {
    throw new SheetLayoutError(
      `The ${schema.name} sheet has no ${refused.map(c => c.header).join(', ')} column: refresh it to put the column back, or restore the header text.`,
    );
  }
  const putBack = options.create
    ? missing
    : missing.filter(c => c.header === ACCOUNT);
  if (putBack.length > 0) {
    if (empty) sheet.freezeRows(1);
    addColumns(
      sheet,
      schema as SheetSchema<never>,
      width + 1,
      putBack as ReadonlyArray<Column<never>>,
    );
    putBack.forEach((c, i) => position.set(c.header, width + i));
    width += putBack.length;
    if (options.input && rowsBelow && refused.length > 0) {
      const names = refused.map(c => c.header).join(', ');
      throw new SheetLayoutError(
        `The ${schema.name} sheet had no ${names} column (renamed or deleted): it is back, empty, at the end of row 1. Nothing was sent, so that no row goes out without what you typed there: fill it in (or restore your header and delete the new column), then run again.`,
      );
    }
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
  const formulas = readFormulas(
    sheet,
    values.length,
    width,
    typed,
    options.formulasToJudge
      ? rowsToJudge(values, typed, syncPositions(position))
      : undefined,
  );
  const added = new Set(putBack.map(c => c.header));
  return {schema, sheet, position, width, values, formulas, added};
}

/**
 * A job that reads what users typed refuses a sheet holding one of the schema's headers twice:
 * it reads the first, so whatever is typed in the other would count for nothing, in silence.
 * (A refresh writes the first and leaves the other as the user's: nothing is lost.)
 */
function refuseTwice<S>(schema: SheetSchema<S>, headers: readonly string[]) {
  for (const column of allColumns(schema)) {
    const at = headers.flatMap((h, i) => (h === column.header ? [i] : []));
    if (at.length < 2) continue;
    throw new SheetLayoutError(
      `The ${schema.name} sheet has ${at.length} ${column.header} columns (${at.map(columnLetter).join(', ')}): Offer Desk reads the first, so what is typed in the others would count for nothing. Rename or delete all but one, then run again; nothing was sent.`,
    );
  }
}

/** A header as compared when not found as written: case, spaces and hyphens aside. */
const loose = (header: string) => header.toLowerCase().replace(/[\s-]+/g, '_');

/**
 * A schema header not found as written but retyped by a user (`Daily Cap`, `DAILY_CAP`) is
 * that column: put back beside it, the column would leave what was typed there unsent. A
 * header that is another schema column's, or matches two, is left alone.
 */
function matchRetyped<S>(
  schema: SheetSchema<S>,
  headers: readonly string[],
  position: Map<string, number>,
): void {
  const columns = allColumns(schema);
  const claimed = new Set(
    columns.flatMap(c =>
      position.has(c.header) ? [position.get(c.header)] : [],
    ),
  );
  for (const column of columns) {
    if (position.has(column.header)) continue;
    const at = headers.flatMap((h, i) =>
      !claimed.has(i) && loose(h) === column.header ? [i] : [],
    );
    if (at.length !== 1) continue;
    position.set(column.header, at[0]);
    claimed.add(at[0]);
  }
}

/**
 * What one more read costs besides its cells, in cells, by the latency model the bench prices
 * with (DESIGN 6): a call of 40 ms, at 0.01 ms a cell. Two runs of columns closer than that
 * are read as one.
 */
const CELLS_PER_READ = 4000;

/**
 * Formulas of the columns `typed` tells ('' in the others), one read per run of columns;
 * empty when there are none (or no rows). `only`: the data rows to read (sorted), read in
 * runs; every row when not given.
 */
function readFormulas(
  sheet: SheetPort,
  rows: number,
  width: number,
  typed: (column: number) => boolean,
  only?: readonly number[],
): ReadonlyArray<readonly string[]> {
  const read = only?.length ?? rows;
  const columns = keptRuns(width, typed, Math.floor(CELLS_PER_READ / read));
  const across = columns.reduce((n, [from, to]) => n + to - from, 0);
  const wanted = only && new Set(only);
  const spans = wanted
    ? keptRuns(rows, r => wanted.has(r), Math.floor(CELLS_PER_READ / across))
    : [[0, rows] as [number, number]];
  if (read === 0 || columns.length === 0 || spans.length === 0) return [];
  // Most rows hold no formula: they share one empty row instead of a row of '' each.
  const formulas = new Array<readonly string[]>(rows).fill(NO_FORMULAS);
  for (const [top, bottom] of spans) {
    for (const [from, to] of columns) {
      sheet
        .readFormulas(sheetRow(top), from + 1, bottom - top, to - from)
        .forEach((row, i) =>
          row.forEach((formula, k) => {
            if (formula === '' || !typed(from + k)) return;
            const own =
              formulas[top + i] === NO_FORMULAS
                ? new Array<string>(width).fill('')
                : (formulas[top + i] as string[]);
            own[from + k] = formula;
            formulas[top + i] = own;
          }),
        );
    }
  }
  return formulas;
}

/** The formulas of a row that has none. */
const NO_FORMULAS: readonly string[] = Object.freeze([]);

/**
 * The data rows whose values need their formulas to be judged (OpenOptions.formulasToJudge):
 * every cell outside the sync columns empty, or a typed cell showing a formula's error.
 */
function rowsToJudge(
  values: readonly CellValue[][],
  typed: (column: number) => boolean,
  sync: ReadonlySet<number>,
): number[] {
  return values.flatMap((row, i) =>
    row.every((cell, c) => sync.has(c) || isEmptyCell(cell)) ||
    row.some((cell, c) => typed(c) && showsFormulaError(cell))
      ? [i]
      : [],
  );
}

function syncPositions(position: ReadonlyMap<string, number>): Set<number> {
  return new Set(
    SYNC_COLUMNS.flatMap(c => {
      const at = position.get(c.header);
      return at === undefined ? [] : [at];
    }),
  );
}

/**
 * [from, to) of each run of indexes below `length` (columns, rows) for which `keep` holds,
 * runs at most `gap` apart joined.
 */
function keptRuns(
  length: number,
  keep: (index: number) => boolean,
  gap: number,
): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let c = 0; c < length; c++) {
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
