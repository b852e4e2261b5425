/**
 * The cell codec: how an API value is written into a cell (`encode`), how a cell is read back
 * into a request value (`decode`), and the canonical text two cells are compared by
 * (`canonical`), so that an unedited cell always compares equal to what was pulled.
 *
 * Cell conventions (DESIGN 4.3): lists are comma-separated text; nested values are compact
 * JSON; timestamps are written as Dates (shown in the spreadsheet's time zone) and read from a
 * Date, Unix seconds, or text such as `2026-01-02`, `2026-01-02 13:30` (spreadsheet time zone)
 * or `2026-01-02T13:30:00Z`; `OPEN` stands for no limit where a column allows it. Text is
 * written so that it never becomes a formula (cell.ts).
 *
 * Decoding converts and normalises (trims, matches enumerations case-insensitively) but leaves
 * the API's rules to src/rules: a value outside an enumeration decodes as typed and the rules
 * word the refusal. Only a cell that cannot be read as its type at all is a problem here.
 */
import type {CellValue} from '../platform/ports';
import {
  UNPLACEABLE_DATE_PROBLEM,
  asShown,
  excerpt,
  sizeProblem,
} from '../rules/values';
import {isEmptyCell, isDate} from './cell';

export type ColumnType =
  'text' | 'yesno' | 'integer' | 'decimal' | 'timestamp' | 'list' | 'json';

/** What the codec needs to know of a column (a schema Column satisfies it). */
export interface CodecSpec {
  type: ColumnType;
  /** Enumerated values: input is matched case-insensitively and takes their spelling. */
  values?: readonly string[];
  /** The word OPEN (no limit) is accepted besides numbers. */
  open?: boolean;
  /** Items of a list: text (the default) or whole numbers. */
  items?: 'text' | 'integer';
  /** List items are upper-cased (geo codes). */
  upper?: boolean;
  /**
   * Text is lower-cased (an md5: the API lists it so, and its case means nothing), so a
   * read-back or a refresh compares it as sent.
   */
  lower?: boolean;
  /** The order of list items does not matter: compared sorted. */
  unordered?: boolean;
  /** A list is sent as comma-separated text rather than an array (target_geo). */
  joined?: boolean;
}

export interface CodecContext {
  /** Offset of the spreadsheet's time zone from UTC at that instant, in minutes. */
  utcOffsetMinutes(atMs: number): number;
}

/** For columns that hold no time (text, numbers, lists): no zone is needed to read them. */
export const NO_ZONE: CodecContext = {utcOffsetMinutes: () => 0};

export type Decoded = {ok: true; value: unknown} | {ok: false; problem: string};

export const OPEN = 'OPEN';

const NUMERIC = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** An API value as the cell to write: '' for nothing. */
export function encode(spec: CodecSpec, value: unknown): CellValue {
  if (value === undefined || value === null) return '';
  switch (spec.type) {
    case 'integer':
    case 'decimal':
      return encodeNumber(value);
    case 'timestamp':
      return encodeTimestamp(value);
    case 'list':
      return Array.isArray(value)
        ? value.map(itemText).join(',')
        : itemText(value);
    case 'json':
      return flat(compactJson(value));
    default:
      return itemText(value);
  }
}

/** A cell as the value a request carries; null for an empty cell. */
export function decode(
  spec: CodecSpec,
  cell: unknown,
  context: CodecContext,
): Decoded {
  if (isEmptyCell(cell)) return {ok: true, value: null};
  switch (spec.type) {
    case 'integer':
      return decodeNumber(spec, cell, true);
    case 'decimal':
      return decodeNumber(spec, cell, false);
    case 'timestamp':
      return decodeTimestamp(cell, context);
    case 'list':
      return decodeList(spec, cell);
    case 'json':
      return decodeJson(cell);
    case 'yesno':
      if (typeof cell === 'boolean')
        return {ok: true, value: cell ? 'YES' : 'NO'};
      return {ok: true, value: enumerated(spec, cellString(cell))};
    default: {
      const text = enumerated(spec, cellString(cell));
      return {ok: true, value: spec.lower ? text.toLowerCase() : text};
    }
  }
}

/**
 * The text two cells of a column are compared by: equal exactly when they decode to the same
 * request value. A cell that does not decode compares by its raw text.
 */
export function canonical(
  spec: CodecSpec,
  cell: unknown,
  context: CodecContext,
): string {
  return canonicalOf(spec, cell, decode(spec, cell, context));
}

/** The canonical text of a cell already decoded (`decoded` is decode's answer for `cell`). */
export function canonicalOf(
  spec: CodecSpec,
  cell: unknown,
  decoded: Decoded,
): string {
  if (!decoded.ok) return flat(`\u0000${cellString(cell)}`);
  return flat(
    JSON.stringify(spec.unordered ? sorted(decoded.value) : decoded.value),
  );
}

/**
 * `text` as one string. V8 gives a long JSON.stringify answer (or a `+`, a template) as a
 * rope of its parts, an object per part, until something reads a character of it; cells and
 * canonical texts a refresh keeps until the end of the job are made one string at once, which
 * holds about a third less (issue 37).
 */
export function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** The value a canonical text stands for (null for a cell that did not decode). */
export function fromCanonical(text: string): unknown {
  return text.startsWith('\u0000') ? null : JSON.parse(text);
}

/** A list in a fixed order: an array, or comma-separated text. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return [...(value as unknown[])].sort();
  return typeof value === 'string' ? value.split(',').sort().join(',') : value;
}

function itemText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function encodeNumber(value: unknown): CellValue {
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  const text = itemText(value).trim();
  if (NUMERIC.test(text)) return Number(text);
  return text;
}

function encodeTimestamp(value: unknown): CellValue {
  const text = itemText(value).trim();
  if (!/^\d+$/.test(text)) return text;
  const seconds = Number(text);
  // end_time 0 means "no end" (4.2): an empty cell says so better than 1970-01-01.
  return seconds === 0 ? '' : new Date(seconds * 1000);
}

/** Nested values as compact JSON; a JSON-encoded string (custom_ad_schedule) is unwrapped. */
function compactJson(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null
      ? JSON.stringify(parsed)
      : value;
  } catch {
    return value;
  }
}

function cellString(cell: unknown): string {
  // A Date Sheets cannot place on the calendar (Unix seconds typed into a date-formatted cell
  // are that many days) has no ISO text: it reads as the words JavaScript gives it.
  if (isDate(cell))
    return Number.isFinite(cell.getTime()) ? cell.toISOString() : String(cell);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return String(cell).trim();
}

function enumerated(spec: CodecSpec, text: string): string {
  const match = spec.values?.find(v => v.toUpperCase() === text.toUpperCase());
  return match ?? text;
}

function decodeNumber(spec: CodecSpec, cell: unknown, whole: boolean): Decoded {
  const text = cellString(cell);
  if (spec.open && text.toUpperCase() === OPEN) return {ok: true, value: OPEN};
  const value =
    typeof cell === 'number'
      ? asShown(cell)
      : NUMERIC.test(text)
        ? Number(text)
        : NaN;
  const kind = whole ? 'a whole number' : 'a number';
  const problem = `must be ${kind}${spec.open ? ' or OPEN' : ''} (not ${excerpt(text)})`;
  if (!Number.isFinite(value)) return {ok: false, problem};
  if (whole && !Number.isSafeInteger(value)) return {ok: false, problem};
  const tooLarge = whole ? undefined : sizeProblem(value, text);
  if (tooLarge) return {ok: false, problem: tooLarge};
  return {ok: true, value};
}

function decodeList(spec: CodecSpec, cell: unknown): Decoded {
  const items = cellString(cell)
    .split(',')
    .map(item => (spec.upper ? item.trim().toUpperCase() : item.trim()));
  if (items.includes('')) {
    return {
      ok: false,
      problem: `has an empty item between commas (${excerpt(cellString(cell))})`,
    };
  }
  if (spec.items === 'integer') {
    const bad = items.find(item => !/^[-+]?\d+$/.test(item));
    if (bad !== undefined) {
      return {
        ok: false,
        problem: `has ${excerpt(bad)}, which is not a whole number`,
      };
    }
    return {ok: true, value: items.map(Number)};
  }
  return {ok: true, value: spec.joined ? items.join(',') : items};
}

function decodeJson(cell: unknown): Decoded {
  if (typeof cell !== 'string') return {ok: true, value: cell};
  try {
    return {ok: true, value: JSON.parse(cell) as unknown};
  } catch {
    return {ok: false, problem: `is not valid JSON (${excerpt(cell)})`};
  }
}

const DATE_TEXT =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function decodeTimestamp(cell: unknown, context: CodecContext): Decoded {
  if (isDate(cell)) {
    const ms = cell.getTime();
    if (Number.isFinite(ms)) return {ok: true, value: Math.round(ms / 1000)};
    return {ok: false, problem: UNPLACEABLE_DATE_PROBLEM};
  }
  const text = cellString(cell);
  if (/^\d+$/.test(text)) return {ok: true, value: Number(text)};
  const match = DATE_TEXT.exec(text);
  const problem = `must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (not ${excerpt(text)})`;
  if (!match) return {ok: false, problem};
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = match;
  const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const valid = new Date(wall);
  if (valid.getUTCDate() !== +d || valid.getUTCMonth() !== +mo - 1 || +h > 23) {
    return {ok: false, problem};
  }
  const ms =
    zone === undefined
      ? fromWallTime(wall, context)
      : wall - zoneMinutes(zone) * 60000;
  if (
    zone === undefined &&
    ms + context.utcOffsetMinutes(ms) * 60000 !== wall
  ) {
    return {
      ok: false,
      problem: `names a time that does not exist in the spreadsheet's time zone (${excerpt(text)}: the clocks jump ahead over it): type a time after the jump, or Unix seconds`,
    };
  }
  return {ok: true, value: Math.round(ms / 1000)};
}

function zoneMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith('-') ? -minutes : minutes;
}

/**
 * The instant a wall-clock time in the spreadsheet's zone names (the offset settled twice).
 * A time the clocks repeat (autumn) is its first instant; one they skip (spring) names none,
 * which decodeTimestamp tells by the instant not reading back as that wall time.
 */
function fromWallTime(wall: number, context: CodecContext): number {
  const first = wall - context.utcOffsetMinutes(wall) * 60000;
  return wall - context.utcOffsetMinutes(first) * 60000;
}
