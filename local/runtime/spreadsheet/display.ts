import {DAY_NAMES, MONTH_NAMES} from '../time-zone';
import {
  Content,
  DATE_TIME_FORMAT,
  GENERAL_FORMAT,
  isDateFormat,
  PLAIN_TEXT,
} from './cell';
import {formulaResult, FormulaSheet} from './formula';
import {holdsDate, wallDateOf} from './serial';

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
      if (!format || format === GENERAL_FORMAT || format === PLAIN_TEXT) {
        return general(content.value);
      }
      if (isDateFormat(format)) {
        return holdsDate(content.value)
          ? formatDateSerial(content.value, format)
          : general(content.value);
      }
      return formatNumber(content.value, format);
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
    const [date, time] = DATE_TIME_FORMAT.split(' ');
    const parts = [
      /[yd]/i.test(bare) ? date : '',
      /[hs]/i.test(bare) ? time : '',
    ]
      .filter(Boolean)
      .join(' ');
    return formatDateSerial(n, parts || DATE_TIME_FORMAT);
  }
  if (bare.includes('%')) return `${general(n * 100)}%`;
  return general(n);
}

/** Sheets' automatic format: up to 10 significant digits, scientific when huge or tiny. */
function general(n: number): string {
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

/** Patterns such as '0', '0.00', '#,##0.00', '0%', '"$"#,##0.00' (first section only). */
function formatNumber(n: number, format: string): string {
  const section = format.split(';')[0];
  const m =
    /^((?:"[^"]*"|[^#0.,%])*)([#0,]*)(?:\.([#0]*))?(%?)((?:"[^"]*"|.)*)$/.exec(
      section,
    );
  if (!m) return general(n);
  const [, prefix, integer, fraction = '', percent, suffix] = m;
  const value = Math.abs(percent ? n * 100 : n);
  const maxDecimals = fraction.length;
  const minDecimals = fraction.replace(/#/g, '').length;
  let [whole, decimals = ''] = value.toFixed(maxDecimals).split('.');
  while (decimals.length > minDecimals && decimals.endsWith('0'))
    decimals = decimals.slice(0, -1);
  const minInteger = (integer.match(/0/g) ?? []).length;
  if (minInteger === 0 && whole === '0') whole = '';
  whole = whole.padStart(minInteger, '0');
  if (integer.includes(','))
    whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const unquote = (s: string) => s.replace(/"([^"]*)"/g, '$1');
  const sign = n < 0 && Number(value.toFixed(maxDecimals)) !== 0 ? '-' : '';
  return `${sign}${unquote(prefix)}${whole}${decimals ? `.${decimals}` : ''}${percent}${unquote(suffix)}`;
}

type DateToken = {literal: string} | {code: string};

const tokenCache = new Map<string, DateToken[]>();

function tokenize(format: string): DateToken[] {
  const cached = tokenCache.get(format);
  if (cached) return cached;
  const tokens: DateToken[] = [];
  const re = /"([^"]*)"|\\(.)|(am\/pm|a\/p)|(y+|m+|d+|h+|s+)|(\.0+)|(.)/gi;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    const code = m[3] ?? m[4] ?? m[5];
    if (code) tokens.push({code: code.toLowerCase()});
    else tokens.push({literal: m[1] ?? m[2] ?? m[6]});
  }
  tokenCache.set(format, tokens);
  return tokens;
}

/** Date and time patterns: y, m (month, or minutes next to h or s), d, h, s, am/pm, .000 */
function formatDateSerial(serial: number, format: string): string {
  const d = wallDateOf(serial);
  const tokens = tokenize(format);
  const codes = tokens.map(t => ('code' in t ? t.code : ''));
  const twelveHour = codes.some(c => c === 'am/pm' || c === 'a/p');
  const isMinute = (i: number): boolean => {
    const before = codes.slice(0, i).filter(Boolean).pop();
    const after = codes.slice(i + 1).find(Boolean);
    return before?.startsWith('h') === true || after?.startsWith('s') === true;
  };
  const pad = (v: number, width: number) => String(v).padStart(width, '0');
  return tokens
    .map((t, i) => {
      if ('literal' in t) return t.literal;
      const c = t.code;
      const hour = d.getUTCHours();
      switch (c[0]) {
        case 'y':
          return c.length <= 2
            ? pad(d.getUTCFullYear() % 100, 2)
            : String(d.getUTCFullYear());
        case 'm':
          if (c.length <= 2 && isMinute(i))
            return pad(d.getUTCMinutes(), c.length);
          if (c.length >= 4) return MONTH_NAMES[d.getUTCMonth()];
          if (c.length === 3) return MONTH_NAMES[d.getUTCMonth()].slice(0, 3);
          return pad(d.getUTCMonth() + 1, c.length);
        case 'd':
          if (c.length >= 4) return DAY_NAMES[d.getUTCDay()];
          if (c.length === 3) return DAY_NAMES[d.getUTCDay()].slice(0, 3);
          return pad(d.getUTCDate(), c.length);
        case 'h':
          return pad(
            twelveHour ? hour % 12 || 12 : hour,
            Math.min(c.length, 2),
          );
        case 's':
          return pad(d.getUTCSeconds(), Math.min(c.length, 2));
        case '.':
          return `.${pad(d.getUTCMilliseconds(), 3).slice(0, c.length - 1)}`;
        default:
          return c === 'a/p'
            ? hour < 12
              ? 'A'
              : 'P'
            : hour < 12
              ? 'AM'
              : 'PM';
      }
    })
    .join('');
}
