import * as SSF from 'ssf';
import {Content, isDateFormat, PLAIN_TEXT} from './cell';
import {formulaResult, FormulaSheet} from './formula';
import {holdsDate} from './serial';

/**
 * What getDisplayValue shows for a cell: its value through its number format. `sheet` is where
 * a formula's references point.
 */
export function displayValue(
  content: Content | undefined,
  format: string | undefined,
  sheet?: FormulaSheet,
): string {
  if (!content) return '';
  switch (content.kind) {
    case 'text':
      return content.text;
    case 'boolean':
      return content.value ? 'TRUE' : 'FALSE';
    case 'formula':
      return displayValue(formulaResult(content.formula, sheet), format);
    case 'number':
      if (!format || format === PLAIN_TEXT) return automatic(content.value);
      // A date format over a number no Date can hold (Unix seconds typed in) shows the number.
      if (isDateFormat(format) && !holdsDate(content.value)) {
        return automatic(content.value);
      }
      return formatted(content.value, format);
  }
}

/**
 * Sheets' automatic format, what a cell never formatted shows: whole numbers below 10^15 in
 * full (Excel's General, which ssf implements, cuts at 11 characters: Sheets does not), any
 * other number as General.
 */
function automatic(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e15
    ? String(n)
    : formatted(n, 'General');
}

/**
 * A number through a format of the spreadsheet format language, rendered by SheetJS's ssf.
 * '0.###############' (what Apps Script reports for a cell never formatted) set explicitly is
 * what it says (`5` shows as `5.`, as in Sheets); only a cell never formatted is automatic.
 */
function formatted(n: number, format: string): string {
  try {
    return SSF.format(format, n);
  } catch (e) {
    throw new Error(
      `The runtime cannot show number format "${format}" (ssf: ${e instanceof Error ? e.message : String(e)})`,
    );
  }
}
