/**
 * The times a push is scheduled for (DESIGN 4.5): `at` and the optional `until`, Unix seconds,
 * checked before anything is read, so bad input schedules nothing and keeps every edit.
 */
import {ConfigError} from '../../api/errors';
import type {Workbook} from '../../platform/ports';
import {localTime} from '../host/schedule-health';

/** A change is scheduled at most this far ahead. */
const YEAR_MS = 366 * 24 * 3600_000;

/** When a scheduled push goes out and is put back, in ms; `until` NaN: never. */
export interface When {
  at: number;
  until: number;
}

const KEPT = 'Nothing was scheduled, and your edits are kept.';

function seconds(name: string, value: unknown): number {
  const n =
    typeof value === 'string' && value.trim() !== ''
      ? Number(value)
      : typeof value === 'number'
        ? value
        : NaN;
  if (!Number.isFinite(n)) {
    throw new ConfigError(
      `"${name}" must be a time in Unix seconds (e.g. 1767603600): ${JSON.stringify(value) ?? String(value)} is not. ${KEPT}`,
    );
  }
  return n * 1000;
}

/** The times asked for; undefined when neither is given (a push sends now). */
export function scheduledTimes(
  options: {at?: unknown; until?: unknown},
  nowMs: number,
  workbook: Workbook,
): When | undefined {
  if (options.at === undefined && options.until === undefined) return undefined;
  if (options.at === undefined) {
    throw new ConfigError(
      `A time to put a change back ("until") needs a time to send it ("at"). ${KEPT}`,
    );
  }
  const at = seconds('at', options.at);
  const until =
    options.until === undefined || options.until === null
      ? NaN
      : seconds('until', options.until);
  const shown = (ms: number) => zoned(workbook, ms);
  if (at <= nowMs) {
    throw new ConfigError(
      `The time to send (${shown(at)}) is not in the future (it is ${shown(nowMs)}). ${KEPT}`,
    );
  }
  const latest = Number.isNaN(until) ? at : until;
  if (latest > nowMs + YEAR_MS) {
    throw new ConfigError(
      `${shown(latest)} is more than a year ahead: a change is scheduled at most a year ahead. ${KEPT}`,
    );
  }
  if (!Number.isNaN(until) && until <= at) {
    throw new ConfigError(
      `The time to put it back (${shown(until)}) must come after the time to send it (${shown(at)}). ${KEPT}`,
    );
  }
  return {at, until};
}

/** '2026-01-05 10:00 (Europe/Paris)': a time as the spreadsheet's time zone shows it. */
export function zoned(workbook: Workbook, ms: number): string {
  return `${localTime(ms, workbook.utcOffsetMinutes(ms))} (${workbook.timeZone()})`;
}
