/**
 * The spreadsheet as a person sees and edits it, outside any execution and without a metered
 * call: snapshots for the bound (which cells a run changed), records to pick rows from, and
 * typing (the runtime's typeIntoCell: parsed as Sheets parses what a person types).
 */
import type {FakeSheet, Runtime} from '../local/runtime';
import {typeIntoCell} from '../local/runtime';
import {columnLetter} from '../test/support/offer-desk';
import type {SheetTouch} from './model';

/** One text per cell that tells contents apart ('' for an empty cell). */
type Grid = string[][];

function sheetOf(rt: Runtime, name: string): FakeSheet {
  const sheet = rt.spreadsheet.sheet(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  return sheet;
}

function contentKey(sheet: FakeSheet, row: number, column: number): string {
  const content = sheet.cellAt(row, column)?.content;
  if (!content) return '';
  switch (content.kind) {
    case 'text':
      return content.text === '' ? '' : `t${content.text}`;
    case 'formula':
      return `f${content.formula}`;
    default:
      return `${content.kind[0]}${String(content.value)}`;
  }
}

function grid(sheet: FakeSheet): Grid {
  const rows = sheet.lastRow();
  const columns = sheet.lastColumn();
  return Array.from({length: rows}, (_, r) =>
    Array.from({length: columns}, (_, c) => contentKey(sheet, r + 1, c + 1)),
  );
}

/** The used range of each named sheet; null for a sheet that does not exist. */
export function snapshotSheets(
  rt: Runtime,
  names: readonly string[],
): Map<string, Grid | null> {
  return new Map(
    names.map(name => {
      const sheet = rt.spreadsheet.sheet(name);
      return [name, sheet ? grid(sheet) : null];
    }),
  );
}

/** For each sheet: the cells and data rows it held before, and how many cells changed. */
export function sheetTouches(
  before: Map<string, Grid | null>,
  after: Map<string, Grid | null>,
): SheetTouch[] {
  return [...before.keys()].map(sheet => {
    const old = before.get(sheet) ?? [];
    const now = after.get(sheet) ?? [];
    const cellsBefore = old.length * (old[0]?.length ?? 0);
    const rows = Math.max(old.length, now.length);
    const columns = Math.max(old[0]?.length ?? 0, now[0]?.length ?? 0);
    let changedCells = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        if ((old[r]?.[c] ?? '') !== (now[r]?.[c] ?? '')) changedCells++;
      }
    }
    return {
      sheet,
      cellsBefore,
      rowsBefore: Math.max(0, old.length - 1),
      changedCells,
    };
  });
}

function cellValue(sheet: FakeSheet, row: number, column: number): unknown {
  const content = sheet.cellAt(row, column)?.content;
  if (!content) return '';
  if (content.kind === 'text') return content.text;
  if (content.kind === 'formula') return content.formula;
  return content.value;
}

function headersOf(sheet: FakeSheet): string[] {
  return Array.from({length: sheet.lastColumn()}, (_, c) =>
    String(cellValue(sheet, 1, c + 1)),
  );
}

/** Data rows as objects by header, with their 1-based sheet row. */
export function recordsOf(
  rt: Runtime,
  name: string,
): Array<{row: number; cells: Record<string, unknown>}> {
  const sheet = sheetOf(rt, name);
  const headers = headersOf(sheet);
  return Array.from({length: Math.max(0, sheet.lastRow() - 1)}, (_, i) => ({
    row: i + 2,
    cells: Object.fromEntries(
      headers.map((h, c) => [h, cellValue(sheet, i + 2, c + 1)]),
    ),
  }));
}

/** Types each text into its cell (1-based row, column found by header). */
export function typeCells(
  rt: Runtime,
  name: string,
  edits: ReadonlyArray<{row: number; header: string; text: string}>,
): void {
  const sheet = sheetOf(rt, name);
  const headers = headersOf(sheet);
  const lastRow = Math.max(0, ...edits.map(e => e.row));
  if (lastRow > sheet.getMaxRows()) {
    // A person adds the rows first when the sheet has none to spare.
    sheet.insertRowsAfter(sheet.getMaxRows(), lastRow - sheet.getMaxRows());
  }
  for (const {row, header, text} of edits) {
    const at = headers.indexOf(header);
    if (at < 0) throw new Error(`${name} has no column ${header}`);
    typeIntoCell(sheet, `${columnLetter(at)}${row}`, text);
  }
}

/** Types `rows` below the sheet's last row, one cell at a time. */
export function appendRows(
  rt: Runtime,
  name: string,
  rows: ReadonlyArray<Record<string, string>>,
): void {
  const first = sheetOf(rt, name).lastRow() + 1;
  typeCells(
    rt,
    name,
    rows.flatMap((cells, i) =>
      Object.entries(cells).map(([header, text]) => ({
        row: first + i,
        header,
        text,
      })),
    ),
  );
}
