/**
 * How the add-on's columns look: header text, note, colour, number format and dropdown. Set
 * once when a column is added (a new sheet, or a column put back at the end), and for new rows
 * when the sheet grows; never on every refresh, so a user's own formatting elsewhere stays.
 */
import type {SheetPort} from '../platform/ports';
import {Column, SYNC_COLUMNS, TEXT_FORMAT, formatOf} from './schema';

/** Header colours: editable columns stand out from those the add-on keeps up to date. */
export const HEADER_COLORS = {
  editable: '#d9ead3',
  readOnly: '#efefef',
  sync: '#fff2cc',
} as const;

const isSync = (column: Column<never>) =>
  SYNC_COLUMNS.some(c => c.header === column.header);

function headerColor(column: Column<never>): string {
  if (isSync(column)) return HEADER_COLORS.sync;
  return column.editable ? HEADER_COLORS.editable : HEADER_COLORS.readOnly;
}

/** A header's note: what the column means and whether a push sends it. */
export function headerNote(column: Column<never>): string {
  if (isSync(column)) return column.note;
  const role = column.editable
    ? 'Editable: a push sends your changes.'
    : 'Read-only: a refresh overwrites it with the API value.';
  const values = column.values ? ` Values: ${column.values.join(', ')}.` : '';
  return `${column.note}${values}\n${role}`;
}

/** Whether the column's cells are formatted as plain text: setValues keeps text as it is. */
export function isPlainText(column: Column<never>): boolean {
  return formatOf(column) === TEXT_FORMAT;
}

/**
 * Writes the headers of `columns`, placed side by side from `firstColumn`, and formats their
 * cells from row 2 to the sheet's last row, the sheet made `rows` tall first.
 */
export function addColumns(
  sheet: SheetPort,
  firstColumn: number,
  columns: ReadonlyArray<Column<never>>,
  rows = 1,
): void {
  if (columns.length === 0) return;
  const lastColumn = firstColumn + columns.length - 1;
  // A protection is made by a call that waits for the document, which sends every write
  // queued before it (write caching): it goes first, once its header cells exist.
  sheet.ensureSize(1, lastColumn);
  sheet.protectWarningOnly(
    1,
    firstColumn,
    1,
    columns.length,
    'Offer Desk finds its columns by these headers: renaming one makes it a column of your own.',
  );
  sheet.ensureSize(rows, lastColumn);
  sheet.write(1, firstColumn, [columns.map(c => c.header)]);
  sheet.setNotes(1, firstColumn, [columns.map(headerNote)]);
  sheet.setBackgrounds(1, firstColumn, [columns.map(headerColor)]);
  sheet.setBold(1, firstColumn, 1, columns.length);
  formatRows(
    sheet,
    columns.map((column, i) => ({column, at: firstColumn + i})),
    2,
    sheet.maxRows() - 1,
  );
}

/**
 * Number formats and dropdowns for `count` rows from `firstRow`, for columns at the given
 * positions: neighbours with the same format share one call.
 */
export function formatRows(
  sheet: SheetPort,
  placed: ReadonlyArray<{column: Column<never>; at: number}>,
  firstRow: number,
  count: number,
): void {
  if (count <= 0) return;
  const byPosition = [...placed].sort((a, b) => a.at - b.at);
  let i = 0;
  while (i < byPosition.length) {
    const format = formatOf(byPosition[i].column);
    let j = i + 1;
    while (
      j < byPosition.length &&
      byPosition[j].at === byPosition[j - 1].at + 1 &&
      formatOf(byPosition[j].column) === format
    ) {
      j++;
    }
    sheet.setNumberFormat(firstRow, byPosition[i].at, count, j - i, format);
    i = j;
  }
  for (const {column, at} of byPosition) {
    if (column.editable && column.values) {
      sheet.setDropdown(firstRow, at, count, 1, column.values);
    }
  }
}
