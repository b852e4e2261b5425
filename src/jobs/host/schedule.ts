/**
 * The scheduled refresh: one time-driven trigger per user per spreadsheet (an editor add-on
 * may hold no more), what it runs, and what its last run did.
 *
 * `setRefreshSchedule(hours, options)`: hours 0 turns it off; 1, 2, 4, 6, 8 or 12 runs every
 * so many hours; 24 runs once a day, at `options.hourOfDay` (0-23, the spreadsheet's time zone)
 * when given. `options.job` picks the refresh (default: everything).
 */
import {ConfigError} from '../../api/errors';
import {DAILY, SCHEDULE_HOURS} from '../../rules/refresh-estimate';
import type {Platform, TriggerTiming} from '../../platform/ports';
import {
  DEFAULT_SCHEDULED_JOB,
  SCHEDULABLE,
  ScheduledJobName,
  jobSpec,
} from '../catalog';
import {failureMessage, isExpectedFailure} from './menu-messages';
import {JobSummary, LockBusyError, needsAttention} from '../run';
import {
  SCHEDULE_HANDLER,
  checkHealth,
  pausedMessage,
  removeScheduleTriggers,
} from './schedule-health';
import {
  EVERY_ACCOUNT,
  STORE_FULL_NOTE,
  Schedule,
  ScheduledRun,
  SettingsStore,
} from '../settings-store';
import {scheduleChanged} from './sidebar-state';
import {StateBook} from '../../state/book';
import {subAccountNamesInSheet} from '../../sheets/sub-account-names';
import {SCHEDULED_REFRESHERS} from '../refresh/refresh-all';
import {
  otherSchedules,
  quotaProblem,
  refreshCost,
} from '../refresh/refresh-cost';

export const EVERY_HOURS = SCHEDULE_HOURS.filter(h => h !== DAILY);
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
 * starts with no failures and not paused: saving resumes a paused schedule. It keeps the
 * spreadsheet's id and its trigger's, which the trigger's run checks.
 */
export function setRefreshSchedule(
  platform: Platform,
  hours: unknown,
  options?: ScheduleOptions,
): ScheduleView {
  const schedule = scheduleFrom(hours, options ?? {});
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  const requests = schedule && checkQuota(platform, store, schedule);
  removeScheduleTriggers(platform);
  store.setSchedule(documentId, undefined);
  if (schedule) {
    let triggerId: string;
    try {
      triggerId = platform.triggers.createTimeDriven(
        SCHEDULE_HANDLER,
        triggerTiming(schedule),
      );
    } catch (e) {
      throw tooManyTriggers(e) ?? e;
    }
    const saved = {
      ...schedule,
      spreadsheetId: documentId,
      triggerId,
      requests,
      name: platform.workbook().name(),
    };
    if (!store.setSchedule(documentId, saved)) {
      platform.triggers.remove(triggerId);
      throw new ConfigError(
        `The scheduled refresh was not saved: ${STORE_FULL_NOTE}. Turn off scheduled refreshes of spreadsheets you no longer use, then save it again.`,
      );
    }
  }
  // Changes of this person still waiting keep the trigger hourly, whatever the interval chosen.
  if (schedule && store.scheduledChanges(documentId).length > 0)
    hourlyWhileChangesWait(platform);
  scheduleChanged(platform);
  return getSchedule(platform);
}

/**
 * Makes the trigger fire hourly while scheduled changes wait (an editor add-on gets one
 * trigger per person per spreadsheet, so the refresh's own interval cannot be a second one):
 * turns an hourly refresh on where none is, else moves the trigger of a longer one to every
 * hour, the refresh still running at its own interval (refreshDue). Answers what the summary
 * says of it; throws, changing nothing, where Google refuses the trigger.
 */
export function hourlyWhileChangesWait(platform: Platform): string {
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  const schedule = store.schedule(documentId);
  if (!schedule) {
    setRefreshSchedule(platform, 1);
    return ' No scheduled refresh was on: an hourly one is now, to send it.';
  }
  if (schedule.paused) {
    return ' The scheduled refresh is paused: nothing goes out until you save it again (Schedule in the sidebar), then at the first run after.';
  }
  if (schedule.hours === 1 || schedule.triggerHours === 1) return '';
  const triggerId = replaceTrigger(platform, schedule, {everyHours: 1});
  store.setSchedule(documentId, {
    ...schedule,
    triggerId,
    triggerHours: 1,
    refreshedAt: platform.clock.now(),
  });
  scheduleChanged(platform);
  return ` The scheduled refresh now fires every hour while changes wait, to send each within the hour after its time; it still refreshes ${schedule.hours === DAILY ? 'once a day' : `every ${schedule.hours} hours`}.`;
}

/**
 * The trigger back to the refresh's own interval once no change waits; nothing where it
 * fires at that interval already.
 */
export function backToRefreshInterval(platform: Platform): void {
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  const schedule = store.schedule(documentId);
  if (!schedule?.triggerHours || schedule.paused) return;
  if (store.scheduledChanges(documentId).length > 0) return;
  const triggerId = replaceTrigger(platform, schedule, triggerTiming(schedule));
  store.setSchedule(documentId, {
    ...schedule,
    triggerId,
    triggerHours: undefined,
    refreshedAt: undefined,
  });
}

/**
 * Whether the refresh of this turn is due at `at`: always, but while the trigger fires hourly
 * for waiting changes, once its own interval has passed since it last ran (half an hour's
 * slack: Apps Script fires some time within the hour).
 */
export function refreshDue(platform: Platform, at: number): boolean {
  const schedule = new SettingsStore(platform.userProperties).schedule(
    platform.documentId(),
  );
  if (!schedule?.triggerHours) return true;
  return (
    at - (schedule.refreshedAt ?? 0) >= schedule.hours * 3600_000 - 1800_000
  );
}

/**
 * Records the refresh found due at `at` as run (it started: one that waited for the next run
 * stays due), then the trigger back to the refresh's own interval once no change waits.
 */
export function refreshRan(platform: Platform, at: number): void {
  const documentId = platform.documentId();
  const store = new SettingsStore(platform.userProperties);
  const schedule = store.schedule(documentId);
  if (schedule?.triggerHours)
    store.setSchedule(documentId, {...schedule, refreshedAt: at});
  backToRefreshInterval(platform);
}

/** The schedule's trigger replaced by one of `timing`; where Google refuses, the old one stays. */
function replaceTrigger(
  platform: Platform,
  schedule: Schedule,
  timing: TriggerTiming,
): string {
  removeScheduleTriggers(platform);
  try {
    return platform.triggers.createTimeDriven(SCHEDULE_HANDLER, timing);
  } catch (e) {
    const back = platform.triggers.createTimeDriven(
      SCHEDULE_HANDLER,
      triggerTiming(schedule),
    );
    new SettingsStore(platform.userProperties).setSchedule(
      platform.documentId(),
      {...schedule, triggerId: back},
    );
    throw tooManyTriggers(e) ?? e;
  }
}

/**
 * Refuses a schedule whose runs would spend more UrlFetch calls a day than the quota beside
 * the person's other schedules (one quota per person), told from the accounts acted for and
 * their records at the last pull; the schedule saved before stays as it was. Answers the
 * calls a run is expected to make, kept with the schedule for the others' checks.
 */
function checkQuota(
  platform: Platform,
  store: SettingsStore,
  schedule: Schedule,
): number {
  const acting = store.actingAccount(platform.documentId());
  const workbook = platform.workbook();
  const cost = refreshCost(
    StateBook.open(workbook),
    SCHEDULED_REFRESHERS[scheduledJob(schedule)],
    acting,
    acting === EVERY_ACCOUNT ? subAccountNamesInSheet(workbook) : [],
  );
  const problem = quotaProblem(
    cost,
    acting,
    schedule.hours,
    otherSchedules(store.schedules(), platform.documentId()),
  );
  if (problem) {
    throw new ConfigError(`The scheduled refresh was not saved: ${problem}`);
  }
  return cost.requests;
}

/**
 * Apps Script's refusal of one trigger too many, explained. A person may hold 20 triggers of
 * one add-on in all (the quotas page), and an add-on one time-driven trigger per person per
 * spreadsheet; Apps Script words the refusal of a 21st spreadsheet's as "too many time-based
 * triggers in this document", though the others are elsewhere. Ours here were removed just
 * before, so here it is always the 20 elsewhere.
 */
function tooManyTriggers(e: unknown): ConfigError | undefined {
  const text = e instanceof Error ? e.message : String(e);
  if (!/too many\b.*\btriggers/i.test(text)) return undefined;
  return new ConfigError(
    `The scheduled refresh was not saved, and none runs in this spreadsheet now: Google refused its trigger ("${text.replace(/^Exception: /, '')}"). Google allows one person 20 triggers of an add-on, in all spreadsheets together, and each scheduled refresh is one: yours are probably running in 20 other spreadsheets. Turn off the scheduled refresh of a spreadsheet you no longer need refreshed (open it, then Extensions > Offer Desk > Schedule > Turn scheduled refresh off), then save this one again.`,
  );
}

function scheduledJob(schedule: Schedule | undefined): ScheduledJobName {
  const job = schedule?.job as ScheduledJobName | undefined;
  return job && SCHEDULABLE.includes(job) ? job : DEFAULT_SCHEDULED_JOB;
}

/** The time-driven trigger's event object: its trigger's id tells which schedule fired. */
export interface TriggerEvent {
  triggerUid?: string;
}

/** Google's words when the daily time for triggers is used up (the quotas page). */
const TRIGGER_TIME_USED_UP = /too much computer time for one day/i;

/** Which schedule fired, and why it cannot run where it fired, if it cannot. */
interface Fired {
  /** The spreadsheet whose record the run is written to. */
  documentId: string;
  schedule: Schedule | undefined;
  /** Why nothing may be refreshed; undefined: run it. */
  problem?: string;
}

/**
 * The schedule this trigger runs, found by the spreadsheet Apps Script gives the run and the
 * trigger's id. A trigger that fired without its spreadsheet, in another one, or that is no
 * schedule's here (left over, or a second one) names the problem: nothing is refreshed then.
 * Undefined when there is no record to write to at all.
 */
function firedSchedule(
  platform: Platform,
  store: SettingsStore,
  triggerId: string | undefined,
): Fired | undefined {
  const here = platform.activeDocumentId();
  const mine = here === null ? undefined : store.schedule(here);
  const ours = (s: Schedule) =>
    (!triggerId || !s.triggerId || s.triggerId === triggerId) &&
    (!s.spreadsheetId || s.spreadsheetId === here);
  if (here !== null && mine && ours(mine)) {
    return {documentId: here, schedule: mine};
  }
  const owner = triggerId ? store.scheduleOfTrigger(triggerId) : undefined;
  if (owner) {
    return {
      ...owner,
      problem:
        here === null
          ? 'Google started it without its spreadsheet (Apps Script gave the run no active spreadsheet), so nothing was refreshed.'
          : `its trigger fired in another spreadsheet (${here}), so nothing was refreshed.`,
    };
  }
  if (here === null) return undefined;
  return {
    documentId: here,
    schedule: mine,
    problem: mine
      ? 'a second trigger of Offer Desk fired in this spreadsheet, not the one of your schedule, so it refreshed nothing. Save the schedule again to keep one trigger only.'
      : 'a trigger of Offer Desk fired in this spreadsheet, but no scheduled refresh of yours is saved here, so it refreshed nothing. Choose Off and save in Scheduled refresh to remove the trigger.',
  };
}

/**
 * The trigger's work: runs the chosen refresh and records how it went for the sidebar. No one
 * is looking, so nothing is shown; a failure or conflicts are emailed to the schedule's owner
 * and five failures in a row pause the schedule (schedule-health.ts). A refresh that finds
 * another job holding the spreadsheet skips its turn and says so: that job is the user's own
 * work going on, not a fault of the refresh, so it is no failure. A failure we did not foresee
 * is recorded, then thrown, so Apps Script logs it and tells the user of the failed trigger.
 *
 * Some turns are not run, and are no failure of the refresh either (never pausing it): Google
 * asks the user to authorize the add-on again (it keeps firing the trigger, and emails no one:
 * the owner gets the page to authorize, once a day); Google's daily time for triggers is used
 * up; the trigger ran without its spreadsheet or its document lock, or in another spreadsheet.
 */
export function scheduledRefresh(
  platform: Platform,
  run: (job: ScheduledJobName) => JobSummary,
  event: TriggerEvent = {},
): ScheduledRun {
  const store = new SettingsStore(platform.userProperties);
  // Asked first: without authorization, the services the run needs may throw.
  const unauthorized = platform.authorization.required();
  const fired = firedSchedule(platform, store, event.triggerUid);
  const job = scheduledJob(fired?.schedule);
  const title = jobSpec(job)?.title ?? job;
  if (!fired) {
    // No spreadsheet and no schedule of this trigger: nowhere to record it.
    return {
      at: platform.clock.now(),
      outcome: 'misfired',
      message: `${title} not run: Apps Script gave the run no spreadsheet, and no schedule of yours has this trigger.`,
    };
  }
  if (!unauthorized) startTurn(platform, store, fired.documentId, title);
  const turn: Turn = unauthorized
    ? {
        outcome: 'unauthorized',
        message: `${title} not run: Google asks you to authorize Offer Desk again (it needs a permission you have not granted, or its access was removed). Choose any item of Extensions > Offer Desk in this spreadsheet to grant it. The schedule stays on and runs again once you have.`,
        authorizationUrl: authorizationPage(platform),
      }
    : runTurn(platform, fired, title, () => run(job));
  const record: ScheduledRun = {
    at: platform.clock.now(),
    outcome: turn.outcome,
    message: turn.message.slice(0, MESSAGE_LIMIT),
  };
  const {documentId} = fired;
  const email = checkHealth(platform, store, {
    documentId,
    title,
    record,
    reason: turn.reason ?? '',
    conflicts: turn.conflicts ?? 0,
    accountsLeftOut: turn.accountsLeftOut ?? 0,
    authorizationUrl: turn.authorizationUrl,
  });
  const mails = [email, turn.alertsEmail].filter(Boolean);
  if (mails.length > 0) record.email = mails.join(' ');
  const kept = store.setLastScheduledRun(documentId, record);
  scheduleChanged(platform, documentId);
  if (turn.unforeseen !== undefined) throw turn.unforeseen;
  if (!kept) record.message += ` Not remembered: ${STORE_FULL_NOTE}.`;
  return record;
}

/**
 * Records the turn as started before it runs: Apps Script stops an execution at its time limit
 * without a word, and the record of the turn before would go on saying how that one went. A
 * start record still there is such a stopped turn: counted (and emailed) as a failure now.
 */
function startTurn(
  platform: Platform,
  store: SettingsStore,
  documentId: string,
  title: string,
): void {
  const last = store.lastScheduledRun(documentId);
  if (last?.outcome === 'unfinished') {
    const reason =
      'it never finished: Apps Script stopped it, most likely at its time limit for one run (6 minutes). What it wrote before shows in the sheets';
    checkHealth(platform, store, {
      documentId,
      title,
      record: {
        at: last.at,
        outcome: 'error',
        message: `${title} failed: ${reason}.`,
      },
      reason,
      conflicts: 0,
    });
  }
  store.setLastScheduledRun(documentId, {
    at: platform.clock.now(),
    outcome: 'unfinished',
    message: `${title} started and has not finished: it is running, or Apps Script stopped it (at its 6-minute limit for one run, most likely; the next scheduled run counts that as a failure).`,
  });
}

/** How one turn of the schedule went, before it is recorded. */
interface Turn {
  outcome: ScheduledRun['outcome'];
  message: string;
  /** Why it failed or did not run, without the title. */
  reason?: string;
  /** Rows it kept as CONFLICT. */
  conflicts?: number;
  /** What became of the email of the alerts the refresh told (sent inside the run). */
  alertsEmail?: string;
  /** A failure we did not foresee: thrown once recorded. */
  unforeseen?: unknown;
  authorizationUrl?: string | null;
  /** Accounts a refresh as every account left out (their keys refused, their lists failed). */
  accountsLeftOut?: number;
}

/** Runs the refresh where its trigger may: in its spreadsheet, holding no one else's lock. */
function runTurn(
  platform: Platform,
  fired: Fired,
  title: string,
  refresh: () => JobSummary,
): Turn {
  if (fired.problem || platform.documentLock() === null) {
    const reason =
      fired.problem ??
      'Apps Script gave the run no document lock (outside the spreadsheet’s context), so nothing was refreshed.';
    return {
      outcome: 'misfired',
      message: `${title} not run: ${reason}`,
      reason,
    };
  }
  try {
    const summary = refresh();
    return {
      outcome: needsAttention(summary) ? 'attention' : 'ok',
      message: `${title}: ${summary.message}`,
      conflicts: summary.conflict ?? 0,
      accountsLeftOut: (summary.accounts ?? []).filter(a => a.error).length,
      alertsEmail: summary.alertsEmail,
    };
  } catch (e) {
    if (e instanceof LockBusyError) {
      return {
        outcome: 'skipped',
        message: `${title} skipped: another Offer Desk job was running in this spreadsheet. The next scheduled refresh tries again.`,
      };
    }
    if (TRIGGER_TIME_USED_UP.test(e instanceof Error ? e.message : String(e))) {
      return {
        outcome: 'quota',
        message: `${title} did not finish: Google's daily time for triggers is used up ("Service using too much computer time for one day": 90 minutes a day for a gmail.com account, 6 hours with Google Workspace, for all triggers of the account together). This is no fault of the refresh: the schedule stays on and runs again once the time resets, within 24 hours. A longer interval (every 4, 8 or 12 hours, or once a day) uses less of it.`,
      };
    }
    const reason = failureMessage(e);
    return {
      outcome: 'error',
      message: `${title} failed: ${reason}`,
      reason,
      unforeseen: isExpectedFailure(e) ? undefined : e,
    };
  }
}

/** Where the user grants the authorization; null when Google does not say. */
function authorizationPage(platform: Platform): string | null {
  try {
    return platform.authorization.url();
  } catch {
    return null;
  }
}
