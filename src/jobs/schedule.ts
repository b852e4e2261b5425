/**
 * The scheduled refresh: one time-driven trigger per user per spreadsheet (an editor add-on
 * may hold no more), what it runs, and what its last run did.
 *
 * `setRefreshSchedule(hours, options)`: hours 0 turns it off; 1, 2, 4, 6, 8 or 12 runs every
 * so many hours; 24 runs once a day, at `options.hourOfDay` (0-23, the spreadsheet's time zone)
 * when given. `options.job` picks the refresh (default: everything).
 */
import {ConfigError} from '../api/errors';
import type {Platform, TriggerTiming} from '../platform/ports';
import {
  DEFAULT_SCHEDULED_JOB,
  SCHEDULABLE,
  ScheduledJobName,
  jobSpec,
} from '../ui/catalog';
import {failureMessage, isExpectedFailure} from './menu-messages';
import {alertsEmail} from './offer-watch';
import {JobSummary, LockBusyError, needsAttention} from './run';
import {
  SCHEDULE_HANDLER,
  checkHealth,
  pausedMessage,
  removeScheduleTriggers,
} from './schedule-health';
import {Schedule, ScheduledRun, SettingsStore} from './settings-store';
import {scheduleChanged} from './sidebar-state';

export const EVERY_HOURS: readonly number[] = [1, 2, 4, 6, 8, 12];
export const DAILY = 24;
/** A property value holds at most 9 KB. */
const MESSAGE_LIMIT = 2000;

export interface ScheduleOptions {
  hourOfDay?: number;
  job?: string;
}

export interface ScheduleView {
  /** 0: off; 24: once a day. */
  hours: number;
  hourOfDay: number | null;
  /** The spreadsheet's time zone, in which the hour of day counts. */
  timeZone: string;
  job: ScheduledJobName;
  /** Saved, but its trigger is gone (removed outside Offer Desk): save it again. */
  triggerMissing: boolean;
  /** Why it paused itself and how to resume it; null while it runs. */
  paused: string | null;
  lastRun: ScheduledRun | null;
}

/** The stored schedule, or why the request cannot be one. */
export function scheduleFrom(
  hours: unknown,
  options: ScheduleOptions = {},
): Schedule | undefined {
  const h = Number(hours);
  if (h === 0) return undefined;
  if (h !== DAILY && !EVERY_HOURS.includes(h)) {
    throw new ConfigError(
      `A scheduled refresh runs every ${EVERY_HOURS.join(', ')} hours or once a day (24): ${String(hours)} is none of these.`,
    );
  }
  const job = options.job ?? DEFAULT_SCHEDULED_JOB;
  if (!SCHEDULABLE.includes(job as ScheduledJobName)) {
    throw new ConfigError(
      `"${job}" cannot be scheduled: choose one of ${SCHEDULABLE.join(', ')}.`,
    );
  }
  const schedule: Schedule = {hours: h, job};
  if (options.hourOfDay !== undefined && options.hourOfDay !== null) {
    const hour = Number(options.hourOfDay);
    if (h !== DAILY) {
      throw new ConfigError(
        'An hour of the day applies only to the daily refresh (24 hours).',
      );
    }
    if (!Number.isInteger(hour) || hour < 0 || hour > 23) {
      throw new ConfigError(
        `The hour of the day must be a whole hour from 0 to 23, not ${String(options.hourOfDay)}.`,
      );
    }
    schedule.hourOfDay = hour;
  }
  return schedule;
}

export function triggerTiming(schedule: Schedule): TriggerTiming {
  return schedule.hours === DAILY
    ? {everyDays: 1, atHour: schedule.hourOfDay}
    : {everyHours: schedule.hours};
}

export function getSchedule(platform: Platform): ScheduleView {
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  const schedule = store.schedule(documentId);
  return {
    hours: schedule?.hours ?? 0,
    hourOfDay: schedule?.hourOfDay ?? null,
    timeZone: platform.workbook().timeZone(),
    job: scheduledJob(schedule),
    triggerMissing:
      schedule !== undefined &&
      !schedule.paused &&
      platform.triggers.find(SCHEDULE_HANDLER).length === 0,
    paused: pausedMessage(schedule),
    lastRun: store.lastScheduledRun(documentId) ?? null,
  };
}

/**
 * Replaces this user's schedule in this spreadsheet: every trigger of ours here goes first, so
 * saving again never leaves two (Apps Script would refuse the second anyway). The new record
 * starts with no failures and not paused: saving resumes a paused schedule.
 */
export function setRefreshSchedule(
  platform: Platform,
  hours: unknown,
  options?: ScheduleOptions,
): ScheduleView {
  const schedule = scheduleFrom(hours, options ?? {});
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  removeScheduleTriggers(platform);
  store.setSchedule(documentId, undefined);
  if (schedule) {
    platform.triggers.createTimeDriven(
      SCHEDULE_HANDLER,
      triggerTiming(schedule),
    );
    store.setSchedule(documentId, schedule);
  }
  scheduleChanged(platform);
  return getSchedule(platform);
}

function scheduledJob(schedule: Schedule | undefined): ScheduledJobName {
  const job = schedule?.job as ScheduledJobName | undefined;
  return job && SCHEDULABLE.includes(job) ? job : DEFAULT_SCHEDULED_JOB;
}

/**
 * The trigger's work: runs the chosen refresh and records how it went for the sidebar. No one
 * is looking, so nothing is shown; a failure or conflicts are emailed to the schedule's owner
 * and five failures in a row pause the schedule (schedule-health.ts). A refresh that finds
 * another job holding the spreadsheet skips its turn and says so: that job is the user's own
 * work going on, not a fault of the refresh, so it is no failure. A failure we did not foresee
 * is recorded, then thrown, so Apps Script logs it and tells the user of the failed trigger.
 */
export function scheduledRefresh(
  platform: Platform,
  run: (job: ScheduledJobName) => JobSummary,
): ScheduledRun {
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  const job = scheduledJob(store.schedule(documentId));
  const title = jobSpec(job)?.title ?? job;
  let outcome: ScheduledRun['outcome'];
  let message: string;
  let reason = '';
  let conflicts = 0;
  let unforeseen: unknown;
  let alerts: string[] | undefined;
  try {
    const summary = run(job);
    alerts = summary.alerts;
    outcome = needsAttention(summary) ? 'attention' : 'ok';
    message = `${title}: ${summary.message}`;
    conflicts = summary.conflict ?? 0;
  } catch (e) {
    if (e instanceof LockBusyError) {
      outcome = 'skipped';
      message = `${title} skipped: another Offer Desk job was running in this spreadsheet. The next scheduled refresh tries again.`;
    } else {
      outcome = 'error';
      reason = failureMessage(e);
      message = `${title} failed: ${reason}`;
      if (!isExpectedFailure(e)) unforeseen = e;
    }
  }
  const record: ScheduledRun = {
    at: platform.clock.now(),
    outcome,
    message: message.slice(0, MESSAGE_LIMIT),
  };
  const email = [
    checkHealth(platform, store, {title, record, reason, conflicts}),
    alertsEmail(platform, store, alerts),
  ].filter(Boolean);
  if (email.length > 0) record.email = email.join(' ');
  store.setLastScheduledRun(documentId, record);
  scheduleChanged(platform);
  if (unforeseen !== undefined) throw unforeseen;
  return record;
}
