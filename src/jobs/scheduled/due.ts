/**
 * Which scheduled changes are due, and in what order (DESIGN 4.5): WAITING fields past their
 * apply_at, applied ones past their revert_at, and those whose request left with no answer
 * recorded (an outbox entry, state/outbox.ts); earliest first, a put-back before an apply at
 * one instant, a record at most once a round. And how late a due change may still go out
 * (the grace).
 */
import {ConfigError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import type {FieldChange} from '../../sheets/history-fields';
import {ScheduledEntry, ScheduledStatus} from '../../sheets/scheduled';
import {
  type Outbox,
  OutboxEntry,
  OutboxKey,
  writeKey,
} from '../../state/outbox';
import {accountOfLabel} from '../connect';
import {SettingsStore} from '../settings-store';

export const DEFAULT_GRACE_HOURS = 6;

export type Phase = 'apply' | 'revert';

export const JOB: Record<Phase, string> = {
  apply: 'scheduled push',
  revert: 'scheduled revert',
};

export const DONE: Record<Phase, ScheduledStatus> = {
  apply: 'OK',
  revert: 'REVERTED',
};

/**
 * How a row whose request left with no answer recorded begins, for people: the add-on knows
 * it from the outbox (outPhase), never from these words.
 */
export const UNKNOWN: Record<Phase, string> = {
  apply: 'Unknown outcome: the scheduled push was sent',
  revert: 'Unknown outcome: the scheduled revert was sent',
};

/** The side of a change a phase sends a record from, and the side it sends it to. */
export const SIDES: Record<Phase, readonly [Side, Side]> = {
  apply: ['before', 'after'],
  revert: ['after', 'before'],
};

type Side = 'before' | 'after';

/** The fields an item changes, each with its stored before and after. */
export function changesOf(item: Item): FieldChange[] {
  return item.entries.map(e => ({
    field: e.field,
    before: e.before,
    after: e.after,
  }));
}

/** The rows of one change of one record, due in one phase. */
export interface Item {
  phase: Phase;
  /** Its request left in an earlier run, and no answer was recorded. */
  unknown: boolean;
  account: string;
  sheet: string;
  record: string;
  entries: ScheduledEntry[];
}

export interface Tally {
  applied: number;
  reverted: number;
  conflict: number;
  error: number;
  requests: number;
  /** Fields due that no chunk reached before the time budget ran out: for the next run. */
  left: number;
  /** Fields whose rows were deleted or typed over while the run read: not sent. */
  withdrawn: number;
  /** Fields whose records could not be read first: as they were, for the next run. */
  unread: number;
  /** The accounts of those records (as the Scheduled sheet names them). */
  unreadAccounts: Set<string>;
  /** "Budgets 123 daily_cap [ALL]: CONFLICT: …", one line per field not done, for the email. */
  problems: string[];
}

/**
 * The changes due now, by record: WAITING rows past apply_at, OK rows past revert_at, and
 * rows sent earlier whose answer was not recorded (their outbox entries).
 */
export function dueItems(
  entries: readonly ScheduledEntry[],
  now: number,
  outbox: Outbox,
): Item[] {
  const items = new Map<string, Item>();
  for (const entry of entries) {
    const out = outPhase(entry, outbox);
    const phase = out ?? phaseOf(entry, now);
    if (!phase) continue;
    const unknown = out !== undefined;
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
  // The earliest due first: a run the time budget stops leaves the latest for the next one.
  // At one instant a put-back goes first: the change after it finds the value it expects.
  return [...items.values()].sort(
    (a, b) =>
      timeOf(a) - timeOf(b) ||
      Number(a.phase === 'apply') - Number(b.phase === 'apply'),
  );
}

export const KEPT_CLOSED_MS = 7 * 24 * 3600_000;

/** The last time of a field: its revert_at, else its apply_at. */
export function lastTime(entry: ScheduledEntry): number {
  return Number.isNaN(entry.revertAt) ? entry.applyAt : entry.revertAt;
}

/** Whether a row may still send something: waiting, to put back, or its outcome unknown. */
export function isOpen(entry: ScheduledEntry, outbox: Outbox): boolean {
  if (entry.status === 'WAITING') return true;
  if (entry.status === 'OK') return !Number.isNaN(entry.revertAt);
  return outPhase(entry, outbox) !== undefined;
}

function phaseOf(entry: ScheduledEntry, now: number): Phase | undefined {
  if (entry.status === 'WAITING' && entry.applyAt <= now) return 'apply';
  if (entry.status === 'OK' && entry.revertAt <= now) return 'revert';
  return undefined;
}

type Named = Pick<ScheduledEntry, 'change_id' | 'account' | 'sheet' | 'record'>;

/**
 * The outbox key of a stored change's write of one record: a `write` of the record in its
 * account, named by its change, so it stands beside a push's write of the same record and
 * no push or refresh takes it for theirs (Outbox.writesOf).
 */
export function outKey(entry: Named): OutboxKey {
  const account = accountOfLabel(entry.account) ?? entry.account;
  return {
    ...writeKey(entry.sheet, account, entry.record),
    change: entry.change_id,
  };
}

/** The outbox entry of an item's request, posted before it leaves; its job names the phase. */
export function outEntry(
  item: Item,
  sent: string[][],
  time: string,
): OutboxEntry<'write'> {
  return {
    ...outKey({...item, change_id: item.entries[0].change_id}),
    kind: 'write',
    job: JOB[item.phase],
    request: {sheet: item.sheet, sent},
    time,
  };
}

/**
 * The phase whose request left with no answer recorded: its outbox entry's job. A row typed
 * CANCELLED meanwhile is still read back: a cancel cannot stop a request that left, and the
 * row must say what became of it (and its revert still go).
 */
export function outPhase(
  entry: ScheduledEntry,
  outbox: Outbox,
): Phase | undefined {
  const out = outbox.find('write', outKey(entry));
  if (!out) return undefined;
  return out.job === JOB.revert ? 'revert' : 'apply';
}

/**
 * The requests an earlier release marked as out in the stored change's message (ERROR, or
 * typed CANCELLED since, "Unknown outcome: …"), as outbox entries: read in once (Outbox.upgrade),
 * never again (what it sent is not known: `sent` is empty, and the read-back needs only the
 * stored before and after).
 */
export function earlierOut(
  entries: readonly ScheduledEntry[],
): Array<OutboxEntry<'write'>> {
  const out = new Map<string, OutboxEntry<'write'>>();
  for (const entry of entries) {
    if (entry.status !== 'ERROR' && entry.status !== 'CANCELLED') continue;
    const phase = (['apply', 'revert'] as const).find(p =>
      entry.message.startsWith(UNKNOWN[p]),
    );
    if (!phase) continue;
    const key = outKey(entry);
    out.set(JSON.stringify([key.change, key.account, key.record]), {
      ...key,
      kind: 'write',
      job: JOB[phase],
      request: {sheet: entry.sheet, sent: []},
      time: '',
    });
  }
  return [...out.values()];
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
export function graceMs(platform: Platform): number {
  const hours =
    new SettingsStore(platform.userProperties).scheduledGraceHours(
      platform.documentId(),
    ) ?? DEFAULT_GRACE_HOURS;
  return hours * 3600_000;
}

/** When an item is due: its apply_at, or its revert_at. */
export function timeOf(item: Item): number {
  const [entry] = item.entries;
  return item.phase === 'apply' ? entry.applyAt : entry.revertAt;
}

/**
 * The items in rounds, a record at most once a round: a second change of a record is read
 * again once the first is settled, never decided on the same read.
 */
export function roundsOf(items: readonly Item[]): Item[][] {
  const rounds: Item[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const key = JSON.stringify([item.sheet, item.account, item.record]);
    const r = seen.get(key) ?? 0;
    seen.set(key, r + 1);
    (rounds[r] ??= []).push(item);
  }
  return rounds;
}
