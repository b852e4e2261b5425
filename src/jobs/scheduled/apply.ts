/**
 * applyScheduledChanges (DESIGN 4.5, issue 27): sends the Scheduled rows that are due, first
 * thing in every scheduled run and from the menu.
 *
 * - Each record is read first (one list request per 50 records of one account): where the
 *   server still holds every `before` of the change, the record's request is rebuilt from what
 *   the server holds with those fields set to `after` (a budget group added on the server
 *   since is kept); where it does not, the rows are CONFLICT and nothing is sent for it. At
 *   `revert_at`, the same the other way round, REVERTED once accepted.
 * - A field the server does not list (an offer's support_server_click) is read as the add-on
 *   last sent it, and the row says so: compared and resent as the add-on knows it, never
 *   claimed to be the server's. One whose value before the change was not known is not put
 *   back at revert_at (ERROR, saying so): the revert sends it as it is.
 * - The due changes are read together (a record at most once a round: a second change of it is
 *   read again once the first is settled), then sent in chunks of as many fetchAll batches as
 *   the slowest batch so far says end in time, inside the job's time budget: near Apps Script's
 *   limit nothing more starts, the rest stay as they were (WAITING) and the summary says how
 *   many; the next run continues.
 * - A chunk's rows are marked before its requests leave (ERROR, "Unknown outcome: …"), through
 *   the one writer, on the rows that hold each change's identity then; a row deleted or typed
 *   CANCELLED meanwhile is not sent. Each row is settled once its answer is in, written with
 *   the next chunk's marks before that chunk leaves: a run killed midway never sends a change
 *   again, and the next run reads the record to tell what became of it. A lost answer stays
 *   so, for the next run; one reading back tells nothing of (unlisted, unread), until the
 *   grace after its time.
 * - A change whose time passed more than the grace ago (6 hours unless set) is ERROR "missed
 *   its time", never sent late. CANCELLED rows, and deleted ones, are never sent.
 * - Every write is a History row, job `scheduled push` or `scheduled revert`, signed, like
 *   every request, by the record's account.
 */
import {ConfigError, OutcomeUnknownError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {keyParts, recordKey} from '../../sheets/accounts';
import type {HistoryOutcome} from '../../sheets/history';
import {
  FieldChange,
  fieldTexts,
  historyText,
  shiftContent,
  splitField,
} from '../../sheets/history-fields';
import {EMPTY, contentOf} from '../../sheets/rows';
import {Column, editableOf} from '../../sheets/schema';
import {
  ScheduledEntry,
  ScheduledSheet,
  ScheduledStatus,
} from '../../sheets/scheduled';
import {counted} from '../../text/wording';
import {ChangeLog} from '../change-log';
import {accountOfLabel} from '../connect';
import {failureMessage} from '../host/menu-messages';
import {readBack, readBackSays} from '../read-back';
import {ReadBackVerdict, judgeReadBack} from '../../rules/read-back';
import {Job, RunOptions, withJob} from '../kernel';
import {BUDGETS_PUSH} from '../push/push-budgets';
import {CAMPAIGNS_PUSH} from '../push/push-campaigns';
import type {PushSpec} from '../push/push-spec';
import {trackingPush} from '../push/push-tracking';
import type {JobSummary} from '../run';
import {SettingsStore} from '../settings-store';
import {scheduledChangesEmail} from './apply-mail';
import {requestOf} from './as-record';
import {Paired, StoredChanges, differsNote, pairRows} from './stored';
import {zoned} from './when';

export const DEFAULT_GRACE_HOURS = 6;

type AnySpec = PushSpec<never, unknown>;

/** The pushes whose changes can be scheduled, each known by its sheet. */
function specsOf(platform: Platform): readonly AnySpec[] {
  return [
    BUDGETS_PUSH,
    CAMPAIGNS_PUSH,
    // Applying builds nothing from the sheet: the default that stood in is a row of the change.
    trackingPush('', () => platform.clock.now()),
  ] as unknown as readonly AnySpec[];
}

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
  /** Fields due that no chunk reached before the time budget ran out: for the next run. */
  left: number;
  /** Fields whose rows were deleted or typed over while the run read: not sent. */
  withdrawn: number;
  /** Fields whose records could not be read first: as they were, for the next run. */
  unread: number;
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
      left: 0,
      withdrawn: 0,
      unread: 0,
      problems: [],
    };
    const sheet = ScheduledSheet.open(job.workbook, false, () =>
      platform.clock.now(),
    );
    const stored = StoredChanges.open(job.book);
    const paired = pairRows(stored, sheet);
    const view = viewOf(sheet, stored);
    // Only this person's changes: they go out with the keys of whoever scheduled them.
    const store = new SettingsStore(platform.userProperties);
    const documentId = platform.documentId();
    const mine = new Set(store.scheduledChanges(documentId));
    const entries = stored.entries.filter(e => mine.has(e.change_id));
    const items = dueItems(entries, platform.clock.now());
    if (items.length > 0) applyItems(job, view, items, tally);
    showDiffers(job, view, paired);
    view.flush();
    const open = new Set(entries.filter(isOpen).map(e => e.change_id));
    if (open.size < mine.size) store.setScheduledChanges(documentId, [...open]);
    // What will send nothing any more is kept a week, for its row to be shown as stored
    // (typed over since, or not written while it was typed over).
    const now = platform.clock.now();
    stored.prune(e => isOpen(e) || now - lastTime(e) < KEPT_CLOSED_MS);
    const summary = job.summary({
      sheet: 'Scheduled',
      ok: tally.applied + tally.reverted,
      invalid: 0,
      error: tally.error,
      skipped: tally.withdrawn + tally.unread,
      remaining: tally.left,
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
    tally.withdrawn > 0
      ? `${counted(tally.withdrawn, 'field')} not sent (${tally.withdrawn === 1 ? 'its row was' : 'their rows were'} deleted or typed over while the run read the server)`
      : '',
    tally.left > 0
      ? `${counted(tally.left, 'field')} left for lack of time (as they were: the next run sends ${tally.left === 1 ? 'it' : 'them'})`
      : '',
    tally.unread > 0
      ? `${counted(tally.unread, 'field')} not sent yet (${tally.unread === 1 ? 'its record' : 'their records'} could not be read first: the next run tries again)`
      : '',
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
  // The earliest due first: a run the time budget stops leaves the latest for the next one.
  // At one instant a put-back goes first: the change after it finds the value it expects.
  return [...items.values()].sort(
    (a, b) =>
      timeOf(a) - timeOf(b) ||
      Number(a.phase === 'apply') - Number(b.phase === 'apply'),
  );
}

const KEPT_CLOSED_MS = 7 * 24 * 3600_000;

/** The last time of a field: its revert_at, else its apply_at. */
function lastTime(entry: ScheduledEntry): number {
  return Number.isNaN(entry.revertAt) ? entry.applyAt : entry.revertAt;
}

/** Whether a row may still send something: waiting, to put back, or its outcome unknown. */
function isOpen(entry: ScheduledEntry): boolean {
  if (entry.status === 'WAITING') return true;
  if (entry.status === 'OK') return !Number.isNaN(entry.revertAt);
  return outPhase(entry) !== undefined;
}

function phaseOf(entry: ScheduledEntry, now: number): Phase | undefined {
  if (entry.status === 'WAITING' && entry.applyAt <= now) return 'apply';
  if (entry.status === 'OK' && entry.revertAt <= now) return 'revert';
  return outPhase(entry);
}

/**
 * The phase whose request left with no answer recorded. A row typed CANCELLED meanwhile is
 * still read back: a cancel cannot stop a request that left, and the row must say what
 * became of it (and its revert still go).
 */
function outPhase(entry: ScheduledEntry): Phase | undefined {
  if (entry.status !== 'ERROR' && entry.status !== 'CANCELLED')
    return undefined;
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

/** The stored fields and the Scheduled rows that show them, marked together. */
interface View {
  mark(entry: ScheduledEntry, status: ScheduledStatus, message: string): void;
  /** Adds to a row's message what the store does not keep (how the row differs from it). */
  note(entry: ScheduledEntry, words: string): void;
  /** Writes the rows; answers those not written (deleted or typed over since the read). */
  flush(): Set<number>;
  /** The fields marked in this run. */
  marked: Set<ScheduledEntry>;
}

function viewOf(sheet: ScheduledSheet | null, stored: StoredChanges): View {
  const show = (
    entry: ScheduledEntry,
    status: ScheduledStatus,
    message: string,
  ) => {
    if (sheet && entry.index >= 0) sheet.mark({...entry}, status, message);
  };
  const marked = new Set<ScheduledEntry>();
  return {
    marked,
    mark: (entry, status, message) => {
      marked.add(entry);
      stored.mark(entry, status, message);
      show(entry, status, message);
    },
    note: (entry, words) =>
      show(entry, entry.status as ScheduledStatus, `${entry.message} ${words}`),
    flush: () => new Set(sheet?.flush().map(e => e.index)),
  };
}

/**
 * Each row typed over says so, and what is stored: what goes out. A row typed CANCELLED
 * after its request had left shows what became of it, and that it was too late.
 */
function showDiffers(
  job: Job,
  view: View,
  {differs, late, noted}: Paired,
): void {
  for (const [entry, fields] of differs) {
    if (noted.has(entry) && !view.marked.has(entry)) continue;
    view.note(entry, differsNote(job.workbook, entry, fields));
  }
  for (const entry of late)
    view.note(
      entry,
      'Its row was typed CANCELLED after its request had left: too late to stop it.',
    );
}

/** What a run carries from chunk to chunk. */
interface Run {
  specs: readonly AnySpec[];
  /** How late a due change may still go out, in ms. */
  grace: number;
  mark: Mark;
  logs: Record<Phase, ChangeLog>;
  tally: Tally;
}

type Mark = (
  item: Item,
  status: ScheduledStatus,
  message: string,
  counts?: boolean,
) => void;

/** Marks an item's rows, counting them in the tally unless told not to (a passing mark). */
function marker(view: View, tally: Tally): Mark {
  return (item, status, message, counts = true) => {
    for (const entry of item.entries) view.mark(entry, status, message);
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
}

function applyItems(
  job: Job,
  view: View,
  items: readonly Item[],
  tally: Tally,
): void {
  const run: Run = {
    specs: specsOf(job.platform),
    grace: graceMs(job.platform),
    mark: marker(view, tally),
    logs: {
      apply: new ChangeLog(job.platform, JOB.apply, job.account),
      revert: new ChangeLog(job.platform, JOB.revert, job.account),
    },
    tally,
  };
  const live = items.filter(item => sendable(job, run, item));
  const rounds = roundsOf(live);
  let done = 0;
  while (done < rounds.length && applyRound(job, view, run, rounds[done]))
    done++;
  for (const item of rounds.slice(done + 1).flat())
    tally.left += item.entries.length;
}

/** Whether an item may go out: else it is marked ERROR (missed its time, no account, …). */
function sendable(job: Job, run: Run, item: Item): boolean {
  const now = job.platform.clock.now();
  const {grace} = run;
  const at = timeOf(item);
  const account = accountOfLabel(item.account);
  const [{revertAt}] = item.entries;
  if (!item.unknown && item.phase === 'apply' && revertAt <= now) {
    run.mark(
      item,
      'ERROR',
      `Missed its window: due at ${zoned(job.workbook, at)} and to be put back at ${zoned(job.workbook, revertAt)}, and no scheduled run came before the put-back. Not sent, nor put back: schedule it again if it is still wanted.`,
    );
    return false;
  }
  if (!item.unknown && now - at > grace) {
    run.mark(
      item,
      'ERROR',
      `Missed its time${item.phase === 'revert' ? ' to be put back' : ''}: due at ${zoned(job.workbook, at)}, and no scheduled run came within ${grace / 3600_000} hours after (the schedule was off or paused, or Google asked for authorization again). ${item.phase === 'revert' ? 'The server keeps the value sent: revert its History change if it should go back.' : 'Not sent: schedule it again if it is still wanted.'}`,
    );
    return false;
  }
  if (account === undefined || !specOf(run.specs, item.sheet)) {
    run.mark(
      item,
      'ERROR',
      account === undefined
        ? `Not sent: "${item.account}" names no account (main account, or sub-account and its name).`
        : `Not sent: changes of ${item.sheet} cannot be scheduled in this version.`,
    );
    return false;
  }
  return true;
}

/**
 * The items in rounds, a record at most once a round: a second change of a record is read
 * again once the first is settled, never decided on the same read.
 */
function roundsOf(items: readonly Item[]): Item[][] {
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

/** A request to send for an item, and what its rows said before they were marked. */
interface Pending {
  spec: AnySpec;
  item: Item;
  request: unknown;
  /** Added to its rows' message once accepted (how a field the server does not list went). */
  note: string;
  was: Array<[ScheduledStatus, string]>;
}

/**
 * One round: its records read (one list per 50 of an account, together), each item decided,
 * then the requests in chunks (chunkSize), inside the time budget. A chunk's rows are marked
 * as out in the write that settles the chunk before, and it leaves only once that is sent.
 * Answers false when the time budget stopped it, what it did not send counted as left.
 */
function applyRound(
  job: Job,
  view: View,
  run: Run,
  round: readonly Item[],
): boolean {
  const pending = job.budget.batch(() =>
    run.specs.flatMap(spec => {
      const mine = round.filter(item => item.sheet === spec.schema.name);
      if (mine.length === 0) return [];
      const server = readServer(job, spec, mine, run.tally);
      return mine.flatMap(item =>
        decideItem(job, run, spec, item, server(item)),
      );
    }),
  );
  const left = (items: ReadonlyArray<{item: Item}>) => {
    for (const {item} of items) run.tally.left += item.entries.length;
  };
  if (!pending) {
    left(round.map(item => ({item})));
    return false;
  }
  for (let k = 0; k < pending.length;) {
    const chunk = pending.slice(k, k + chunkSize(job, pending.length - k));
    k += chunk.length;
    markOut(job, run, chunk);
    const leaving = settle(job, view, run, chunk);
    const sent = job.budget.batch(() => sendPending(job, run, leaving));
    if (!sent) {
      // Marked as out, never sent: its rows say again what they said, for the next run.
      for (const {item, was} of leaving)
        item.entries.forEach((entry, n) => view.mark(entry, ...was[n]));
      left([...leaving, ...pending.slice(k)]);
      return false;
    }
  }
  settle(job, view, run, []);
  return true;
}

/**
 * How many of `count` requests the next chunk sends: as many fetchAll batches in a row as the
 * slowest batch so far says end before the deadline (every request of a chunk is marked as
 * out before the first leaves), at least one batch.
 */
function chunkSize(job: Job, count: number): number {
  const size = job.connected.mainClient.batchSize;
  let batches = Math.ceil(count / size);
  while (batches > 1 && !job.budget.fits(batches)) batches--;
  return batches * size;
}

/** An item's decision: marked, where nothing goes out; else its request, pending. */
function decideItem(
  job: Job,
  run: Run,
  spec: AnySpec,
  item: Item,
  server: Server,
): Pending[] {
  const decided = decide(job, run.grace, spec, item, server);
  if (!('request' in decided)) {
    // A status kept as it was (the record not read) is no outcome: counted apart.
    const kept = !item.unknown && decided.status === item.entries[0].status;
    if (kept) run.tally.unread += item.entries.length;
    run.mark(item, decided.status, decided.message, !kept);
    // A lost request settled by reading back: History says what became of it (a run killed
    // while it was out recorded nothing of it).
    if (decided.history) logItem(run, item, decided.history, decided.message);
    if (decided.accepted) spec.accepted?.(job.book, [decided.accepted]);
    return [];
  }
  const {unsettable} = decided;
  const sent = unsettable
    ? item.entries.filter(e => !unsettable.fields.includes(e.field))
    : item.entries;
  if (unsettable) {
    const kept = item.entries.filter(e => !sent.includes(e));
    run.mark({...item, entries: kept}, 'ERROR', unsettable.message);
  }
  return [
    {
      spec,
      item: {...item, entries: sent},
      request: decided.request,
      note: decided.note,
      was: sent.map(e => [e.status as ScheduledStatus, e.message]),
    },
  ];
}

/** Marks a chunk's rows as sent with no answer recorded: what a run killed now leaves. */
function markOut(job: Job, run: Run, chunk: readonly Pending[]): void {
  const at = zoned(job.workbook, job.platform.clock.now());
  for (const {item} of chunk)
    run.mark(
      item,
      'ERROR',
      `${UNKNOWN[item.phase]} at ${at}, and no answer is recorded: the next run reads the record to tell what became of it.`,
      false,
    );
}

/**
 * Writes and sends every mark so far, with History and the state: the outcomes settled, and
 * `chunk` as out. Answers the chunk less the items a row of which was not written (deleted,
 * or typed CANCELLED, since the read), which are withdrawn: not sent.
 */
function settle(
  job: Job,
  view: View,
  run: Run,
  chunk: readonly Pending[],
): Pending[] {
  const missed = view.flush();
  run.logs.apply.flush(job.workbook);
  run.logs.revert.flush(job.workbook);
  job.saveState();
  return chunk.filter(p => {
    if (!p.item.entries.some(e => missed.has(e.index))) return true;
    withdraw(view, p, run.tally);
    return false;
  });
}

/**
 * An item whose rows were not all marked as out (deleted, or typed CANCELLED, while the run
 * read the server): nothing is sent, and its rows marked meanwhile say again what they said.
 */
function withdraw(view: View, {item, was}: Pending, tally: Tally): void {
  item.entries.forEach((entry, k) => view.mark(entry, ...was[k]));
  tally.withdrawn += item.entries.length;
}

/** When an item is due: its apply_at, or its revert_at. */
function timeOf(item: Item): number {
  const [entry] = item.entries;
  return item.phase === 'apply' ? entry.applyAt : entry.revertAt;
}

function specOf(specs: readonly AnySpec[], sheet: string): AnySpec | undefined {
  return specs.find(spec => spec.schema.name === sheet);
}

/** What the server holds of a record, as canonical content. */
interface Held {
  content: string[][];
  /** A field the server did not list: its cells hold what the add-on last sent. */
  unlisted?: string;
}

/** What the server holds of the records, by record key; or why it could not be read. */
type Server = Map<string, Held> | {failed: string};

/**
 * What the server holds of each item's record, by record key (a field the list does not
 * return as the add-on last sent it, where the spec knows it: `unlisted`); or why it could not
 * be read: the whole read, or the item's account's alone.
 */
function readServer(
  job: Job,
  spec: AnySpec,
  items: readonly Item[],
  tally: Tally,
): (item: Item) => Server {
  const back = readBack(
    spec,
    items.map(i => ({account: accountOfLabel(i.account)!, id: i.record})),
    {
      clientFor: account => job.connected.clientFor(account),
      context: job.workbook,
    },
  );
  tally.requests += back.requests;
  if ('failed' in back) {
    const failed = {failed: failureMessage(back.error)};
    return () => failed;
  }
  const {unlisted} = spec;
  const at = editableOf(spec.schema).findIndex(
    c => c.header === unlisted?.header,
  );
  const held = new Map(
    [...back.listed].map(([key, rows]): [string, Held] => {
      const unread = at >= 0 && rows.some(row => row[at] === null);
      const known = unread
        ? unlisted!.known(job.book, keyParts(key).id)
        : undefined;
      const texts = rows.map(row =>
        row.map((text, k) => text ?? (k === at ? known : undefined) ?? EMPTY),
      );
      return [
        key,
        {
          content: contentOf(texts),
          ...(unread ? {unlisted: unlisted!.header} : {}),
        },
      ];
    }),
  );
  // An account whose read failed holds back its own records alone.
  return item => {
    const unread = back.unread?.get(accountOfLabel(item.account)!);
    if (!unread) return held;
    return {
      failed: unread.error ? failureMessage(unread.error) : unread.failed,
    };
  };
}

type Decided =
  | {
      request: unknown;
      note: string;
      /** Fields that cannot go back (not known before the change), and what their rows say. */
      unsettable?: {fields: string[]; message: string};
    }
  | {
      status: ScheduledStatus;
      message: string;
      /** A request read back as applied, for the spec to remember (pushTracking). */
      accepted?: unknown;
      /** A lost request that reading back settled: what History records of it. */
      history?: HistoryOutcome;
    };

/** What to do with one item, from what the server holds. */
function decide(
  job: Job,
  grace: number,
  spec: AnySpec,
  item: Item,
  server: Server,
): Decided {
  const {id, name} = {id: spec.schema.id, name: spec.schema.name};
  if (!(server instanceof Map)) {
    // Nothing left: the rows stay as they were, for the next run (within the grace).
    return item.unknown
      ? unreadLost(job, grace, item, {
          says: `reading it back failed (${server.failed})`,
          open: item.entries[0].message,
        })
      : {
          status: item.entries[0].status as ScheduledStatus,
          message: `Not sent yet: reading ${id} ${item.record} first failed (${server.failed}). The next scheduled run tries again.`,
        };
  }
  const held = server.get(
    recordKey(accountOfLabel(item.account)!, item.record),
  );
  if (!held && item.unknown) {
    const says = readBackSays(
      {verdict: 'cannot tell', because: {unlisted: true}},
      `${id} ${item.record}`,
    );
    return unreadLost(job, grace, item, {
      says,
      open: `${UNKNOWN[item.phase]} with no answer recorded, and ${says}: the next run reads it again.`,
      why: " (deleted, or not this account's)",
    });
  }
  if (!held) {
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
  const blind = (c: {field: string}) =>
    held.unlisted !== undefined && splitField(c.field).header === held.unlisted;
  if (item.unknown) return settleLost(job, spec, item, held, changes, blind);
  // A field the add-on did not know before the change has nothing to go back to.
  const unknownBefore = changes.filter(
    c => item.phase === 'revert' && blind(c) && c.before.trim() === '',
  );
  const moving = changes.filter(c => !unknownBefore.includes(c));
  const unsettable =
    unknownBefore.length > 0
      ? `Not put back: ${held.unlisted} before this change was not known to Offer Desk (the server does not list it, and no push from here had sent it), so there is nothing to put back: it stays as the change set it.`
      : '';
  if (moving.length === 0) return {status: 'ERROR', message: unsettable};
  const shifted = shiftContent(spec.schema, held.content, moving, from, to);
  if (!shifted.ok) {
    const unlisted = shifted.fields.some(field => blind({field}))
      ? `; ${held.unlisted}, which the server does not list, as Offer Desk last sent it`
      : '';
    // The after value is as typed, not as read: the server may keep it in its own form.
    const holds = shifted.fields
      .map(field => {
        const change = moving.find(c => c.field === field)!;
        return `${field} ${fieldTexts(spec.schema, held.content, change)?.now ?? EMPTY}`;
      })
      .join(', ');
    const why =
      item.phase === 'revert'
        ? `: it holds ${holds} (the server's own form of what was sent, or a change made since${unlisted})`
        : ` (changed since it was scheduled${unlisted})`;
    return {
      status: 'CONFLICT',
      message: `Not sent: the server no longer holds the ${from} value of ${shifted.fields.join(', ')} of ${name} ${id} ${item.record}${why}, so nothing was sent for it.`,
    };
  }
  const columns = editableOf(spec.schema) as ReadonlyArray<Column<never>>;
  const k = columns.findIndex(c => c.header === held.unlisted);
  if (k >= 0 && shifted.content.some(row => row[k] === EMPTY)) {
    return {
      status: 'ERROR',
      message: `Not sent: its request must carry ${held.unlisted}, and the value the server holds is not known to Offer Desk (the server does not list it, no push from here has sent it, and this change does not set it). Push it from the ${item.sheet} sheet instead, deciding ${held.unlisted} there.`,
    };
  }
  const note =
    k < 0
      ? ''
      : moving.some(blind)
        ? ` ${held.unlisted} is not listed by the server: its ${from} value was compared with what Offer Desk last sent, not with the server's.`
        : ` ${held.unlisted} went out as Offer Desk last sent it (${historyText(columns[k], shifted.content[0][k])}): the server does not list it.`;
  const built = requestOf(spec, job, {
    account: accountOfLabel(item.account)!,
    id: item.record,
    base: held.content,
    content: shifted.content,
    edited: moving.map(c => splitField(c.field).header),
  });
  if ('refused' in built) {
    return {
      status: 'ERROR',
      message: `Not sent: the rules of ${name} refuse it as it would be now: ${built.refused}`,
    };
  }
  return {
    request: built.request,
    note,
    ...(unknownBefore.length > 0
      ? {
          unsettable: {
            fields: unknownBefore.map(c => c.field),
            message: unsettable,
          },
        }
      : {}),
  };
}

/**
 * An item whose request got no answer, and reading back told nothing (the list failed, or did
 * not return the record: a list may lag behind a write): it stays unknown (`open`), read
 * again by the next run, until the grace after its time; then it is left not known, never
 * sent again, nor read again.
 */
function unreadLost(
  job: Job,
  grace: number,
  item: Item,
  words: {says: string; open: string; why?: string},
): Decided {
  if (job.platform.clock.now() - timeOf(item) <= grace) {
    return {status: 'ERROR', message: words.open};
  }
  return {
    status: 'ERROR',
    message: `Outcome not known: the answer to its request was lost, and ${words.says} within ${grace / 3600_000} hours after its time${words.why ?? ''}. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`,
    history: 'UNKNOWN',
  };
}

/**
 * An item whose request got no answer, read back: settled where the server holds what was
 * sent. A field the server does not list cannot tell: a request is applied whole, so the
 * others decide; an item of that field alone stays ERROR, never sent again.
 */
function settleLost(
  job: Job,
  spec: AnySpec,
  item: Item,
  held: Held,
  changes: readonly FieldChange[],
  blind: (c: {field: string}) => boolean,
): Decided {
  const [from, to] =
    item.phase === 'apply'
      ? (['before', 'after'] as const)
      : (['after', 'before'] as const);
  const checked = changes.filter(c => !blind(c));
  if (checked.length === 0) {
    return {
      status: 'ERROR',
      message: `Outcome not known: the answer to its request was lost, and the server does not list ${held.unlisted}, so reading the record back cannot tell whether it was applied. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`,
      history: 'UNKNOWN',
    };
  }
  const verdict = judgeLost(spec, held, checked, from, to);
  if (verdict.verdict === 'not applied') {
    return {
      status: 'ERROR',
      message:
        'Not applied: read back, the server does not hold it (its request got no answer). Not sent again: schedule it again if it is still wanted.',
      history: 'ERROR',
    };
  }
  if (verdict.verdict !== 'applied') {
    return {
      status: 'ERROR',
      message: `Outcome not known: the answer to its request was lost, and ${readBackSays(verdict, `${spec.schema.id} ${item.record}`)}. Not sent again: refresh ${item.sheet} and schedule or push it again if it is not as wanted.`,
      history: 'UNKNOWN',
    };
  }
  const unlisted = changes.some(blind)
    ? `; ${held.unlisted}, which the server does not list, is taken as sent with the rest (a request is applied whole)`
    : '';
  // What was sent, a field the server does not list included, for the spec to remember.
  const sent = shiftContent(
    spec.schema,
    held.content,
    changes.filter(blind),
    from,
    to,
  );
  const accepted =
    sent.ok &&
    requestOf(spec, job, {
      account: accountOfLabel(item.account)!,
      id: item.record,
      base: sent.content,
      content: sent.content,
      edited: changes.map(c => splitField(c.field).header),
    });
  return {
    status: DONE[item.phase],
    message: `Read back at ${zoned(job.workbook, job.platform.clock.now())}: the server holds it (the answer to its request was lost)${unlisted}.`,
    history: 'OK',
    ...(accepted && 'request' in accepted ? {accepted: accepted.request} : {}),
  };
}

/**
 * The read-back verdict (rules/read-back.ts) on a lost request, from the fields the server
 * lists: each is what was sent (`to`), what it was (`from`), or neither (the server's own form
 * of it, or a change made since: not known).
 */
function judgeLost(
  spec: AnySpec,
  held: Held,
  checked: readonly FieldChange[],
  from: 'before' | 'after',
  to: 'before' | 'after',
): ReadBackVerdict {
  const fields = checked.map(c => c.field);
  const texts = checked.map(c => fieldTexts(spec.schema, held.content, c));
  // A field of no column holds neither side.
  const side = (s: 'now' | 'before' | 'after') =>
    texts.map(t => (t ? t[s] : s === 'now' ? '' : EMPTY));
  return judgeReadBack({
    fields,
    empty: EMPTY,
    sent: [side(to)],
    before: [side(from)],
    changed: fields,
    server: {rows: [side('now')], blind: new Set()},
  });
}

/**
 * Sends the requests, each signed by its record's account; marks each row's outcome and adds
 * its History rows. Answers true (it ran).
 */
function sendPending(job: Job, run: Run, pending: readonly Pending[]): true {
  const at = zoned(job.workbook, job.platform.clock.now());
  for (const spec of run.specs) {
    const mine = pending.filter(p => p.spec === spec);
    if (mine.length === 0) continue;
    const outcomes = spec.send(
      mine.map(({item, request}) => ({
        client: job.connected.clientFor(accountOfLabel(item.account)!),
        body: request,
      })),
    );
    run.tally.requests += mine.length;
    const accepted: unknown[] = [];
    outcomes.forEach((outcome, k) => {
      const {item, request, note, was} = mine[k];
      const log = run.logs[item.phase];
      let history: HistoryOutcome;
      let message: string;
      if (outcome.ok && item.phase === 'revert') {
        // The row keeps the record of the send; History cites the change it puts back.
        const [{sentAs, change_id}] = item.entries;
        history = 'OK';
        message = `Put back at ${at}: reverts ${sentAs ? `History change ${sentAs}, ` : ''}scheduled change ${change_id}.${note}`;
        run.mark(
          item,
          'REVERTED',
          `${was[0][1]} Put back at ${at}: History change ${log.changeId}.${note}`,
        );
        accepted.push(request);
      } else if (outcome.ok) {
        history = 'OK';
        message = `Sent at ${at}: History change ${log.changeId}.${note}`;
        for (const entry of item.entries) entry.sentAs = log.changeId;
        const [{revertAt}] = item.entries;
        run.mark(
          item,
          'OK',
          Number.isNaN(revertAt)
            ? message
            : `${message} To be put back at ${zoned(job.workbook, revertAt)}.`,
        );
        accepted.push(request);
      } else if (outcome.error instanceof OutcomeUnknownError) {
        history = 'UNKNOWN';
        message = `${UNKNOWN[item.phase]} at ${at}, and its answer was lost (${outcome.error.message}): the next run reads the record to tell what became of it. History change ${log.changeId}.`;
        run.mark(item, 'ERROR', message);
      } else {
        history = 'ERROR';
        message = `Refused at ${at}: ${failureMessage(outcome.error)} History change ${log.changeId}.`;
        run.mark(item, 'ERROR', message);
      }
      logItem(run, item, history, message);
    });
    if (accepted.length > 0) spec.accepted?.(job.book, accepted);
  }
  return true;
}

/** An item's History rows, one per field, in its phase's log. */
function logItem(
  run: Run,
  item: Item,
  outcome: HistoryOutcome,
  message: string,
): void {
  run.logs[item.phase].add(
    item.entries.map(e => ({
      account: e.account,
      sheet: e.sheet,
      record: e.record,
      field: e.field,
      before: item.phase === 'apply' ? e.before : e.after,
      after: item.phase === 'apply' ? e.after : e.before,
      outcome,
      message,
    })),
  );
}
