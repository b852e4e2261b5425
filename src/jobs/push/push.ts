/**
 * What every push shares (DESIGN 3, issue 5): read the sheet once, find the records whose
 * editable cells differ from what was last pulled (sheets/pulled.ts), check them, send the valid ones
 * in fetchAll batches inside the time budget, and write sync_status / sync_message /
 * synced_at of every row touched in one block.
 *
 * - Unchanged records send nothing; a re-run after success sends nothing, after a partial
 *   failure only what is still pending (a success updates what was last pulled). Rows the API
 *   refused with a verdict on the values (retry.ts hasVerdict) are not sent again unchanged:
 *   they keep their ERROR until the user changes them or a refresh; any other failure is sent
 *   again by the next push, and every ERROR message says which of the two it is.
 * - A write whose answer was lost (a dropped batch, a 5xx, a 200 that is no envelope) is never
 *   sent blind: its records are read back by id (push-delivery.ts, by the read-back protocol
 *   of ../read-back.ts that a create's tracking shares).
 * - A value typed into a read-only column is named in the row's message (read-only.ts).
 * - A record maintained by the account manager (maintain_by AM) is refused, never sent.
 * - Given a time (`at`), it sends nothing: what it would send is scheduled instead
 *   (scheduled/schedule-push.ts).
 * - `dryRun` marks rows EDITED (would be sent) or INVALID and returns the requests unsent.
 * - Near Apps Script's limit no new batch starts: rows not reached stay EDITED and are counted
 *   in `remaining`; running the push again continues with them.
 */
import {ConfigError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {excerpt} from '../../rules/values';
import {fieldChanges} from '../../sheets/history-fields';
import type {ReadOnlyEdit} from '../../sheets/read-only';
import {SheetRecord, decodeRecords} from '../../sheets/records';
import {sameContent} from '../../sheets/rows';
import type {RecordState, SheetState} from '../../sheets/pulled';
import type {StateBook} from '../../state/book';
import {SyncStatus, withoutRunNote} from '../../sheets/status';
import {SheetLayoutError, Table, openTable} from '../../sheets/table';
import {Connected, accountLabel, pulledByThisConnection} from '../connect';
import {Job, RunOptions, withJob} from '../kernel';
import type {RowWrites} from '../row-writes';
import {Delivery} from './push-delivery';
import {
  type Delivered,
  type Guarded,
  type Opened,
  type PushSpec,
  type RowVerdict,
  type Sending,
  openedFor,
} from './push-spec';
import type {JobSummary} from '../run';

/** Statuses that say a row is pending or refused: cleared once the row matches the server. */
const STALE = new Set(['EDITED', 'CONFLICT', 'INVALID', 'ERROR']);

/** Statuses whose message a preview or a guard's hold keeps: they say more than "would be sent" or "held". */
const KEPT_BY_NOTE = new Set(['CONFLICT', 'ERROR']);

/**
 * What a push given a time does instead of sending (jobs/scheduled/schedule-push.ts): it
 * answers the requests sent (none) and the summary's sentence.
 */
export type Later<S, Q> = (
  job: Job,
  rows: RowWrites<S>,
  verdicts: Map<number, RowVerdict>,
  units: ReadonlyArray<Sending<Q>>,
) => {requests: number; remaining: number; message: string};

export function runPush<S, Q>(
  platform: Platform,
  spec: PushSpec<S, Q>,
  options: RunOptions = {},
  later?: Later<S, Q>,
): JobSummary {
  // A time with nowhere to schedule: sending now would be the opposite of what was asked.
  if ((options.at !== undefined || options.until !== undefined) && !later) {
    throw new ConfigError(
      `${spec.job} cannot be scheduled in this version: nothing was sent, and your edits are kept.`,
    );
  }
  return withJob(platform, spec.job, options, job => {
    const {rows, state, records} = decodeSheet(job, spec);
    const plan = planPush(
      spec,
      openedFor(spec.rules, {workbook: job.workbook, book: job.book, records}),
      job.dryRun,
    );
    const guard = spec.guard?.(plan.units, platform, job.dryRun);
    const sending = guard?.asked
      ? asTheSheetShows(job, spec, state, plan.verdicts, guard.send)
      : (guard?.send ?? plan.units);
    const save = saver(job, spec.schema.name, rows, state, plan);
    const sent: {
      requests: number;
      remaining: number;
      message?: string;
      states?: Record<string, RecordState>;
    } = job.dryRun
      ? previewSending(spec, plan.verdicts, sending)
      : later
        ? later(job, rows, plan.verdicts, sending)
        : deliver(job, spec, plan.verdicts, sending, guard, save);
    for (const {unit, message} of guard?.held ?? []) {
      noteKeeping(plan.verdicts, unit, message);
    }
    noteReadOnlyEdits(records, plan.verdicts);
    save('now', sent.states);
    const summary = job.summary({
      ...rows.tally(),
      skipped: plan.unchanged,
      remaining: sent.remaining,
      requests: sent.requests,
      edited: job.dryRun ? rows.count('EDITED') + plan.previewed : undefined,
      wouldSend: job.dryRun ? sending.map(u => u.request) : undefined,
    });
    const said = sent.message ?? summary.message;
    return {...summary, message: said + (guard?.note ?? '')};
  });
}

/** The pushed sheet read once, its writer, what was last pulled, and its records. */
function decodeSheet<S, Q>(job: Job, spec: PushSpec<S, Q>) {
  const table = readTable(job.workbook, spec);
  const rows = job.track(table);
  const state = pulledState(job.book, spec, job.connected);
  return {table, rows, state, records: recordsOf(job, spec, table, state)};
}

function recordsOf<S, Q>(
  job: Job,
  spec: PushSpec<S, Q>,
  table: Table<S>,
  state: SheetState,
): SheetRecord[] {
  return decodeRecords(table, state, job.workbook, {
    label: accountLabel,
    refreshTitle: spec.refreshTitle,
    out: job.outbox.writesOf(spec.schema.name),
  });
}

/**
 * The units whose rows still hold what the push read, the sheet read again after a question:
 * a question waits as long as the person takes, while other editors type on, and what is sent
 * must be what the person answered for and what the sheet shows. A unit changed meanwhile is
 * not sent; its rows stay EDITED for the next push, which reads them afresh.
 */
function asTheSheetShows<S, Q>(
  job: Job,
  spec: PushSpec<S, Q>,
  state: SheetState,
  verdicts: Map<number, RowVerdict>,
  units: ReadonlyArray<Sending<Q>>,
): Array<Sending<Q>> {
  const now = new Map(
    recordsOf(job, spec, readTable(job.workbook, spec), state).map(r => [
      r.key,
      r.content,
    ]),
  );
  return units.filter(unit => {
    const content = now.get(unit.record.key);
    if (content && sameContent(content, unit.record.content)) return true;
    mark(
      verdicts,
      unit,
      'EDITED',
      `Not sent: ${spec.schema.id} ${unit.record.id} changed in ${spec.schema.name} while the push's question was open, so what it holds now is not what the push read (nor, for a change the question listed, what you answered for). Push again to send what it holds now.`,
    );
    return false;
  });
}

function mark<Q>(
  verdicts: Map<number, RowVerdict>,
  unit: Sending<Q>,
  status: SyncStatus,
  message: string,
): void {
  for (const row of unit.record.rows) verdicts.set(row, {status, message});
}

type Save = (
  when: 'now' | 'when due',
  states?: Readonly<Record<string, RecordState>>,
) => void;

/**
 * Gives the rows the verdicts reached since its last call and the sheet's state the records'
 * new states (the plan's taken ones, and `states`: what the delivery settled), then saves the
 * job: the one place a push writes its sheet's state.
 */
function saver<S, Q>(
  job: Job,
  sheet: string,
  rows: RowWrites<S>,
  state: SheetState,
  plan: PushPlan<Q>,
): Save {
  const written = new Map<number, RowVerdict>();
  return (when, states = {}) => {
    for (const [index, verdict] of plan.verdicts) {
      if (written.get(index) === verdict) continue;
      written.set(index, verdict);
      rows.status(index, verdict.status, verdict.message);
    }
    Object.assign(state.records, plan.taken, states);
    const taken = Object.keys(plan.taken).length > 0;
    if (!job.dryRun && (plan.units.length > 0 || taken)) {
      job.book.set(sheet, state);
    }
    job.save(when);
  };
}

/** What was sent: nothing, in a preview, whose rows say what a push would send. */
function previewSending<S, Q>(
  spec: PushSpec<S, Q>,
  verdicts: Map<number, RowVerdict>,
  sending: ReadonlyArray<Sending<Q>>,
): {requests: number; remaining: number} {
  for (const unit of sending) {
    const first = unit.lost
      ? `reads ${spec.schema.id} ${unit.record.id} back (${unit.lost}), then sends ${unit.sends} if it still differs`
      : `sends ${unit.sends}`;
    noteKeeping(verdicts, unit, `Preview: a push ${first}.`);
  }
  return {requests: 0, remaining: 0};
}

/**
 * Sends the units in batches; each batch's outcomes are saved before the next goes out.
 * Answers, with its counts, the records' new states for the last save.
 */
function deliver<S, Q>(
  job: Job,
  spec: PushSpec<S, Q>,
  verdicts: Map<number, RowVerdict>,
  sending: ReadonlyArray<Sending<Q>>,
  guard: Guarded<Q> | undefined,
  save: Save,
): {
  requests: number;
  remaining: number;
  states: Record<string, RecordState>;
} {
  let logged = 0;
  let told = 0;
  // The rows say what the delivery told of them since the last save.
  const tell = () => {
    for (const {unit, status, message} of delivery.told.slice(told))
      mark(verdicts, unit, status, message);
    told = delivery.told.length;
  };
  const delivery = new Delivery(job.platform, spec, {
    clientFor: account => job.connected.clientFor(account),
    batchSize: job.connected.mainClient.batchSize,
    book: job.book,
    outbox: job.outbox,
    budget: job.budget,
    totalRows: sending.reduce((n, u) => n + u.record.rows.length, 0),
    settled: () => {
      const fresh = delivery.delivered.slice(logged);
      logged = delivery.delivered.length;
      job.log.add(
        fresh.flatMap(d => historyOf(spec, guard ? guard.history(d) : d)),
      );
      tell();
      save('when due', delivery.states);
    },
  });
  delivery.run(sending);
  tell();
  return {
    requests: delivery.requests,
    remaining: delivery.remaining,
    states: delivery.states,
  };
}

interface PushPlan<Q> {
  units: Array<Sending<Q>>;
  verdicts: Map<number, RowVerdict>;
  /** Rows of records that send nothing (as pulled, or refused before and unchanged). */
  unchanged: number;
  /**
   * Changes taken as what their records have, sending nothing (pushTracking's kept value):
   * the records' new pulled state, by record key.
   */
  taken: Record<string, RecordState>;
  /** CONFLICT or ERROR rows a preview says would be sent, keeping their status. */
  previewed: number;
  dryRun: boolean;
}

/** What a push does with each record: pure, from the decoded records. */
function planPush<S, Q>(
  spec: PushSpec<S, Q>,
  opened: Opened,
  dryRun: boolean,
): PushPlan<Q> {
  const plan: PushPlan<Q> = {
    units: [],
    verdicts: new Map(),
    unchanged: 0,
    taken: {},
    previewed: 0,
    dryRun,
  };
  for (const record of opened.records) {
    switch (record.kind) {
      case 'refusedBefore':
        plan.unchanged += record.rows.length;
        break;
      case 'unchanged':
        plan.unchanged += record.rows.length;
        record.rows.forEach((row, k) => {
          if (record.out) {
            // Typed back after a lost answer: the server may hold what went out then.
            plan.verdicts.set(row, {
              status: 'ERROR',
              message: `Unknown outcome: the answer to the last push of ${spec.schema.id} ${record.id} was lost, and the row is back as last refreshed, so nothing was sent: the server may hold what was sent then. ${spec.refreshTitle} to see what the server has, then push again.`,
            });
          } else if (STALE.has(record.said[k].status)) {
            plan.verdicts.set(row, {status: '', message: ''});
          }
        });
        break;
      case 'changed':
        planChanged(spec, record, opened, plan);
        break;
      default:
        for (const row of record.rows)
          plan.verdicts.set(row, {status: 'INVALID', message: record.reason!});
    }
  }
  if (dryRun) {
    plan.previewed = plan.units
      .flatMap(u => u.record.said)
      .filter(said => KEPT_BY_NOTE.has(said.status)).length;
  }
  return plan;
}

/** A changed record: its request to send, or why it is refused, or kept as it is. */
function planChanged<S, Q>(
  spec: PushSpec<S, Q>,
  record: SheetRecord,
  opened: Opened,
  plan: PushPlan<Q>,
): void {
  const changed = {
    account: record.account,
    id: record.id,
    key: record.key,
    rows: record.rows,
    said: record.said,
    decoded: record.decoded,
    base: record.base!,
    content: record.content,
    edited: record.edited,
  };
  const built = spec.build(changed, opened);
  if ('kept' in built) {
    plan.unchanged += record.rows.length;
    plan.taken[record.key] = {...record.base!, rows: record.content};
    for (const [row, message] of built.kept)
      plan.verdicts.set(row, {
        status: '',
        message: plan.dryRun ? `Preview: ${message}` : message,
      });
  } else if (built.ok) {
    plan.units.push({
      record: changed,
      request: built.request,
      sends: built.sends,
      ...(record.outcomeUnknown
        ? {lost: 'the answer to the last push was lost'}
        : {}),
    });
  } else {
    for (const [row, message] of built.refused)
      plan.verdicts.set(row, {status: 'INVALID', message});
  }
}

/**
 * The mark of a preview, or of a push whose guard held the unit: EDITED with the note, except
 * on a CONFLICT or ERROR row, which keeps its status and what it said (the server's values, the
 * API's reason), the note after: the row still knows that, and the run changed none of it.
 */
function noteKeeping<Q>(
  verdicts: Map<number, RowVerdict>,
  unit: Sending<Q>,
  note: string,
): void {
  unit.record.rows.forEach((row, k) => {
    const {status, message} = unit.record.said[k];
    if (!KEPT_BY_NOTE.has(status)) {
      verdicts.set(row, {status: 'EDITED', message: note});
      return;
    }
    verdicts.set(row, {
      status: status as SyncStatus,
      message: `${withoutRunNote(message)} ${note}`,
    });
  });
}

/** A delivered record's History rows: a row per field its push changed. */
function historyOf<S, Q>(spec: PushSpec<S, Q>, delivered: Delivered) {
  const {record, outcome, message} = delivered;
  return fieldChanges(spec.schema, record.base.rows, record.content).map(
    change => ({
      account: accountLabel(record.account),
      sheet: spec.schema.name,
      record: record.id,
      ...change,
      outcome,
      message,
    }),
  );
}

function readTable<S, Q>(
  workbook: ReturnType<Platform['workbook']>,
  spec: PushSpec<S, Q>,
): Table<S> {
  let table: Table<S> | null;
  try {
    // A push writes statuses, never a typed cell: formulas only where they judge a value.
    table = openTable(workbook, spec.schema, {
      create: false,
      formulasToJudge: true,
    });
  } catch (e) {
    if (e instanceof SheetLayoutError) throw new ConfigError(e.message);
    throw e;
  }
  if (!table) {
    throw new ConfigError(
      `There is no ${spec.schema.name} sheet yet: run "${spec.refreshTitle}" first, then edit and push.`,
    );
  }
  return table;
}

/** What was last pulled into the sheet, as the account acting now. */
function pulledState<S, Q>(
  book: StateBook,
  spec: PushSpec<S, Q>,
  connected: Connected,
): SheetState {
  const state = pulledByThisConnection(
    book,
    spec.schema.name,
    spec.refreshTitle,
    connected,
  );
  return {...state, records: {...state.records}};
}

/**
 * Rows with a value typed into a read-only column: nothing sends it, and the next refresh
 * replaces it. The row's message says so; a row with nothing else to send is INVALID.
 */
function noteReadOnlyEdits(
  records: readonly SheetRecord[],
  verdicts: Map<number, RowVerdict>,
): void {
  for (const {rows, readOnly} of records) {
    rows.forEach((row, k) => {
      if (readOnly[k].length === 0) return;
      const note = readOnly[k].map(readOnlyNote).join('; ');
      const verdict = verdicts.get(row);
      verdicts.set(
        row,
        verdict && verdict.status !== ''
          ? {...verdict, message: `${verdict.message} ${note}.`}
          : {status: 'INVALID', message: `${note}.`},
      );
    });
  }
}

function readOnlyNote(edit: ReadOnlyEdit): string {
  if (edit.header === undefined) {
    return "A read-only cell of this row was changed: nothing sends it, and the next refresh puts the server's value back";
  }
  return `${edit.header} is read-only: your value ${excerpt(edit.value)} is not sent, and will be replaced by the server's at the next refresh`;
}
