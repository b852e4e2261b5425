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
import type {ReadOnlyEdit} from '../../sheets/read-only';
import {SheetRecord, decodeRecords} from '../../sheets/records';
import {sameContent} from '../../sheets/rows';
import {RecordState, SheetState, recordWith} from '../../sheets/pulled';
import type {StateBook} from '../../state/book';
import {SyncStatus, withoutRunNote} from '../../sheets/status';
import {SheetLayoutError, Table, openTable} from '../../sheets/table';
import {Connected, accountLabel, pulledByThisConnection} from '../connect';
import {Job, RunOptions, withJob} from '../kernel';
import type {RowWrites} from '../row-writes';
import {Delivery, jobDeps} from './push-delivery';
import {
  type Delivered,
  type Guarded,
  type Opened,
  type PushSpec,
  type RowVerdict,
  type Sending,
  openedFor,
} from './push-spec';
import {
  HIDDEN_NOT_SENT,
  askHidden,
  byAccount,
  hiddenUnits,
  whoseRows,
} from './push-accounts';
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
  units: ReadonlyArray<Sending<Q>>,
) => {requests: number; remaining: number; message: string; told: Told};

/** What a step of a push decided its rows say, by row: the saver writes it (Saver.tell). */
export type Told = ReadonlyArray<readonly [number, RowVerdict]>;

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
    const {table, rows, state, plan, typedReadOnly} = planSheet(job, spec);
    const hidden = hiddenUnits(table, plan.units);
    const unsent =
      hidden.length > 0 &&
      !job.dryRun &&
      !askHidden(platform, spec.schema.name, hidden);
    const units = unsent
      ? plan.units.filter(unit => !hidden.includes(unit))
      : plan.units;
    const guard = spec.guard?.(units, platform, job.dryRun);
    const saver = new Saver(job, spec.schema.name, rows, state, plan);
    if (unsent)
      for (const unit of hidden)
        saver.tell(said(unit, 'EDITED', HIDDEN_NOT_SENT));
    const shown = guard?.asked
      ? asTheSheetShows(job, spec, state, guard.send)
      : undefined;
    saver.tell(shown?.told ?? []);
    const sending = shown?.send ?? guard?.send ?? units;
    const sent: {
      requests: number;
      remaining: number;
      message?: string;
      told?: Told;
      states?: Record<string, RecordState>;
    } = job.dryRun
      ? previewSending(spec, sending)
      : later
        ? later(job, rows, sending)
        : deliver(job, spec, sending, guard, saver);
    saver.tell(sent.told ?? []);
    for (const {unit, message} of guard?.held ?? []) {
      saver.tell(keeping(unit, message));
    }
    saver.tell(readOnlyNotes(typedReadOnly, saver.verdicts));
    saver.save('now', sent.states);
    const summary = job.summary({
      ...rows.tally(),
      skipped: plan.unchanged,
      remaining: sent.remaining,
      requests: sent.requests,
      edited: job.dryRun ? rows.count('EDITED') + plan.previewed : undefined,
      wouldSend: job.dryRun ? sending.map(u => u.request) : undefined,
      accounts: byAccount(sending, 'records'),
    });
    const sentence = sent.message ?? summary.message;
    const unseen =
      job.dryRun && hidden.length > 0
        ? ` The filter (Show rows of) hides ${whoseRows(byAccount(hidden, 'rows'))} of them: a push asks first whether to send those.`
        : '';
    return {...summary, message: sentence + unseen + (guard?.note ?? '')};
  });
}

/**
 * The pushed sheet read once, its writer, what was last pulled, and what the push does with
 * its records. Of those only the ones with a read-only cell typed into are kept, for the notes
 * said last: the others (all of a large sheet's that send nothing) are not held in memory
 * while the requests go out.
 */
function planSheet<S, Q>(job: Job, spec: PushSpec<S, Q>) {
  const table = readTable(job.workbook, spec);
  const rows = job.track(table);
  const state = pulledState(job.book, spec, job.connected);
  const records = recordsOf(job, spec, table, state);
  const plan = planPush(
    spec,
    openedFor(spec.rules, {workbook: job.workbook, book: job.book, records}),
    job.dryRun,
  );
  const typedReadOnly = records.filter(r =>
    r.readOnly.some(edits => edits.length > 0),
  );
  return {table, rows, state, plan, typedReadOnly};
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
  units: ReadonlyArray<Sending<Q>>,
): {send: Array<Sending<Q>>; told: Told} {
  const now = new Map(
    recordsOf(job, spec, readTable(job.workbook, spec), state).map(r => [
      r.key,
      r.content,
    ]),
  );
  const told: Array<readonly [number, RowVerdict]> = [];
  const send = units.filter(unit => {
    const content = now.get(unit.record.key);
    if (content && sameContent(content, unit.record.content)) return true;
    told.push(
      ...said(
        unit,
        'EDITED',
        `Not sent: ${spec.schema.id} ${unit.record.id} changed in ${spec.schema.name} while the push's question was open, so what it holds now is not what the push read (nor, for a change the question listed, what you answered for). Push again to send what it holds now.`,
      ),
    );
    return false;
  });
  return {send, told};
}

/** A unit's rows, each told one status and message. */
function said<Q>(unit: Sending<Q>, status: SyncStatus, message: string): Told {
  return unit.record.rows.map(row => [row, {status, message}] as const);
}

/**
 * The one place a push writes what it decided: the rows' statuses (the plan's, then what each
 * later step tells, a later word over an earlier one) and the sheet's state (the plan's taken
 * records, then the states the delivery settled), saved with the job.
 */
class Saver<S, Q> {
  private readonly said: Map<number, RowVerdict>;
  private readonly written = new Map<number, RowVerdict>();

  constructor(
    private readonly job: Job,
    private readonly sheet: string,
    private readonly rows: RowWrites<S>,
    private readonly state: SheetState,
    private readonly plan: PushPlan<Q>,
  ) {
    this.said = new Map(plan.verdicts);
  }

  /** What the rows say so far. */
  get verdicts(): ReadonlyMap<number, RowVerdict> {
    return this.said;
  }

  tell(told: Told): void {
    for (const [row, verdict] of told) this.said.set(row, verdict);
  }

  /** Gives the rows what was told since the last save, the state `states`, and saves. */
  save(
    when: 'now' | 'when due',
    states: Readonly<Record<string, RecordState>> = {},
  ): void {
    for (const [index, verdict] of this.said) {
      if (this.written.get(index) === verdict) continue;
      this.written.set(index, verdict);
      this.rows.status(index, verdict.status, verdict.message);
    }
    Object.assign(this.state.records, this.plan.taken, states);
    const taken = Object.keys(this.plan.taken).length > 0;
    if (!this.job.dryRun && (this.plan.units.length > 0 || taken)) {
      this.job.book.set(this.sheet, this.state);
    }
    this.job.save(when);
  }
}

/** What was sent: nothing, in a preview, whose rows say what a push would send. */
function previewSending<S, Q>(
  spec: PushSpec<S, Q>,
  sending: ReadonlyArray<Sending<Q>>,
): {requests: number; remaining: number; told: Told} {
  const told = sending.flatMap(unit => {
    const first = unit.lost
      ? `reads ${spec.schema.id} ${unit.record.id} back (${unit.lost}), then sends ${unit.sends} if it still differs`
      : `sends ${unit.sends}`;
    return keeping(unit, `Preview: a push ${first}.`);
  });
  return {requests: 0, remaining: 0, told};
}

/**
 * Sends the units in batches; each batch's outcomes are saved before the next goes out.
 * Answers, with its counts, the records' new states for the last save.
 */
function deliver<S, Q>(
  job: Job,
  spec: PushSpec<S, Q>,
  sending: ReadonlyArray<Sending<Q>>,
  guard: Guarded<Q> | undefined,
  saver: Saver<S, Q>,
): {
  requests: number;
  remaining: number;
  states: Record<string, RecordState>;
} {
  let heard = 0;
  // The rows say what the delivery told of them since the last save.
  const tell = () => {
    for (const {unit, status, message} of delivery.told.slice(heard))
      saver.tell(said(unit, status, message));
    heard = delivery.told.length;
  };
  const delivery = new Delivery(job.platform, spec, {
    ...jobDeps(job),
    totalRows: sending.reduce((n, u) => n + u.record.rows.length, 0),
    log: job.log,
    ...(guard ? {history: (d: Delivered) => guard.history(d)} : {}),
    settled: () => {
      tell();
      saver.save('when due', delivery.states);
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
    plan.taken[record.key] = recordWith(record.base!, {rows: record.content});
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
function keeping<Q>(unit: Sending<Q>, note: string): Told {
  return unit.record.rows.map((row, k) => {
    const {status, message} = unit.record.said[k];
    if (!KEPT_BY_NOTE.has(status)) {
      return [row, {status: 'EDITED', message: note}] as const;
    }
    return [
      row,
      {
        status: status as SyncStatus,
        message: `${withoutRunNote(message)} ${note}`,
      },
    ] as const;
  });
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
function readOnlyNotes(
  records: readonly SheetRecord[],
  verdicts: ReadonlyMap<number, RowVerdict>,
): Told {
  return records.flatMap(({rows, readOnly}) =>
    rows.flatMap((row, k): Told => {
      if (readOnly[k].length === 0) return [];
      const note = readOnly[k].map(readOnlyNote).join('; ');
      const verdict = verdicts.get(row);
      return [
        [
          row,
          verdict && verdict.status !== ''
            ? {...verdict, message: `${verdict.message} ${note}.`}
            : {status: 'INVALID', message: `${note}.`},
        ],
      ];
    }),
  );
}

function readOnlyNote(edit: ReadOnlyEdit): string {
  if (edit.header === undefined) {
    return "A read-only cell of this row was changed: nothing sends it, and the next refresh puts the server's value back";
  }
  return `${edit.header} is read-only: your value ${excerpt(edit.value)} is not sent, and will be replaced by the server's at the next refresh`;
}
