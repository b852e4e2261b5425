/**
 * Cells as setValues takes them. Text stays text: setValues parses a string as typed input
 * unless its cell is plain text, so text goes as it is into a plain-text cell, and text Sheets
 * might parse is marked with an apostrophe in any other; every text is bounded to what a cell
 * takes.
 */
import {valueChars} from '../platform/blocks';
import type {CellValue} from '../platform/ports';
import {markedAsText, readsAsText} from './cell';
import {TEXT_FORMAT} from './schema';
import {Contents, Formula, Table} from './table';
import {clipped} from '../text/wording';

/**
 * The longest text written to a cell. Sheets refuses a cell of more than 50,000 characters
 * (and the whole setValues with it); a text from a server is cut well before, with a note.
 */
export const MAX_CELL_TEXT = 45000;

/** A text cut to what a cell takes, saying how much was left out. */
export function bounded(text: string): string {
  return clipped(text, MAX_CELL_TEXT);
}

/** The block at sheet row `top`, column `left` (0-based) of `table`, as setValues takes it. */
export function cellEntries<S>(
  table: Table<S>,
  top: number,
  left: number,
  block: Contents[][],
): CellValue[][] {
  const plain = plainTextCells(table, top, left, block);
  return block.map((r, i) =>
    r.map((c, k) => {
      if (c instanceof Formula) return c.text;
      if (typeof c !== 'string' || c === '') return c;
      const text = bounded(c);
      return readsAsText(text) || plain(i, k) ? text : markedAsText(text);
    }),
  );
}

/**
 * The most characters the entry of `contents` carries (cellEntries may mark a text with an
 * apostrophe), to size a call before its entries are made.
 */
export function entryChars(contents: Contents): number {
  if (contents instanceof Formula) return contents.text.length;
  return valueChars(contents) + (typeof contents === 'string' ? 1 : 0);
}

/**
 * Whether cell (i, k) of the block is plain text: known for a sheet this job created;
 * otherwise the formats of the cells that get text Sheets might parse are read, in one call.
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
      if (typeof c !== 'string' || c === '' || readsAsText(c)) return;
      if (first < 0) first = i;
      last = i;
      from = Math.min(from, k);
      to = Math.max(to, k);
    }),
  );
  if (first < 0) return () => false;
  const formats = table.sheet.readNumberFormats(
    top + first,
    left + from + 1,
    last - first + 1,
    to - from + 1,
  );
  return (i, k) => formats[i - first]?.[k - from] === TEXT_FORMAT;
}
