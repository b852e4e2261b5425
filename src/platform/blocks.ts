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
 * answers: its first call reads as many rows as the cell bound allows, and each later call as
 * many as the widest row read so far allows. A read in several calls is not one state of the
 * document: a person who sorts, inserts or deletes rows between two calls makes it hold a row
 * twice and miss another. So a block within the cell bound is read in one call, whatever its
 * characters; only a block whose cells are known to be big (the hidden state sheet's chunks,
 * which no person edits) has its first call sized by what they hold.
 */
import type {CellValue} from './ports';

export const CELLS_PER_CALL = 100_000;
export const CHARS_PER_CALL = 2_000_000;
/** A date (the only object a cell holds) as the service carries it: a timestamp. */
const DATE_CHARS = 24;

/** The characters a value carries to the service. */
export function valueChars(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value).length;
  return typeof value === 'object' && value !== null ? DATE_CHARS : 0;
}

/** The characters a row of values carries. */
function rowChars(row: readonly unknown[]): number {
  let chars = 0;
  for (const value of row) chars += valueChars(value);
  return chars;
}

/**
 * `rows` rows of `width` cells cut into runs of whole rows, each within CELLS_PER_CALL and
 * CHARS_PER_CALL (a row alone past them is a run of its own): [first row, count], counted from
 * 0. `chars(i)`: the characters row i carries.
 */
export function rowRuns(
  rows: number,
  width: number,
  chars: (row: number) => number,
): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let first = 0;
  let held = 0;
  for (let i = 0; i < rows; i++) {
    const size = chars(i);
    const cells = (i - first + 1) * width;
    if (i > first && (cells > CELLS_PER_CALL || held + size > CHARS_PER_CALL)) {
      runs.push([first, i - first]);
      first = i;
      held = 0;
    }
    held += size;
  }
  if (rows > 0) runs.push([first, rows - first]);
  return runs;
}

/**
 * `values` cut into runs of whole rows, each within the bounds of one call (rowRuns): `first`
 * is the run's first row, counted from 0.
 */
export function writeRuns<T extends CellValue | null>(
  values: T[][],
): Array<{first: number; rows: T[][]}> {
  return rowRuns(values.length, values[0]?.length ?? 0, i =>
    rowChars(values[i]),
  ).map(([first, count]) => ({
    first,
    rows: values.slice(first, first + count),
  }));
}

/**
 * A block of `rows` by `columns` read in calls of whole rows within the bounds: `read(first,
 * count)` reads `count` rows from the block's row `first` (counted from 0). `cellChars`: the
 * characters every cell of the block may hold, known before it is read: the first call is
 * sized by it (0: by the cell bound alone). `countChars` false: a cell carries too little to
 * count (a number format), so only the cell bound sizes the calls.
 */
export function readInRuns<T>(
  rows: number,
  columns: number,
  read: (first: number, count: number) => T[][],
  {cellChars = 0, countChars = true} = {},
): T[][] {
  const held = heldOnce();
  const cellRows = Math.max(1, Math.floor(CELLS_PER_CALL / columns));
  let widest = columns * cellChars;
  const out: T[][] = [];
  for (let first = 0; first < rows;) {
    const fit =
      widest === 0 ? rows : Math.max(1, Math.floor(CHARS_PER_CALL / widest));
    const count = Math.min(rows - first, cellRows, fit);
    const part = read(first, count);
    // From the first call on, the widest row read stands for the rows still to come.
    if (first === 0 && countChars) widest = 1;
    for (const row of part) {
      held(row as unknown[]);
      out.push(row);
      if (countChars) widest = Math.max(widest, rowChars(row));
    }
    first += count;
  }
  return out;
}

/** The longest text held once: longer ones are rarely repeated. */
const HELD_ONCE_LENGTH = 200;

/**
 * Distinct values a column adds to the texts and moments held before it is judged: one whose
 * values then repeat less than once each (a uuid, a URL, a name) adds no more.
 */
const HELD_ONCE_TRIAL = 1000;

/**
 * What makes each repeated text and moment of the rows it is given one string or Date, in
 * place, call after call of a read: the service answers a string or a Date per cell, and a
 * large sheet repeats a few values (statuses, geos, the JSON of a default, a start date, a
 * number format) down most of its rows. Issue 37: duplicates were half the strings a refresh
 * of 3,100 offers held, and a read of 31,000 rows held all of them until its last call. A
 * column of values that do not repeat stops adding them (HELD_ONCE_TRIAL): holding every
 * value of 31,000 rows was a map of 7 MB at a refresh's peak, for nothing.
 */
function heldOnce(): (row: unknown[]) => void {
  const texts = new Map<string, string>();
  const moments = new Map<number, Date>();
  const added: number[] = [];
  const hits: number[] = [];
  const hold = <K, V>(held: Map<K, V>, key: K, value: V, c: number): V => {
    const same = held.get(key);
    if (same !== undefined) {
      hits[c] = (hits[c] ?? 0) + 1;
      return same;
    }
    const count = added[c] ?? 0;
    if (count < HELD_ONCE_TRIAL || (hits[c] ?? 0) >= count) {
      held.set(key, value);
      added[c] = count + 1;
    }
    return value;
  };
  return row => {
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      // Dates of another realm too (the runtime's): their class is told by their tag.
      if (Object.prototype.toString.call(cell) === '[object Date]') {
        row[c] = hold(moments, (cell as Date).getTime(), cell as Date, c);
      } else if (typeof cell === 'string' && cell.length <= HELD_ONCE_LENGTH) {
        row[c] = hold(texts, cell, cell, c);
      }
    }
  };
}
