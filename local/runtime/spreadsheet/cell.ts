import {types} from 'node:util';
import {Realm} from '../realm';
import {
  holdsDate,
  instantFromSerial,
  serialFromInstant,
  serialOf,
} from './serial';
import {formulaResult, FormulaSheet, PARSE_ERROR} from './formula';

/**
 * What a cell holds. Dates are numbers (day serials), as in Sheets: the number format decides
 * whether a read gives a Date or a number.
 */
export type Content =
  | {kind: 'text'; text: string}
  | {kind: 'number'; value: number}
  | {kind: 'boolean'; value: boolean}
  | {kind: 'formula'; formula: string};

/** Plain-text number format: what is written stays text. */
export const PLAIN_TEXT = '@';
/** What Apps Script reports as the number format of a cell never formatted. */
export const GENERAL_FORMAT = '0.###############';
/** What Sheets gives a cell a Date was written to, when it had no format. */
export const DATE_TIME_FORMAT = 'M/d/yyyy H:mm:ss';
/** What a formula that does not parse reads as, as in Sheets. */
export const FORMULA_RESULT = PARSE_ERROR;

export const MAX_CELL_CHARS = 50000;

/** A parsed entry: the content and the number format Sheets infers from how it was typed. */
export interface Entry {
  content: Content | undefined;
  format?: string;
}

/** True for date and time formats ('yyyy-mm-dd', 'M/d/yyyy H:mm:ss', 'hh:mm'). */
export function isDateFormat(format: string | undefined): boolean {
  if (!format || format === PLAIN_TEXT) return false;
  return /[ymdhs]/i.test(format.replace(/"[^"]*"|\\./g, ''));
}

const NUMBER =
  /^([+-]?)(\$?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?(%?)$/;
const ISO_DATE =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;
const US_DATE =
  /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/;

function numberEntry(text: string): Entry | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const [, sign, dollar, digits, exponent, percent] = m;
  const magnitude = Number(
    digits.replace(/,/g, '') + (exponent ? `e${exponent}` : ''),
  );
  const value = (sign === '-' ? -magnitude : magnitude) / (percent ? 100 : 1);
  const decimals = digits.includes('.') && !/\.$/.test(digits) ? '.00' : '';
  let format: string | undefined;
  if (percent) format = `0${decimals}%`;
  else if (dollar) format = '"$"#,##0.00';
  else if (exponent) format = '0.00E+00';
  else if (digits.includes(',')) format = `#,##0${decimals}`;
  return {content: {kind: 'number', value}, format};
}

function hour24(
  hour: number,
  meridiem: string | undefined,
): number | undefined {
  if (!meridiem) return hour < 24 ? hour : undefined;
  if (hour < 1 || hour > 12) return undefined;
  return (hour % 12) + (/p/i.test(meridiem) ? 12 : 0);
}

function dateEntry(
  y: number,
  mo: number,
  d: number,
  h: number | undefined,
  mi: number,
  s: number,
  ms: number,
  format: string,
): Entry | undefined {
  const valid =
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() &&
    h !== undefined &&
    mi < 60 &&
    s < 60;
  if (!valid) return undefined;
  return {
    content: {kind: 'number', value: serialOf(y, mo, d, h, mi, s, ms)},
    format,
  };
}

function dateTimeEntry(text: string): Entry | undefined {
  let m = ISO_DATE.exec(text);
  if (m) {
    const timed = m[4] !== undefined;
    return dateEntry(
      +m[1],
      +m[2],
      +m[3],
      timed ? hour24(+m[4], undefined) : 0,
      +(m[5] ?? 0),
      +(m[6] ?? 0),
      +(m[7] ?? '0').padEnd(3, '0'),
      timed ? 'yyyy-mm-dd h:mm:ss' : 'yyyy-mm-dd',
    );
  }
  m = US_DATE.exec(text);
  if (m) {
    const year = m[3].length === 2 ? 2000 + +m[3] : +m[3];
    const timed = m[4] !== undefined;
    return dateEntry(
      year,
      +m[1],
      +m[2],
      timed ? hour24(+m[4], m[7]) : 0,
      +(m[5] ?? 0),
      +(m[6] ?? 0),
      0,
      timed ? DATE_TIME_FORMAT : 'M/d/yyyy',
    );
  }
  m = TIME.exec(text);
  if (m) {
    return dateEntry(
      1899,
      12,
      30,
      hour24(+m[1], m[4]),
      +m[2],
      +(m[3] ?? 0),
      0,
      'h:mm:ss',
    );
  }
  return undefined;
}

/**
 * What Sheets makes of text entered into a cell, by a person typing or by a script's setValue
 * (both are parsed as typed input): '=...' is a formula, a leading apostrophe forces text,
 * '111,112' is the number 111112, 'TRUE' a boolean, '2026-01-02' a date; a cell formatted as
 * plain text ('@') keeps everything as text.
 */
export function parseEntry(text: string, format: string | undefined): Entry {
  if (text === '') return {content: undefined};
  if (format === PLAIN_TEXT) return {content: {kind: 'text', text}};
  if (text.startsWith("'"))
    return {content: {kind: 'text', text: text.slice(1)}};
  if (text.startsWith('=') && text.length > 1) {
    return {content: {kind: 'formula', formula: text}};
  }
  const trimmed = text.trim();
  if (/^(true|false)$/i.test(trimmed)) {
    return {
      content: {kind: 'boolean', value: trimmed.toLowerCase() === 'true'},
    };
  }
  return (
    numberEntry(trimmed) ??
    dateTimeEntry(trimmed) ?? {content: {kind: 'text', text}}
  );
}

/** What a value passed to setValue/setValues becomes. */
export function entryFromScript(
  value: unknown,
  format: string | undefined,
  timeZone: string,
): Entry {
  if (value === null || value === undefined) return {content: undefined};
  if (typeof value === 'string') return parseEntry(value, format);
  if (typeof value === 'boolean') return {content: {kind: 'boolean', value}};
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? {content: {kind: 'number', value}}
      : {content: {kind: 'text', text: String(value)}};
  }
  if (types.isDate(value) && !Number.isNaN(value.getTime())) {
    return {
      content: {
        kind: 'number',
        value: serialFromInstant(value.getTime(), timeZone),
      },
      format: DATE_TIME_FORMAT,
    };
  }
  return {content: {kind: 'text', text: String(value)}};
}

/**
 * What getValue/getValues return for a cell; a formula's result is read through the cell's
 * format as typed content would be (a number in a date cell is a Date). `sheet` is where the
 * formula's references point.
 */
export function scriptValue(
  realm: Realm,
  content: Content | undefined,
  format: string | undefined,
  timeZone: string,
  sheet?: FormulaSheet,
): unknown {
  if (!content) return '';
  switch (content.kind) {
    case 'text':
      return content.text;
    case 'boolean':
      return content.value;
    case 'formula':
      return scriptValue(
        realm,
        formulaResult(content.formula, sheet),
        format,
        timeZone,
      );
    case 'number':
      return isDateFormat(format)
        ? dateOrNumber(realm, content.value, timeZone)
        : content.value;
  }
}

/**
 * A date-formatted number as a Date; a serial past any date a Date can hold (Unix seconds typed
 * into a date cell are some 5 million years of days) stays the number: what Apps Script gives
 * for it is not documented, and a crash in getValues is the one answer it surely does not give.
 */
function dateOrNumber(realm: Realm, serial: number, timeZone: string): unknown {
  return holdsDate(serial)
    ? realm.date(instantFromSerial(serial, timeZone))
    : serial;
}

/** The characters a content holds, for the 50,000-per-cell limit. */
export function contentLength(content: Content | undefined): number {
  if (!content) return 0;
  if (content.kind === 'text') return content.text.length;
  return content.kind === 'formula' ? content.formula.length : 0;
}
