/**
 * How much one Spreadsheet service call may carry (docs/limits.md, "one Spreadsheet call"). No
 * number is documented for SpreadsheetApp; these come from public measurements and limits:
 *
 * - CELLS_PER_CALL: one setValues of 4,000 cells takes under 50 ms (TOOLING.md), so 100,000
 *   cells are about a second and a quarter of service time: far inside the 6-minute run, and
 *   1% of the 10 million cells a spreadsheet may hold.
 * - CHARS_PER_CALL: Google recommends at most 2 MB a request to the Sheets API, which serves
 *   the same documents; a cell holds up to 50,000 characters, so 100,000 cells alone could
 *   carry gigabytes (the hidden state sheet's cells hold 40,000 each).
 *
 * A write's characters are counted before it is sent. A read's cannot be known before it
 * answers: its first call reads as many rows as would stay within the bound were every cell
 * full (at least one row), and each later call as many as the widest row read so far allows.
 */
import type {CellValue} from './ports';

export const CELLS_PER_CALL = 100_000;
export const CHARS_PER_CALL = 2_000_000;
/** The most a Sheets cell holds. */
const CELL_CHARS = 50_000;
/** A date (the only object a cell holds) as the service carries it: a timestamp. */
const DATE_CHARS = 24;

/** The characters a row of values carries. */
function rowChars(row: readonly unknown[]): number {
  let chars = 0;
  for (const value of row) {
    if (typeof value === 'string') chars += value.length;
    else if (typeof value === 'number' || typeof value === 'boolean')
      chars += String(value).length;
    else if (typeof value === 'object' && value !== null) chars += DATE_CHARS;
  }
  return chars;
}

/**
 * `values` cut into runs of whole rows, each within CELLS_PER_CALL and CHARS_PER_CALL (a row
 * alone past them is a run of its own): `first` is the run's first row, counted from 0.
 */
export function writeRuns<T extends CellValue | null>(
  values: T[][],
): Array<{first: number; rows: T[][]}> {
  const runs: Array<{first: number; rows: T[][]}> = [];
  const width = values[0]?.length ?? 0;
  let first = 0;
  let chars = 0;
  values.forEach((row, i) => {
    const size = rowChars(row);
    const cells = (i - first + 1) * width;
    if (
      i > first &&
      (cells > CELLS_PER_CALL || chars + size > CHARS_PER_CALL)
    ) {
      runs.push({first, rows: values.slice(first, i)});
      first = i;
      chars = 0;
    }
    chars += size;
  });
  if (values.length > 0) runs.push({first, rows: values.slice(first)});
  return runs;
}

/**
 * A block of `rows` by `columns` read in calls of whole rows within the bounds: `read(first,
 * count)` reads `count` rows from the block's row `first` (counted from 0). One call when the
 * block could not pass them even with every cell full. `cellChars`: the most one cell of
 * this read can carry (0: too little to count, as a number format).
 */
export function readInRuns<T>(
  rows: number,
  columns: number,
  read: (first: number, count: number) => T[][],
  cellChars = CELL_CHARS,
): T[][] {
  const cellRows = Math.max(1, Math.floor(CELLS_PER_CALL / columns));
  let widest = columns * cellChars;
  const out: T[][] = [];
  for (let first = 0; first < rows;) {
    const fit =
      widest === 0 ? rows : Math.max(1, Math.floor(CHARS_PER_CALL / widest));
    const count = Math.min(rows - first, cellRows, fit);
    const part = read(first, count);
    // From the first call on, the widest row read stands for the rows still to come.
    if (first === 0 && cellChars > 0) widest = 1;
    for (const row of part) {
      out.push(row);
      if (cellChars > 0) widest = Math.max(widest, rowChars(row));
    }
    first += count;
  }
  return out;
}
