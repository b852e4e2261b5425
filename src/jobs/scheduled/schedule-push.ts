/**
 * A push given a time (DESIGN 4.5, issue 27): what the push decided to send is written to the
 * Scheduled sheet, one row per field under one change id, and nothing is sent. The edited
 * rows go back to the values last pulled, through the one writer, their message naming the
 * change and its time: the sheets show what is live, Scheduled what is coming, and a manual
 * push meanwhile finds nothing to send. If no schedule is on, an hourly one is turned on.
 */
import {ConfigError} from '../../api/errors';
import {FieldChange, fieldChanges} from '../../sheets/history-fields';
import {putBack, withStatus} from '../../sheets/put-back';
import {ScheduledEntry, ScheduledSheet} from '../../sheets/scheduled';
import {newChangeId} from '../change-log';
import {accountLabel} from '../connect';
import {hourlyWhileChangesWait} from '../host/schedule';
import type {Job, RunOptions} from '../kernel';
import {STORE_FULL_NOTE, SettingsStore} from '../settings-store';
import type {Platform} from '../../platform/ports';
import {type Told, runPush} from '../push/push';
import type {JobSummary} from '../run';
import {type PushSpec, type Sending, asSent} from '../push/push-spec';
import type {RowWrites} from '../row-writes';
import {StoredChanges, pairRows, shownTime, textsOf} from './stored';
import {outPhase} from './due';
import {When, scheduledTimes, zoned} from './when';

/**
 * What a scheduled push did instead of sending: no request, its sentence for the summary, and
 * what the rows put back say.
 */
export interface Scheduled {
  requests: 0;
  remaining: 0;
  message: string;
  told: Told;
}

interface Planned {
  account: string;
  record: string;
  change: FieldChange;
}

/** Whether a push is given a time: then it is scheduled, never sent now. */
export function isScheduling(options?: RunOptions): boolean {
  return options?.at !== undefined || options?.until !== undefined;
}

/**
 * The push of `spec` given a time: the times checked first (bad input schedules nothing and
 * keeps the edits), then the push decides as it would, and schedules instead of sending.
 */
export function schedulePush<S, Q>(
  platform: Platform,
  spec: PushSpec<S, Q>,
  options: RunOptions,
): JobSummary {
  const when = scheduledTimes(
    options,
    platform.clock.now(),
    platform.workbook(),
  );
  return runPush(platform, spec, options, (job, rows, units) =>
    scheduleUnits(job, spec, rows, units, when!),
  );
}

function scheduleUnits<S, Q>(
  job: Job,
  spec: PushSpec<S, Q>,
  rows: RowWrites<S>,
  units: ReadonlyArray<Sending<Q>>,
  when: When,
): Scheduled {
  if (units.length === 0) {
    return {
      requests: 0,
      remaining: 0,
      message: `Nothing to schedule: no row of ${spec.schema.name} holds a change to send.`,
      told: [],
    };
  }
  const sheet = ScheduledSheet.open(job.workbook, true, () =>
    job.platform.clock.now(),
  )!;
  const planned: Planned[] = units.flatMap(({record, request}) =>
    fieldChanges(
      spec.schema,
      record.base.rows,
      asSent(spec.schema, record, request),
    ).map(change => ({
      account: accountLabel(record.account),
      record: record.id,
      change,
    })),
  );
  const store = new SettingsStore(job.platform.userProperties);
  const documentId = job.platform.documentId();
  const mine = store.scheduledChanges(documentId);
  const stored = StoredChanges.open(job.book, job.outbox);
  // The sheet's cancels first: a change cancelled there no longer holds its fields. This
  // person's changes from before the store are taken in, to be checked against too.
  pairRows(stored, sheet, row => mine.includes(row.change_id));
  refuseOverlaps(job, stored.entries, planned, spec.schema.name, when);
  const now = new Date(job.platform.clock.now());
  const changeId = newChangeId(job.platform, now);
  const at = zoned(job.workbook, when.at);
  const back = Number.isNaN(when.until)
    ? ''
    : `, put back at ${zoned(job.workbook, when.until)}`;
  const entries = planned.map(({account, record, change}) => ({
    index: -1,
    change_id: changeId,
    applyAt: when.at,
    revertAt: when.until,
    account,
    sheet: spec.schema.name,
    record,
    ...change,
    status: 'WAITING' as const,
    message: `Waiting: goes out at the first scheduled run at or after ${at} (within the hour after)${back}.`,
  }));
  // All or nothing: the trigger, whose owner's runs alone send it, and the stored change
  // come first; any of them refused, nothing is written and the rows keep the user's values.
  const turnedOn = scheduleOn(job);
  if (!store.setScheduledChanges(documentId, [...mine, changeId])) {
    throw new ConfigError(
      `Nothing was scheduled: ${STORE_FULL_NOTE}. Turn off scheduled refreshes of spreadsheets you no longer use, then try again; your edits are kept.`,
    );
  }
  // Only a change its author's list holds is ever sent: where what follows fails, taking it
  // off the list is what undoes it (the stored fields, rowless, are cancelled by the next run).
  const undo = (what: string, e: unknown) => {
    store.setScheduledChanges(documentId, mine);
    return new ConfigError(
      `Nothing was scheduled: ${what} (${e instanceof Error ? e.message : String(e)}). Your edits are kept; try again.`,
    );
  };
  stored.add(entries);
  try {
    job.saveState();
  } catch (e) {
    throw undo("the add-on's state could not be saved", e);
  }
  try {
    sheet.append(
      entries.map(e => ({
        ...textsOf(e),
        apply_at: shownTime(job.workbook, e.applyAt),
        revert_at: Number.isNaN(e.revertAt)
          ? ''
          : shownTime(job.workbook, e.revertAt),
      })),
    );
  } catch (e) {
    throw undo('the Scheduled sheet could not be written', e);
  }
  const note = `Scheduled as change ${changeId} for ${at}${back}: this row shows what the server holds until then, the Scheduled sheet what is coming.`;
  const {writer} = rows;
  const told: Array<Told[number]> = [];
  for (const {record} of units) {
    const placed = putBack(writer, record.rows, record.base.rows, job.workbook);
    told.push(
      ...placed.kept.map(
        row => [row, {status: '' as const, message: note}] as const,
      ),
    );
    for (const row of placed.removed) writer.remove(row);
    const last = record.rows[record.rows.length - 1];
    writer.insertAfter(
      last,
      placed.added.map(row =>
        withStatus(writer.table, row, {status: '', message: note}, now),
      ),
    );
  }
  const fields = planned.length === 1 ? 'field' : 'fields';
  const records = units.length === 1 ? 'record' : 'records';
  return {
    requests: 0,
    remaining: 0,
    message: `Nothing sent: ${planned.length} ${fields} of ${units.length} ${records} scheduled as change ${changeId} for ${at}${back}. The rows show what the server holds until then; see the Scheduled sheet.${turnedOn}`,
    told,
  };
}

/**
 * A field that another change will still touch: waiting, applied and not yet put back, or
 * sent with its answer lost and a put-back to come.
 * The second change is refused, so two scheduled values never fight over one field (two
 * put-backs would leave the first change's value on the server for good).
 */
function refuseOverlaps(
  job: Job,
  entries: readonly ScheduledEntry[],
  planned: readonly Planned[],
  sheet: string,
  when: When,
): void {
  const end = (until: number) => (Number.isNaN(until) ? Infinity : until);
  // Out with its answer lost, an apply may have gone, and its put-back goes once read back.
  const touches = (e: ScheduledEntry) =>
    e.status === 'WAITING' ||
    (!Number.isNaN(e.revertAt) &&
      (e.status === 'OK' || outPhase(e, job.outbox) === 'apply'));
  for (const {account, record, change} of planned) {
    const first = entries.find(
      e =>
        touches(e) &&
        e.sheet === sheet &&
        e.account === account &&
        e.record === record &&
        e.field === change.field &&
        e.applyAt < end(when.until) &&
        when.at < end(e.revertAt),
    );
    if (first) {
      const where =
        first.index >= 0
          ? ` (row ${first.index + 2} of the Scheduled sheet)`
          : '';
      const back = () => zoned(job.workbook, first.revertAt);
      const what =
        first.status === 'WAITING'
          ? 'is already scheduled, at an overlapping time,'
          : first.status === 'OK'
            ? `was changed, and is still to be put back at ${back()},`
            : `was sent with its answer lost, and is to be put back at ${back()} once the next scheduled run reads it back,`;
      const then =
        first.status === 'WAITING'
          ? 'cancel that one first (type CANCELLED in its status)'
          : 'schedule this one after that put-back';
      throw new ConfigError(
        `${change.field} of ${sheet} ${record} ${what} by change ${first.change_id}${where}: ${then}. Nothing was scheduled, and your edits are kept.`,
      );
    }
  }
}

/** Makes the trigger fire hourly while the change waits, and says so where it changed. */
function scheduleOn(job: Job): string {
  try {
    return hourlyWhileChangesWait(job.platform);
  } catch (e) {
    throw new ConfigError(
      `Nothing was scheduled: the hourly trigger that sends it could not be set. ${e instanceof Error ? e.message : String(e)} Your edits are kept.`,
    );
  }
}
