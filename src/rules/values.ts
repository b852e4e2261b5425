/**
 * Readers for row values as the rules receive them: decoded by the sheet's codec where the
 * cell could be read as its column's type (numbers, Unix seconds, lists as arrays, JSON as
 * objects), or the cell as typed where it could not. Either way a reader answers the parsed
 * value or undefined, never throws, so the rules word every failure themselves.
 */

/** Nothing given: an empty cell (null), only spaces, or an empty list. */
export function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** The text of a value, trimmed; a number as JavaScript writes it, a list comma-joined. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value).trim();
}

/**
 * A date-formatted cell holding a number too large for a calendar: Sheets reads a number typed
 * there as days, so Unix seconds become a date millions of years away, which reads as an
 * invalid Date and cannot be turned back into the number typed. Only the user can: as plain
 * text the digits stay digits.
 */
export function isUnplaceableDate(value: unknown): boolean {
  return (
    Object.prototype.toString.call(value) === '[object Date]' &&
    !Number.isFinite((value as Date).getTime())
  );
}

/** What is wrong with such a cell, after the field's name. */
export const UNPLACEABLE_DATE_PROBLEM =
  'is formatted as a date, so Sheets read the number typed as days (a date millions of years away): format the cell as plain text (Format > Number > Plain text) and type the Unix seconds again, or type a date';

/** Characters of a cell a message quotes at most. */
export const EXCERPT_LENGTH = 40;

/**
 * A cell as a message quotes it: in double quotes, cut to a short excerpt with its full length
 * said, so that no message grows with what was typed (a cell holds up to 50,000 characters).
 */
export function excerpt(value: unknown, quoted = true): string {
  const text = textOf(value);
  const quote = quoted ? '"' : '';
  if (text.length <= EXCERPT_LENGTH) return `${quote}${text}${quote}`;
  return `${quote}${text.slice(0, EXCERPT_LENGTH - 3)}...${quote} (${text.length} characters)`;
}

/**
 * The longest text any field of the API takes (a campaign's description, 4000 characters,
 * part 8). A field whose limit is not shown takes no more: a longer cell is a paste gone wrong,
 * refused by its length rather than sent.
 */
export const LONGEST_TEXT = 4000;

/** The problem of a cell longer than `max` characters, naming the field; undefined if none. */
export function lengthProblem(
  field: string,
  value: unknown,
  max = LONGEST_TEXT,
): string | undefined {
  const length = textOf(value).length;
  if (length <= max) return undefined;
  return `${field} may have ${max} characters at most (it has ${length}: ${excerpt(value)})`;
}

const NUMERIC = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

export interface ParsedNumber {
  value: number;
  /** Decimal places as typed: '1.50' has two. */
  decimals: number;
}

/**
 * Significant digits Sheets shows of a number at most. A formula's binary rounding noise
 * (`=D2*1.1` gives 110.00000000000001) lies beyond them: the user sees 110 and means 110.
 */
const SHOWN_DIGITS = 15;

/**
 * A number as the user sees it in the sheet: rounding noise past 15 significant digits
 * dropped. A whole number has no noise and is kept as it is (ids may have 16 digits or more).
 */
export function asShown(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  return Number(value.toPrecision(SHOWN_DIGITS));
}

/**
 * Digits before the decimal point a sent amount may have. JSON numbers are doubles: past 15
 * digits the value sent is no longer the one typed (123456789012345678901 goes out as
 * 123456789012345680000), and the API's amounts (ints, three decimals) are nowhere near.
 */
export const MAX_WHOLE_DIGITS = 15;

/** The problem of an amount too large to send as typed, after the field's name; else undefined. */
export function sizeProblem(value: number, typed: unknown): string | undefined {
  if (Math.abs(value) < 10 ** MAX_WHOLE_DIGITS) return undefined;
  return `is too large to send as typed: at most ${MAX_WHOLE_DIGITS} digits before the decimal point (got ${excerpt(typed)})`;
}

/**
 * A number typed in a number cell or as numeric text; undefined for anything else. A number
 * cell is read as shown (asShown): its decimals are counted, and its value sent, without the
 * noise a formula leaves.
 */
export function parseNumber(value: unknown): ParsedNumber | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const shown = asShown(value);
    return {value: shown, decimals: decimalPlaces(String(shown))};
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!NUMERIC.test(text)) return undefined;
  return {value: Number(text), decimals: decimalPlaces(text)};
}

/** A whole number (cell or text); undefined for anything else, fractions included. */
export function parseInteger(value: unknown): number | undefined {
  const parsed = parseNumber(value);
  if (!parsed || !Number.isSafeInteger(parsed.value)) return undefined;
  return parsed.value;
}

function decimalPlaces(text: string): number {
  const match = /^[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!match) return 0;
  const fraction = (match[1] ?? '').length;
  return Math.max(0, fraction - Number(match[2] ?? 0));
}

/**
 * Items of a list (an array, or comma-separated text), each trimmed. Empty items are kept (as
 * '') so that a rule can say `US,,GB` has an empty item instead of quietly dropping it.
 */
export function parseList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(item => String(item).trim());
  const text = textOf(value);
  return text === '' ? [] : text.split(',').map(item => item.trim());
}

export type Json = {ok: true; value: unknown} | {ok: false};

/** A nested value: already parsed, or JSON text. */
export function parseJson(value: unknown): Json {
  if (typeof value === 'object' && value !== null) return {ok: true, value};
  try {
    return {ok: true, value: JSON.parse(textOf(value))};
  } catch {
    return {ok: false};
  }
}

export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
