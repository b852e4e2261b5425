import {instantOf, wallTime} from '../time-zone';

/** Sheets keeps dates as days since 1899-12-30 in the spreadsheet's wall-clock time. */
const EPOCH_UTC = Date.UTC(1899, 11, 30);
const DAY_MS = 86400000;

export function serialFromInstant(ms: number, timeZone: string): number {
  const w = wallTime(ms, timeZone);
  const wallMs = Date.UTC(
    w.year,
    w.month - 1,
    w.day,
    w.hour,
    w.minute,
    w.second,
    w.millisecond,
  );
  return (wallMs - EPOCH_UTC) / DAY_MS;
}

/** The largest distance from 1970 a JavaScript Date holds, in ms. */
const MAX_DATE_MS = 8.64e15;

/** Whether a Date can hold the day serial, with a day to spare for any time zone. */
export function holdsDate(serial: number): boolean {
  return Math.abs(EPOCH_UTC + serial * DAY_MS) < MAX_DATE_MS - DAY_MS;
}

export function instantFromSerial(serial: number, timeZone: string): number {
  const wall = new Date(Math.round(EPOCH_UTC + serial * DAY_MS));
  return instantOf(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
      millisecond: wall.getUTCMilliseconds(),
    },
    timeZone,
  );
}

/** The serial of a wall-clock date and time given by its parts. */
export function serialOf(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number {
  return (
    (Date.UTC(year, month - 1, day, hour, minute, second, ms) - EPOCH_UTC) /
    DAY_MS
  );
}
