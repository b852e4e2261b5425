/**
 * Facts about single cell values that every part of the sheets layer shares: what counts as
 * empty, how a Date is recognised across realms, and how text is kept from being parsed.
 */
import type {CellValue} from '../platform/ports';

/** A Date from any realm: values read through the Apps Script runtime fail `instanceof`. */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** What Sheets shows in a cell whose formula fails. */
const FORMULA_ERROR =
  /^#(REF!|N\/A|VALUE!|DIV\/0!|NAME\?|NUM!|NULL!|ERROR!|SPILL!|CALC!)$/;

/** Whether a cell shows what Sheets shows for a formula that fails (#REF!, #N/A, …). */
export function showsFormulaError(value: unknown): value is string {
  return typeof value === 'string' && FORMULA_ERROR.test(value);
}

/** Nothing typed, or only spaces. */
export function isEmptyCell(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '')
  );
}

/**
 * The entry that keeps text as text in a cell that is not formatted as plain text: setValues
 * parses a string as typed input ('=1+1' a formula, '007' the number 7, 'TRUE' a boolean)
 * unless an apostrophe marks it as text; the apostrophe is not part of the stored value.
 */
export function markedAsText(text: string): string {
  return `'${text}`;
}

/**
 * Whether Sheets keeps this string as text whatever the cell's format: it starts with a
 * letter, and is neither a boolean nor a date that starts with a month or a day's name
 * ("Jan 5"). Such text needs no apostrophe and no look at the cell's format; anything else
 * (a digit, a sign, '=', a currency, a date) might be parsed, and is written knowing the format.
 */
export function readsAsText(text: string): boolean {
  return (
    /^\p{L}/u.test(text) &&
    !/^\s*(true|false)\s*$/i.test(text) &&
    !/^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?[\s,]*\d/i.test(
      text,
    )
  );
}

/** Whether two cells hold the same value (Dates by instant). */
export function sameCell(a: CellValue, b: CellValue): boolean {
  if (isDate(a) || isDate(b)) {
    return isDate(a) && isDate(b) && a.getTime() === b.getTime();
  }
  return a === b;
}
