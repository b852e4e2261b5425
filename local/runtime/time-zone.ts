/** Wall-clock time in a time zone, from Intl (no tz database of our own). */
export interface WallTime {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Zone offsets change on quarter-hour boundaries only, so one lookup serves a quarter hour. */
const QUARTER_HOUR_MS = 900000;
const offsetCache = new Map<string, Map<number, number>>();

/** Offset from UTC at instant `ms`, in minutes (east positive). */
export function offsetMinutes(ms: number, timeZone: string): number {
  let zone = offsetCache.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsetCache.set(timeZone, zone);
  }
  const bucket = Math.floor(ms / QUARTER_HOUR_MS);
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const at = bucket * QUARTER_HOUR_MS;
    const p: Record<string, number> = {};
    for (const part of formatter(timeZone).formatToParts(at)) {
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    }
    offset = Math.round(
      (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - at) /
        60000,
    );
    zone.set(bucket, offset);
  }
  return offset;
}

export function wallTime(ms: number, timeZone: string): WallTime {
  const d = new Date(ms + offsetMinutes(ms, timeZone) * 60000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

/** The instant a wall-clock time names in `timeZone` (the earlier one across a DST overlap). */
export function instantOf(w: WallTime, timeZone: string): number {
  const asUtc = Date.UTC(
    w.year,
    w.month - 1,
    w.day,
    w.hour,
    w.minute,
    w.second,
    w.millisecond,
  );
  const first = asUtc - offsetMinutes(asUtc, timeZone) * 60000;
  return asUtc - offsetMinutes(first, timeZone) * 60000;
}

/** Day of week, 0 = Sunday, of the wall-clock date. */
export function weekday(w: WallTime): number {
  return new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
}

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
];
