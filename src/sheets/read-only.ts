/**
 * What a row's read-only cells held when they were last written from the server, kept small:
 * a value typed into a read-only column (no operation of the API changes it) is then told to
 * the user at the next push or preview instead of being lost in silence at the next refresh.
 *
 * A print is one character per read-only column (6 bits of a hash of its text, to
 * name the column typed into) and a hash of them all (to notice a change even where a
 * column's character happens to stay): some 40 characters for an offer. Columns missing from
 * the sheet are not judged, nor emptied cells; a print made for another set of columns is
 * ignored.
 */
import {isEmptyCell} from './cell';
import {flat} from './codec';
import type {Column, SheetSchema} from './schema';

const DIGITS =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const COLUMNS = new WeakMap<object, ReadonlyArray<Column<never>>>();

/** The columns no push sends: not editable, and not the record id. */
export function readOnlyColumns<S>(
  schema: SheetSchema<S>,
): ReadonlyArray<Column<S>> {
  let columns = COLUMNS.get(schema);
  if (!columns) {
    columns = schema.columns.filter(
      c => !c.editable && c.header !== schema.id,
    ) as ReadonlyArray<Column<never>>;
    COLUMNS.set(schema, columns);
  }
  return columns as ReadonlyArray<Column<S>>;
}

/** The print of a row whose cells `cell` gives, by header. */
export function readOnlyPrint<S>(
  schema: SheetSchema<S>,
  cell: (header: string) => unknown,
): string {
  let digits = '';
  let whole = OFFSET;
  for (const column of readOnlyColumns(schema)) {
    const h = hash(cell(column.header));
    digits += DIGITS[h & 63];
    whole = Math.imul(whole ^ h, PRIME);
  }
  // Kept in the state for every record until the job ends: one string, not a rope.
  return flat(`${digits}:${(whole >>> 0).toString(36)}`);
}

/** A read-only cell that differs from its print. */
export interface ReadOnlyEdit {
  /** The column, or undefined when the print cannot tell which one. */
  header?: string;
  /** The cell as it is now. */
  value?: unknown;
}

/**
 * The read-only cells of a row that differ from `print` (empty: none); `present` tells which
 * headers the sheet has.
 */
export function readOnlyEdits<S>(
  schema: SheetSchema<S>,
  print: string | undefined,
  cell: (header: string) => unknown,
  present: (header: string) => boolean,
): ReadOnlyEdit[] {
  const columns = readOnlyColumns(schema);
  const [digits, whole] = (print ?? '').split(':');
  if (digits === undefined || digits.length !== columns.length) return [];
  const now = readOnlyPrint(schema, cell);
  if (now === print) return [];
  const changed = columns.filter(
    (c, k) => present(c.header) && now[k] !== digits[k],
  );
  const judged = columns.every(c => present(c.header));
  if (changed.length === 0)
    return judged && now.split(':')[1] !== whole ? [{}] : [];
  // An emptied cell loses nothing the user typed: the next refresh fills it again.
  return changed
    .filter(c => !isEmptyCell(cell(c.header)))
    .map(c => ({header: c.header, value: cell(c.header)}));
}

const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * FNV-1a, 32 bits, of a cell as the sheet gives it back (it reads back as written: strings go
 * out as plain text). Every row of every refresh and push is printed, so no codec runs here;
 * every character is read, so one character typed over inside a long JSON cell still shows.
 */
function hash(cell: unknown): number {
  if (typeof cell === 'number') return mix(mix(OFFSET, 1), cell * 1000) >>> 0;
  if (typeof cell === 'object' && cell !== null && 'getTime' in cell)
    return mix(mix(OFFSET, 2), (cell as Date).getTime()) >>> 0;
  const text = typeof cell === 'string' ? cell : String(cell ?? '');
  let h = mix(OFFSET, text.length);
  for (let i = 0; i < text.length; i++)
    h = Math.imul(h ^ text.charCodeAt(i), PRIME);
  return h >>> 0;
}

function mix(h: number, value: number): number {
  return Math.imul(h ^ (value | 0) ^ ((value / 4294967296) | 0), PRIME);
}
