/**
 * applyScheduledChanges (DESIGN 4.5, issue 27): sends the Scheduled rows that are due, first
 * thing in every scheduled run and from the menu.
 *
 * - Each record is read first (one list request per 50 records of one account): where the
 *   server still holds every `before` of the change, the record's request is rebuilt from what
 *   the server holds with those fields set to `after` (a budget group added on the server
 *   since is kept); where it does not, the rows are CONFLICT and nothing is sent for it. At
 *   `revert_at`, the same the other way round, REVERTED once accepted.
 * - A row is marked before its request leaves (ERROR, "Unknown outcome: …"), and settled once
 *   the answer is in: a run killed midway never sends it again, and the next run reads the
 *   record to tell what became of it. A lost answer stays so, for the next run to read.
 * - A change whose time passed more than the grace ago (6 hours unless set) is ERROR "missed
 *   its time", never sent late. CANCELLED rows, and deleted ones, are never sent.
 * - Every write is a History row, job `scheduled push` or `scheduled revert`, signed, like
 *   every request, by the record's account.
 */
import {ConfigError, OutcomeUnknownError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {recordKey} from '../../sheets/accounts';
import type {HistoryOutcome} from '../../sheets/history';
import {
  FieldChange,
  shiftContent,
  splitField,
} from '../../sheets/history-fields';
import {
  ScheduledEntry,
  ScheduledSheet,
  ScheduledStatus,
} from '../../sheets/scheduled';
import {counted} from '../../text/wording';
import {ChangeLog} from '../change-log';
import {accountOfLabel} from '../connect';
import {failureMessage} from '../host/menu-messages';
import {readBack, serverRecord} from '../read-back';
import {Job, RunOptions, withJob} from '../kernel';
import {BUDGETS_PUSH} from '../push/push-budgets';
import {CAMPAIGNS_PUSH} from '../push/push-campaigns';
import type {PushSpec} from '../push/push-spec';
import type {JobSummary} from '../run';
import {SettingsStore} from '../settings-store';
import {scheduledChangesEmail} from './apply-mail';
import {zoned} from './when';

export const DEFAULT_GRACE_HOURS = 6;

/** The pushes whose changes can be scheduled, by sheet. */
const SPECS = [BUDGETS_PUSH, CAMPAIGNS_PUSH] as unknown as ReadonlyArray<
  PushSpec<never, unknown>
>;

type Phase = 'apply' | 'revert';

const JOB: Record<Phase, string> = {
  apply: 'scheduled push',
  revert: 'scheduled revert',
};

const DONE: Record<Phase, ScheduledStatus> = {apply: 'OK', revert: 'REVERTED'};

/** The message of a row whose request left and whose answer is not recorded. */
const UNKNOWN: Record<Phase, string> = {
  apply: 'Unknown outcome: the scheduled push was sent',
  revert: 'Unknown outcome: the scheduled revert was sent',
};

/** The rows of one change of one record, due in one phase. */
interface Item {
  phase: Phase;
  /** Its request left in an earlier run, and no answer was recorded. */
  unknown: boolean;
  account: string;
  sheet: string;
  record: string;
  entries: ScheduledEntry[];
}

interface Tally {
  applied: number;
  reverted: number;
  conflict: number;
  error: number;
  requests: number;
  /** "Budgets 123 daily_cap [ALL]: CONFLICT: …", one line per field not done, for the email. */
  problems: string[];
}

export function applyScheduledChanges(
  platform: Platform,
  options: RunOptions = {},
): JobSummary {
  return withJob(platform, 'applyScheduledChanges', options, job => {
    const tally: Tally = {
      applied: 0,
      reverted: 0,
      conflict: 0,
      error: 0,
      requests: 0,
      problems: [],
    };
    const sheet = ScheduledSheet.open(job.workbook, false);
    // Only this person's changes: they go out with the keys of whoever scheduled them.
    const store = new SettingsStore(platform.userProperties);
    const documentId = platform.documentId();
    const mine = new Set(store.scheduledChanges(documentId));
    const entries = (sheet?.entries() ?? []).filter(e => mine.has(e.change_id));
    const items = dueItems(entries, platform.clock.now());
    if (sheet && items.length > 0) applyItems(job, sheet, items, tally);
    const open = new Set(entries.filter(isOpen).map(e => e.change_id));
    if (open.size < mine.size) store.setScheduledChanges(documentId, [...open]);
    const summary = job.summary({
      sheet: 'Scheduled',
      ok: tally.applied + tally.reverted,
      invalid: 0,
      error: tally.error,
      skipped: 0,
      conflict: tally.conflict,
      requests: tally.requests,
    });
    const message = applyMessage(tally);
    const email =
      options.scheduled && message !== NOTHING_DUE
        ? scheduledChangesEmail(platform, message, tally.problems)
        : undefined;
    return {...summary, message, ...(email ? {alertsEmail: email} : {})};
  });
}

const NOTHING_DUE =
  'No change you scheduled is due (a change goes out only from the runs of whoever scheduled it).';

/** "Scheduled changes: 5 fields sent, 1 put back, 1 CONFLICT: see the Scheduled sheet." */
function applyMessage(tally: Tally): string {
  const parts = [
    tally.applied > 0 ? `${counted(tally.applied, 'field')} sent` : '',
    tally.reverted > 0 ? `${counted(tally.reverted, 'field')} put back` : '',
    tally.conflict > 0
      ? `${counted(tally.conflict, 'field')} CONFLICT (the server held another value: nothing sent)`
      : '',
    tally.error > 0 ? `${counted(tally.error, 'field')} ERROR` : '',
  ].filter(p => p !== '');
  if (parts.length === 0) return NOTHING_DUE;
  return `Scheduled changes: ${parts.join(', ')}. See the Scheduled sheet.`;
}

/**
 * The changes due now, by record: WAITING rows past apply_at, OK rows past revert_at, and
 * rows sent earlier whose answer was not recorded.
 */
function dueItems(entries: readonly ScheduledEntry[], now: number): Item[] {
  const items = new Map<string, Item>();
  for (const entry of entries) {
    const phase = phaseOf(entry, now);
    if (!phase) continue;
    const unknown = entry.message.startsWith(UNKNOWN[phase]);
    const key = JSON.stringify([
      phase,
      unknown,
      entry.change_id,
      entry.account,
      entry.sheet,
      entry.record,
    ]);
    const item = items.get(key) ?? {
      phase,
      unknown,
      account: entry.account,
      sheet: entry.sheet,
      record: entry.record,
      entries: [],
    };
    item.entries.push(entry);
    items.set(key, item);
  }
  return [...items.values()];
}

/** Whether a row may still send something: waiting, to put back, or its outcome unknown. */
function isOpen(entry: ScheduledEntry): boolean {
  if (entry.status === 'WAITING') return true;
  if (entry.status === 'OK') return !Number.isNaN(entry.revertAt);
  return (
    entry.status === 'ERROR' &&
    Object.values(UNKNOWN).some(text => entry.message.startsWith(text))
  );
}

function phaseOf(entry: ScheduledEntry, now: number): Phase | undefined {
  if (entry.status === 'WAITING' && entry.applyAt <= now) return 'apply';
  if (entry.status === 'OK' && entry.revertAt <= now) return 'revert';
  if (entry.status !== 'ERROR') return undefined;
  if (entry.message.startsWith(UNKNOWN.apply)) return 'apply';
  if (entry.message.startsWith(UNKNOWN.revert)) return 'revert';
  return undefined;
}

/** A week: a change later than that is for the user to schedule again. */
const MAX_GRACE_HOURS = 168;

/** Sets how late a due change may still go out in this spreadsheet (sidebar setting). */
export function setScheduledGraceHours(
  platform: Platform,
  hours: unknown,
): number {
  const h = Number(hours);
  if (!Number.isFinite(h) || h <= 0 || h > MAX_GRACE_HOURS) {
    throw new ConfigError(
      `The grace for scheduled changes is a number of hours above 0, at most ${MAX_GRACE_HOURS}: ${JSON.stringify(hours) ?? String(hours)} is not. It was not changed.`,
    );
  }
  new SettingsStore(platform.userProperties).setScheduledGraceHours(
    platform.documentId(),
    h,
  );
  return h;
}

/** The grace after a change's time, in ms. */
function graceMs(platform: Platform): number {
  const hours =
    new SettingsStore(platform.userProperties).scheduledGraceHours(
      platform.documentId(),
    ) ?? DEFAULT_GRACE_HOURS;
  return hours * 3600_000;
}

/** A request to send for an item, and where it stands. */
interface Pending {
  item: Item;
  request: unknown;
}

function applyItems(
  job: Job,
  sheet: ScheduledSheet,
  items: readonly Item[],
  tally: Tally,
): void {
  const now = job.platform.clock.now();
  const grace = graceMs(job.platform);
  const mark = (
    item: Item,
    status: ScheduledStatus,
    message: string,
    counts = true,
  ) => {
    for (const entry of item.entries) sheet.mark(entry, status, message);
    if (!counts) return;
    const n = item.entries.length;
    if (status === 'OK') tally.applied += n;
    else if (status === 'REVERTED') tally.reverted += n;
    else if (status === 'CONFLICT') tally.conflict += n;
    else if (status === 'ERROR') tally.error += n;
    if (status === 'CONFLICT' || status === 'ERROR') {
      tally.problems.push(
        ...item.entries.map(
          e => `${e.sheet} ${e.record} ${e.field}: ${status}: ${message}`,
        ),
      );
    }
  };
  const live: Item[] = [];
  for (const item of items) {
    const at = timeOf(item);
    const account = accountOfLabel(item.account);
    if (!item.unknown && now - at > grace) {
      mark(
        item,
        'ERROR',
        `Missed its time${item.phase === 'revert' ? ' to be put back' : ''}: due at ${zoned(job.workbook, at)}, and no scheduled run came within ${grace / 3600_000} hours after (the schedule was off or paused, or Google asked for authorization again). ${item.phase === 'revert' ? 'The server keeps the value sent: revert its History change if it should go back.' : 'Not sent: schedule it again if it is still wanted.'}`,
      );
    } else if (account === undefined || !specOf(item.sheet)) {
      mark(
        item,
        'ERROR',
        account === undefined
          ? `Not sent: "${item.account}" names no account (main account, or sub-account and its name).`
          : `Not sent: changes of ${item.sheet} cannot be scheduled in this version.`,
      );
    } else live.push(item);
  }
  const pending: Pending[] = [];
  for (const spec of SPECS) {
    const mine = live.filter(item => item.sheet === spec.schema.name);
    if (mine.length === 0) continue;
    const server = readServer(job, spec, mine, tally);
    for (const item of mine) {
      const decided = decide(job, spec, item, server);
      if ('request' in decided) pending.push({item, request: decided.request});
      else mark(item, decided.status, decided.message);
    }
  }
  if (pending.length === 0) {
    sheet.flush();
    return;
  }
  // On record before anything leaves: a run killed now never sends these again.
  for (const {item} of pending)
    mark(
      item,
      'ERROR',
      `${UNKNOWN[item.phase]} at ${zoned(job.workbook, now)}, and no answer is recorded: the next run reads the record to tell what became of it.`,
      false,
    );
  sheet.flush();
  job.workbook.flush();
  sendPending(job, pending, mark, tally);
  sheet.flush();
}

/** When an item is due: its apply_at, or its revert_at. */
function timeOf(item: Item): number {
  const [entry] = item.entries;
  return item.phase === 'apply' ? entry.applyAt : entry.revertAt;
}

function specOf(sheet: string): PushSpec<never, unknown> | undefined {
  return SPECS.find(spec => spec.schema.name === sheet);
}

/**
 * What the server holds of the items' records, as canonical contents by record key (a field
 * the list does not return as empty); or why it could not be read.
 */
function readServer(
  job: Job,
  spec: PushSpec<never, unknown>,
  items: readonly Item[],
  tally: Tally,
): Map<string, string[][]> | {failed: string} {
  const back = readBack(
    spec,
    items.map(i => ({account: accountOfLabel(i.account)!, id: i.record})),
    {
      clientFor: account => job.connected.clientFor(account),
      context: job.workbook,
    },
  );
  tally.requests += back.requests;
  if ('failed' in back) return {failed: failureMessage(back.error)};
  return new Map(
    [...back.listed].map(([key, rows]) => [
      key,
      serverRecord(spec.schema, rows, []).rows,
    ]),
  );
}

type Decided = {request: unknown} | {status: ScheduledStatus; message: string};

/** What to do with one item, from what the server holds. */
function decide(
  job: Job,
  spec: PushSpec<never, unknown>,
  item: Item,
  server: Map<string, string[][]> | {failed: string},
): Decided {
  const {id, name} = {id: spec.schema.id, name: spec.schema.name};
  if (!(server instanceof Map)) {
    // Nothing left: the rows stay as they were, for the next run (within the grace).
    return item.unknown
      ? {status: 'ERROR', message: item.entries[0].message}
      : {
          status: item.entries[0].status as ScheduledStatus,
          message: `Not sent yet: reading ${id} ${item.record} first failed (${server.failed}). The next scheduled run tries again.`,
        };
  }
  const now = server.get(recordKey(accountOfLabel(item.account)!, item.record));
  if (!now) {
    return {
      status: 'ERROR',
      message: `Not sent: the server does not list ${id} ${item.record} (deleted, or not this account's).`,
    };
  }
  const changes: FieldChange[] = item.entries.map(e => ({
    field: e.field,
    before: e.before,
    after: e.after,
  }));
  const [from, to] =
    item.phase === 'apply'
      ? (['before', 'after'] as const)
      : (['after', 'before'] as const);
  if (item.unknown) {
    const settled = shiftContent(spec.schema, now, changes, to, to).ok;
    return settled
      ? {
          status: DONE[item.phase],
          message: `Read back at ${zoned(job.workbook, job.platform.clock.now())}: the server holds it (the answer to its request was lost).`,
        }
      : {
          status: 'ERROR',
          message:
            'Not applied: read back, the server does not hold it (its request got no answer). Not sent again: schedule it again if it is still wanted.',
        };
  }
  const shifted = shiftContent(spec.schema, now, changes, from, to);
  if (!shifted.ok) {
    return {
      status: 'CONFLICT',
      message: `Not sent: the server no longer holds the ${from} value of ${shifted.fields.join(', ')} of ${name} ${id} ${item.record} (changed since it was scheduled), so nothing was sent for it.`,
    };
  }
  const fields = changes.map(c => splitField(c.field).header);
  return {request: spec.requestFrom!(item.record, shifted.content, fields)};
}

/** Sends the requests, each signed by its record's account; settles each row and History. */
function sendPending(
  job: Job,
  pending: readonly Pending[],
  mark: (item: Item, status: ScheduledStatus, message: string) => void,
  tally: Tally,
): void {
  const logs: Record<Phase, ChangeLog> = {
    apply: new ChangeLog(job.platform, JOB.apply, job.account),
    revert: new ChangeLog(job.platform, JOB.revert, job.account),
  };
  const at = zoned(job.workbook, job.platform.clock.now());
  for (const spec of SPECS) {
    const mine = pending.filter(p => p.item.sheet === spec.schema.name);
    if (mine.length === 0) continue;
    const outcomes = spec.send(
      mine.map(({item, request}) => ({
        client: job.connected.clientFor(accountOfLabel(item.account)!),
        body: request,
      })),
    );
    tally.requests += mine.length;
    outcomes.forEach((outcome, k) => {
      const {item} = mine[k];
      const log = logs[item.phase];
      let history: HistoryOutcome;
      let message: string;
      if (outcome.ok) {
        history = 'OK';
        message = `Sent at ${at}: History change ${log.changeId}.`;
        mark(item, DONE[item.phase], message);
      } else if (outcome.error instanceof OutcomeUnknownError) {
        history = 'UNKNOWN';
        message = `${UNKNOWN[item.phase]} at ${at}, and its answer was lost (${outcome.error.message}): the next run reads the record to tell what became of it. History change ${log.changeId}.`;
        mark(item, 'ERROR', message);
      } else {
        history = 'ERROR';
        message = `Refused at ${at}: ${failureMessage(outcome.error)} History change ${log.changeId}.`;
        mark(item, 'ERROR', message);
      }
      log.add(
        item.entries.map(e => ({
          account: e.account,
          sheet: e.sheet,
          record: e.record,
          field: e.field,
          before: item.phase === 'apply' ? e.before : e.after,
          after: item.phase === 'apply' ? e.after : e.before,
          outcome: history,
          message,
        })),
      );
    });
  }
  logs.apply.flush(job.workbook);
  logs.revert.flush(job.workbook);
}
