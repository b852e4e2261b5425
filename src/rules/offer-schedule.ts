/**
 * The schedule rules of 4.2: start_time and end_time (Unix seconds, as the codec reads a date,
 * a date and time or the seconds typed) and custom_ad_schedule.
 */
import {Check, OfferBody} from './offer-check';
import {
  UNPLACEABLE_DATE_PROBLEM,
  excerpt,
  isPlainObject,
  isUnplaceableDate,
  parseInteger,
  parseJson,
  parseList,
} from './values';

/** 4.2: start_time not earlier than this (2000-01-01 00:00 at UTC+8). */
export const MIN_START_TIME = 946656000;

/**
 * 13 digits: Unix milliseconds, as JavaScript and many exports give them. Legal for the API
 * (a number), but a date some 50,000 years away: surely seconds were meant.
 */
function isMilliseconds(value: number): boolean {
  return value >= 1e12 && value < 1e13;
}

function millisecondsProblem(value: number): string {
  return `has 13 digits: that is milliseconds, not seconds. Type Unix seconds (${Math.floor(value / 1000)}) or a date`;
}

function notATime(value: unknown): string {
  return `must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (got ${excerpt(value)})`;
}

/** start_time (required) and end_time (empty or 0 for none), into the body. */
export function times(c: Check, body: Partial<OfferBody>): void {
  for (const field of ['start_time', 'end_time']) {
    if (isUnplaceableDate(c.cells[field]))
      c.fail(field, UNPLACEABLE_DATE_PROBLEM);
  }
  const start = c.present('start_time');
  let startSeconds: number | undefined;
  if (start !== undefined) {
    startSeconds = parseInteger(start);
    if (startSeconds !== undefined && isMilliseconds(startSeconds)) {
      c.fail('start_time', millisecondsProblem(startSeconds));
      startSeconds = undefined;
    } else if (startSeconds === undefined) {
      c.fail('start_time', c.unread.start_time ?? notATime(start));
    } else if (startSeconds < MIN_START_TIME) {
      c.fail(
        'start_time',
        `must not be earlier than ${MIN_START_TIME} (2000-01-01 00:00 at UTC+8)`,
      );
      startSeconds = undefined;
    } else body.start_time = startSeconds;
  }
  // end_time defaults to 0 (4.2): a blank or 0 cell sends none.
  if (c.blank('end_time')) return;
  const end = parseInteger(c.cells.end_time);
  if (end === undefined) {
    c.fail('end_time', c.unread.end_time ?? notATime(c.cells.end_time));
    return;
  }
  if (end === 0) return;
  if (isMilliseconds(end)) {
    c.fail('end_time', millisecondsProblem(end));
    return;
  }
  if (startSeconds !== undefined && end <= startSeconds) {
    c.fail('end_time', 'must be later than start_time');
    return;
  }
  body.end_time = end;
}

const SCHEDULE_FORM =
  'must be a JSON object such as {"1":"9,10,11","6":"0,1"}: keys 1 (Monday) to 7 (Sunday), values hours 0 to 23 separated by commas';

/** custom_ad_schedule: a JSON object of weekday to hours, into the body. */
export function schedule(c: Check, body: Partial<OfferBody>): void {
  if (c.blank('custom_ad_schedule')) return;
  const json = parseJson(c.cells.custom_ad_schedule);
  if (!json.ok || !isPlainObject(json.value)) {
    c.fail('custom_ad_schedule', SCHEDULE_FORM);
    return;
  }
  const out: Record<string, string> = {};
  for (const [day, hours] of Object.entries(json.value)) {
    if (!/^[1-7]$/.test(day)) {
      return void c.fail(
        'custom_ad_schedule',
        `has key ${excerpt(day)}, which is not a day: use 1 (Monday) to 7 (Sunday)`,
      );
    }
    const items =
      typeof hours === 'string' || typeof hours === 'number'
        ? parseList(hours)
        : [];
    const bad = items.find(h => !/^\d{1,2}$/.test(h) || Number(h) > 23);
    if (items.length === 0 || bad !== undefined) {
      return void c.fail(
        'custom_ad_schedule',
        `day ${day} must list hours 0 to 23 separated by commas (got ${excerpt(typeof hours === 'string' ? hours : JSON.stringify(hours))})`,
      );
    }
    out[day] = items.map(Number).join(',');
  }
  body.custom_ad_schedule = out;
}
