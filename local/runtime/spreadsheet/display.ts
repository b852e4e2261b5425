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

/**
 * What Sheets' formula bar shows for a cell (for the playground): the value itself, not its
 * display: a formula as typed, a number without its format's padding ('10012' where the cell
 * shows '10012.00'), a percentage as one, a date or time in the locale's form (en_US), which
 * typed back gives the same value.
 */
export function formulaBarText(
  content: Content | undefined,
  format: string | undefined,
): string {
  if (content?.kind !== 'number') {
    if (content?.kind === 'formula') return content.formula;
    return displayValue(content, format);
  }
  const n = content.value;
  /** The format's codes, without its quoted and escaped literals. */
  const bare = (format ?? '').split(';')[0].replace(/"[^"]*"|\\./g, '');
  if (isDateFormat(format) && holdsDate(n)) {
    const date = /[yd]/i.test(bare) ? 'm/d/yyyy' : '';
    const time = /[hs]/i.test(bare) ? 'h:mm:ss' : '';
    return formatted(
      n,
      [date, time].filter(Boolean).join(' ') || 'm/d/yyyy h:mm:ss',
    );
  }
  if (bare.includes('%')) return `${barNumber(n * 100)}%`;
  return barNumber(n);
}

/** The formula bar's number: up to 10 significant digits, scientific when huge or tiny. */
function barNumber(n: number): string {
  const abs = Math.abs(n);
  if (Number.isInteger(n) && abs < 1e15) return String(n);
  if (abs >= 1e15 || (abs !== 0 && abs < 1e-9)) {
    return n
      .toExponential(5)
      .toUpperCase()
      .replace(/\.?0+E/, 'E');
  }
  return String(Number(n.toPrecision(10)));
}
