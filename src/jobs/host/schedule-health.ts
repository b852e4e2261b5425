/**
 * How a scheduled refresh tells its owner about a problem while no one looks: a count of
 * failures in a row that pauses the schedule at the fifth, and an email (MailApp, as the user
 * who set the schedule, since the trigger runs as them) at most once a day per kind of problem.
 * Whatever becomes of the email is said in the sidebar's last-run line; it never fails the run.
 */
import type {Platform} from '../../platform/ports';
import {counted} from '../../text/wording';
import {
  ProblemKind,
  Schedule,
  STORE_FULL_NOTE,
  ScheduledRun,
  SettingsStore,
} from '../settings-store';

/** The trigger's handler, an entry point of src/index.ts. */
export const SCHEDULE_HANDLER = 'scheduledRefresh';
/** Failures in a row after which the schedule pauses itself. */
export const PAUSE_AFTER_FAILURES = 5;
/** The spreadsheet's name, the reason: excerpts, never a whole cell's worth. */
const NAME_LIMIT = 100;
const REASON_LIMIT = 500;

/** One scheduled run, as the health check sees it. */
export interface RunFacts {
  /** The spreadsheet whose schedule it is. */
  documentId: string;
  /** The refresh's title: 'Refresh everything'. */
  title: string;
  record: ScheduledRun;
  /** Why it failed, without the title; '' when it did not. */
  reason: string;
  /** Rows it kept as CONFLICT. */
  conflicts: number;
  /** Accounts it left out, their rows as they were (a refresh as every account). */
  accountsLeftOut?: number;
  /** Where the user authorizes the add-on again, when the run was skipped for want of it. */
  authorizationUrl?: string | null;
}

/** "Paused after 5 failed runs in a row: <reason>. Choose a schedule again to resume." */
export function pausedMessage(schedule: Schedule | undefined): string | null {
  const paused = schedule?.paused;
  if (!paused) return null;
  const reason = paused.reason.replace(/[.\s]+$/, '');
  return `Paused after ${PAUSE_AFTER_FAILURES} failed runs in a row: ${reason}. Choose a schedule again to resume.`;
}

/** Outcomes that say nothing about the refresh itself: they neither add to nor reset the count. */
const NOT_COUNTED: ReadonlySet<ScheduledRun['outcome']> = new Set([
  'skipped',
  'unauthorized',
  'quota',
  'misfired',
]);

/**
 * Counts the run into the schedule's failures in a row (a turn it did not run neither adds
 * nor resets: it says nothing about the refresh itself), pauses the schedule at the fifth (its
 * trigger removed, the reason kept), then emails the owner about the worst problem it had:
 * a run skipped for want of authorization is emailed too, with the page to grant it. Answers
 * what became of the email, or undefined when there was nothing to tell.
 */
export function checkHealth(
  platform: Platform,
  store: SettingsStore,
  run: RunFacts,
): string | undefined {
  const paused = countRun(platform, store, run);
  const {outcome} = run.record;
  const kind: ProblemKind | undefined = paused
    ? 'paused'
    : outcome === 'unauthorized'
      ? 'authorization'
      : outcome === 'misfired'
        ? 'misfired'
        : outcome === 'error'
          ? 'failed'
          : (run.accountsLeftOut ?? 0) > 0
            ? 'accounts'
            : run.conflicts > 0
              ? 'conflicts'
              : undefined;
  return kind && emailOwner(platform, store, kind, run);
}

function countRun(
  platform: Platform,
  store: SettingsStore,
  run: RunFacts,
): boolean {
  const {documentId} = run;
  const schedule = store.schedule(documentId);
  const {outcome, at} = run.record;
  if (!schedule || NOT_COUNTED.has(outcome)) return false;
  const before = schedule.failures ?? 0;
  const failures = outcome === 'error' ? before + 1 : 0;
  if (failures === before) return false;
  const next: Schedule = {...schedule, failures};
  if (failures === 0) delete next.failures;
  const pause = failures >= PAUSE_AFTER_FAILURES;
  if (pause) {
    removeScheduleTriggers(platform);
    next.paused = {at, reason: run.reason.slice(0, REASON_LIMIT)};
  }
  store.setSchedule(documentId, next);
  return pause;
}

/** Every trigger of this user here that runs the schedule: there should be one at most. */
export function removeScheduleTriggers(platform: Platform): void {
  for (const id of platform.triggers.find(SCHEDULE_HANDLER)) {
    platform.triggers.remove(id);
  }
}

/**
 * Emails the owner about `kind` unless it was emailed today already; answers what became of
 * it. Nothing here throws: a MailApp call that fails (it too may want authorization) is said,
 * and the run's own result stands.
 */
function emailOwner(
  platform: Platform,
  store: SettingsStore,
  kind: ProblemKind,
  run: RunFacts,
): string {
  const {documentId} = run;
  try {
    const where = whereItRan(platform, run);
    const day = where.day;
    if (store.mailedDays(documentId)[kind] === day) {
      return 'No email: one about this was already sent today.';
    }
    const to = platform.identity.email();
    if (!to) {
      return 'No email: Google does not give Offer Desk the email address of this account.';
    }
    if (platform.mail.remainingDailyQuota() < 1) {
      return 'No email: the daily email quota of this Google account is used up.';
    }
    const email = problemEmail(kind, run, where);
    platform.mail.send(to, email.subject, email.body);
    if (!store.setMailedDay(documentId, kind, day)) {
      return `Emailed ${to}, but not remembered (${STORE_FULL_NOTE}): the next run may email again.`;
    }
    return `Emailed ${to}.`;
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    return `No email: sending failed (${cutAt(text, 200)}).`;
  }
}

interface Where {
  name: string;
  url: string;
  /** When it ran: '2026-01-05 10:00 (Europe/Berlin)'. */
  time: string;
  /** Its day, yyyy-mm-dd, in the same time zone: "once a day" counts by it. */
  day: string;
}

/**
 * The spreadsheet's name, address and time zone; where the run cannot read the spreadsheet
 * (Apps Script gave it none, or it lacks authorization), its address from its id and UTC.
 */
function whereItRan(platform: Platform, run: RunFacts): Where {
  const {at} = run.record;
  try {
    const workbook = platform.workbook();
    const local = localTime(at, workbook.utcOffsetMinutes(at));
    return {
      name: cutAt(workbook.name(), NAME_LIMIT),
      url: workbook.url(),
      time: `${local} (${workbook.timeZone()})`,
      day: local.slice(0, 10),
    };
  } catch {
    const utc = localTime(at, 0);
    return {
      name: `spreadsheet ${run.documentId}`,
      url: `https://docs.google.com/spreadsheets/d/${run.documentId}/edit`,
      time: `${utc} (UTC)`,
      day: utc.slice(0, 10),
    };
  }
}

/** The email: what happened, when, where, and what to do; never keys or secrets. */
export function problemEmail(
  kind: ProblemKind,
  run: RunFacts,
  where: Where,
): {subject: string; body: string} {
  const refresh = `The scheduled refresh (${run.title}) of the spreadsheet "${where.name}"`;
  const texts: Record<
    ProblemKind,
    {subject: string; what: string; todo: string}
  > = {
    failed: {
      subject: 'failed',
      what: `${refresh} failed at ${where.time}.`,
      todo: `Open the spreadsheet, then Extensions > Offer Desk > Open sidebar: Test connection says whether the address and keys work. The next scheduled run tries again; after ${PAUSE_AFTER_FAILURES} failures in a row the schedule pauses itself.`,
    },
    conflicts: {
      subject: 'found conflicts',
      what: `${refresh} ran at ${where.time} and kept ${counted(run.conflicts, 'row')} as CONFLICT: edited in the sheet while they changed on the server.`,
      todo: "Open the spreadsheet and look at the rows whose sync_status is CONFLICT: push to send your values, or type the server's values (in sync_message) to keep them.",
    },
    accounts: {
      subject: 'left accounts out',
      what: `${refresh} ran at ${where.time} for every account, and left ${counted(run.accountsLeftOut ?? 0, 'account')} out: their rows are as they were (the others were refreshed).`,
      todo: 'The run below names each account and why (keys refused, the sub-account deleted, the server failing). Check them in the Sub-accounts sheet (Refresh sub-accounts), then refresh again; a passing failure clears at the next run.',
    },
    authorization: {
      subject: 'needs your authorization',
      what: `${refresh} did not run at ${where.time}: Google asks you to authorize Offer Desk again, and until you do, no scheduled refresh runs.`,
      todo: `${run.authorizationUrl ? `Open ${run.authorizationUrl} and allow Offer Desk, or open` : 'Open'} the spreadsheet and choose any item of Extensions > Offer Desk: Google asks for the authorization there. The schedule stays on and refreshes again once you have.`,
    },
    misfired: {
      subject: 'did not run',
      what: `${refresh} did not run at ${where.time}: ${run.reason}`,
      todo: "Open the spreadsheet and save the schedule again in the sidebar's Scheduled refresh: that renews its trigger.",
    },
    paused: {
      subject: 'is paused',
      what: `${refresh} failed ${PAUSE_AFTER_FAILURES} times in a row, the last at ${where.time}, so it paused itself: it does not run until you choose a schedule again.`,
      todo: "Fix the cause (Extensions > Offer Desk > Open sidebar: Test connection), then save the schedule again in the sidebar's Scheduled refresh to resume it.",
    },
  };
  const text = texts[kind];
  return {
    subject: `Offer Desk: the scheduled refresh of "${where.name}" ${text.subject}`,
    body: [
      text.what,
      '',
      `What happened: ${run.record.message}`,
      '',
      `What to do: ${text.todo}`,
      '',
      `Spreadsheet: ${where.url}`,
      '',
      'Offer Desk emails at most once a day about each kind of problem; the sidebar shows every run under Last scheduled run.',
    ].join('\n'),
  };
}

/** '2026-01-05 10:00' at that offset from UTC. */
export function localTime(atMs: number, offsetMinutes: number): string {
  return new Date(atMs + offsetMinutes * 60_000)
    .toISOString()
    .slice(0, 16)
    .replace('T', ' ');
}

function cutAt(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
