/**
 * How the add-on's columns look: header text, note, colour, width, protection, number format,
 * clipping and dropdown. Set once when a column is added (a new sheet, or a column put back at
 * the end), formats also for new rows when the sheet grows; never on every refresh, so a
 * user's own formatting and widths stay.
 */
import type {SheetPort} from '../platform/ports';
import {
  Column,
  DEFAULT_WIDTH,
  SYNC_COLUMNS,
  SheetSchema,
  TEXT_FORMAT,
  formatOf,
  isClipped,
  widthOf,
} from './schema';

/** Header colours: editable columns stand out from those the add-on keeps up to date. */
export const HEADER_COLORS = {
  editable: '#d9ead3',
  readOnly: '#efefef',
  sync: '#fff2cc',
} as const;

/** The editable cells of a row no push may send (schema `lockedWhen`): grey as read-only. */
export const LOCKED_COLOR = HEADER_COLORS.readOnly;

const isSync = (column: Column<never>) =>
  SYNC_COLUMNS.some(c => c.header === column.header);

function headerColor(column: Column<never>): string {
  if (isSync(column)) return HEADER_COLORS.sync;
  return column.editable || column.typed
    ? HEADER_COLORS.editable
    : HEADER_COLORS.readOnly;
}

/**
 * A header's note: what the column means and whether a push sends it: for an editable column,
 * what `sends` (the schema's) says is sent and when; a column the user types although no push
 * sends it is input, never "read-only".
 */
export function headerNote(column: Column<never>, sends?: string): string {
  if (isSync(column)) return column.note;
  return `${column.note}${valuesNote(column)}\n${roleNote(column, sends)}`;
}

function roleNote(column: Column<never>, sends?: string): string {
  if (column.editable)
    return `Editable: ${sends ?? 'a push sends your changes.'}`;
  if (column.typed) return 'Input: yours to type; no push sends it.';
  return 'Read-only: a refresh overwrites it with the API value.';
}

function valuesNote(column: Column<never>): string {
  if (column.values) return ` Values: ${column.values.join(', ')}.`;
  if (!column.suggests) return '';
  const lists =
    column.type === 'list' ? ', and so is a comma-separated list' : '';
  return ` Known values (a suggestion: another value is sent as typed${lists}): ${column.suggests.join(', ')}.`;
}

/** Whether the column's cells are formatted as plain text: setValues keeps text as it is. */
export function isPlainText(column: Column<never>): boolean {
  return formatOf(column) === TEXT_FORMAT;
}

/**
 * Whether the column's data cells are protected with a warning: columns the add-on alone fills
 * (no push sends them, the user types nothing there). The id column stays open: a Budgets
 * group or a sub-account is added by writing one.
 */
function isProtected(schema: SheetSchema<never>, column: Column<never>) {
  return !column.editable && !column.typed && column.header !== schema.id;
}

const HEADER_PROTECTION =
  'Offer Desk finds its columns by these headers: renaming one makes it a column of your own.';
const DATA_PROTECTION =
  'Offer Desk fills this column from the API: a refresh replaces what you type here, and no push sends it.';

export interface AddOptions {
  /** Rows the sheet is made tall first, so that its columns are formatted once. */
  rows?: number;
  /** The sheet was inserted by this job: no width in it is the user's. */
  created?: boolean;
}

/**
 * Writes the headers of `columns` of `schema`, placed side by side from `firstColumn`, and
 * lays them out: widths (never over one the user set: a column the sheet already had keeps a
 * width other than the default), protections, number formats and dropdowns of their cells
 * from row 2 to the sheet's last row.
 */
export function addColumns(
  sheet: SheetPort,
  schema: SheetSchema<never>,
  firstColumn: number,
  columns: ReadonlyArray<Column<never>>,
  options: AddOptions = {},
): void {
  if (columns.length === 0) return;
  const had = options.created ? 0 : sheet.maxColumns();
  const lastColumn = firstColumn + columns.length - 1;
  sheet.ensureSize(1, lastColumn);
  const rows = Math.max(options.rows ?? 1, sheet.maxRows()) - 1;
  const placed = columns.map((column, i) => ({column, at: firstColumn + i}));
  // Reads and protections are calls that wait for the document, which sends every write
  // queued before them (write caching): they go first, then the writes travel together.
  const sized = placed.filter(
    ({at}) => at > had || sheet.columnWidth(at) === DEFAULT_WIDTH,
  );
  const readOnly =
    rows > 0 ? runsOf(placed, p => isProtected(schema, p.column)) : [];
  sheet.protectWarningOnly([
    {
      row: 1,
      column: firstColumn,
      rows: 1,
      columns: columns.length,
      description: HEADER_PROTECTION,
    },
    ...readOnly.map(([at, count]) => ({
      row: 2,
      column: at,
      rows,
      columns: count,
      description: DATA_PROTECTION,
    })),
  ]);
  sheet.ensureSize(rows + 1, lastColumn);
  sheet.write(1, firstColumn, [columns.map(c => c.header)]);
  sheet.setNotes(1, firstColumn, [
    columns.map(c => headerNote(c, schema.sends)),
  ]);
  sheet.setBackgrounds(1, firstColumn, [columns.map(headerColor)]);
  sheet.setBold(1, firstColumn, 1, columns.length);
  for (const [at, count, width] of runsOf(sized, p => widthOf(p.column))) {
    sheet.setColumnWidths(at, count, width);
  }
  formatRows(sheet, placed, 2, rows);
}

/**
 * Runs of adjacent columns with the same key: [first column, count, key]; a key of false
 * leaves the column out.
 */
function runsOf<K>(
  placed: ReadonlyArray<{column: Column<never>; at: number}>,
  key: (p: {column: Column<never>; at: number}) => K | false,
): Array<[number, number, K]> {
  const runs: Array<[number, number, K]> = [];
  for (const p of [...placed].sort((a, b) => a.at - b.at)) {
    const k = key(p);
    if (k === false) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === p.at && last[2] === k) last[1]++;
    else runs.push([p.at, 1, k]);
  }
  return runs;
}

/**
 * Number formats, clipping and dropdowns for `count` rows from `firstRow`, for columns at the
 * given positions: neighbours with the same format share one call.
 */
export function formatRows(
  sheet: SheetPort,
  placed: ReadonlyArray<{column: Column<never>; at: number}>,
  firstRow: number,
  count: number,
): void {
  if (count <= 0) return;
  for (const [at, columns, format] of runsOf(placed, p => formatOf(p.column))) {
    sheet.setNumberFormat(firstRow, at, count, columns, format);
  }
  for (const [at, columns] of runsOf(placed, p => isClipped(p.column))) {
    sheet.clipText(firstRow, at, count, columns);
  }
  for (const {column, at} of placed) {
    const values = column.values ?? column.suggests;
    if (column.editable && values) {
      sheet.setDropdown(firstRow, at, count, 1, values);
    }
  }
}
