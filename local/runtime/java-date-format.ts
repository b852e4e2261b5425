import {
  DAY_NAMES,
  MONTH_NAMES,
  offsetMinutes,
  wallTime,
  weekday,
} from './time-zone';

/**
 * Java SimpleDateFormat, which Utilities.formatDate follows: letters repeat to set width, text in
 * single quotes is literal, '' is a quote. Covers y M d H h m s S E a Z X z u.
 */
export function formatJavaDate(
  ms: number,
  timeZone: string,
  pattern: string,
): string {
  const w = wallTime(ms, timeZone);
  const offset = offsetMinutes(ms, timeZone);
  let out = '';
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i];
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        out += "'";
        i += 2;
        continue;
      }
      if (end < 0)
        throw new Error(`Unterminated quote in date pattern: ${pattern}`);
      out += pattern.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    out += field(ch, n, w, offset, pattern);
    i += n;
  }
  return out;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function zone(offset: number, separator: string): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${sign}${pad(Math.floor(abs / 60), 2)}${separator}${pad(abs % 60, 2)}`;
}

function field(
  ch: string,
  n: number,
  w: ReturnType<typeof wallTime>,
  offset: number,
  pattern: string,
): string {
  switch (ch) {
    case 'y':
      return n === 2 ? pad(w.year % 100, 2) : pad(w.year, n);
    case 'M':
      if (n >= 4) return MONTH_NAMES[w.month - 1];
      if (n === 3) return MONTH_NAMES[w.month - 1].slice(0, 3);
      return pad(w.month, n);
    case 'd':
      return pad(w.day, n);
    case 'H':
      return pad(w.hour, n);
    case 'h':
      return pad(w.hour % 12 || 12, n);
    case 'm':
      return pad(w.minute, n);
    case 's':
      return pad(w.second, n);
    case 'S':
      return pad(w.millisecond, n);
    case 'E':
      return n >= 4 ? DAY_NAMES[weekday(w)] : DAY_NAMES[weekday(w)].slice(0, 3);
    case 'u':
      return String(weekday(w) || 7);
    case 'a':
      return w.hour < 12 ? 'AM' : 'PM';
    case 'Z':
      return zone(offset, '');
    case 'X':
      if (offset === 0) return 'Z';
      return n === 1
        ? zone(offset, '').slice(0, 3)
        : zone(offset, n === 2 ? '' : ':');
    case 'z':
      return offset === 0 ? 'GMT' : `GMT${zone(offset, ':')}`;
    default:
      throw new Error(`Illegal pattern character '${ch}' in ${pattern}`);
  }
}
