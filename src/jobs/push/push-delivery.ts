/**
 * How a write goes out, a push's (push.ts) and a due scheduled change's (scheduled/send.ts)
 * alike: fetchAll batches inside the time budget, what became of each unit, its History, and
 * the settling of writes whose answer was lost by reading their records back in the same run.
 */
import {OutcomeUnknownError} from '../../api/errors';
import {hasVerdict} from '../../api/retry';
import type {Platform} from '../../platform/ports';
import {
  ReadBackStep,
  ReadBackVerdict,
  historyOutcomeOf,
  marksAfter,
  stepAfter,
} from '../../rules/read-back';
import {contentOf, sameContent} from '../../sheets/rows';
import {fieldChanges} from '../../sheets/history-fields';
import type {HistoryChange, HistoryOutcome} from '../../sheets/history';
import {RecordState, recordWith} from '../../sheets/pulled';
import {Outbox, writeKey} from '../../state/outbox';
import {rememberSent} from '../../state/server-click-memory';
import {editableOf} from '../../sheets/schema';
import type {StateBook} from '../../state/book';
import type {SyncStatus} from '../../sheets/status';
import type {ApiClient} from '../../api/client';
import {
  ReadBackResult,
  readBack,
  readBackSays,
  sentAgain,
  serverRecord,
  verdictOn,
} from '../read-back';
import type {Delivered, PushSpec, Sending} from './push-spec';
import type {Job} from '../kernel';
import type {TimeBudget} from '../run';
import {accountLabel} from '../connect';

/**
 * What became of a unit, for a caller with words of its own (a scheduled run's statuses): sent
 * and accepted; refused; settled by reading it back after a lost answer (its step: a lost
 * answer is always read back in the run that lost it, so no unit ends merely lost); or not sent
 * (the time ran out, the server changed since the pull, or it could not be read first).
 */
export type Outcome =
  | {kind: 'sent'}
  | {kind: 'refused'; error: Error}
  | {
      kind: 'read back';
      step: Exclude<ReadBackStep, 'send again'>;
      verdict: ReadBackVerdict;
    }
  | {kind: 'not sent'; why: 'time' | 'changed' | 'unread'};

/** What a unit's rows are to say, as the delivery decided it (a push's words): the job writes it. */
export interface Told<Q> {
  unit: Sending<Q>;
  status: SyncStatus;
  message: string;
  outcome: Outcome;
}

/** The message of a failed push, and what the next push does with the row. */
function refusalWords(error: Error): string {
  return hasVerdict(error)
    ? `${error.message}: change the row to send it again.`
    : `${error.message}: the next push sends it again.`;
}

export interface DeliveryDeps<Q> {
  /** The client of a record's account: its requests are signed with its keys (DESIGN 4.4). */
  clientFor(account: string): ApiClient;
  /** Requests a fetchAll batch carries. */
  batchSize: number;
  book: StateBook;
  /** Where each batch is posted before it leaves (state/outbox.ts). */
  outbox: Outbox;
  budget: TimeBudget;
  totalRows: number;
  /** The job its outbox entries name (a scheduled run's phase); spec.job else. */
  job?: string;
  /** The entry point whose progress it reports (the sidebar shows it); spec.job else. */
  progress?: string;
  /** The History of what it delivered. */
  log: {add(changes: readonly HistoryChange[]): void};
  /** A delivered record as History tells it (a push's guard, a scheduled run's words); none: not logged. */
  history?(delivered: Delivered, told: Told<Q>): Delivered | undefined;
  /**
   * Run once a chunk is posted to the outbox and before it is saved: answers the units that may
   * leave; the others are withdrawn, never sent (a scheduled run's rows deleted meanwhile).
   */
  takeOff?(chunk: ReadonlyArray<Sending<Q>>): ReadonlyArray<Sending<Q>>;
  /** Called once a chunk's outcomes are known, so the job saves them before the next leaves. */
  settled?: () => void;
}

/** What every delivery takes from its job: its accounts' clients, its state book and its time. */
export function jobDeps(
  job: Job,
): Pick<
  DeliveryDeps<unknown>,
  'clientFor' | 'batchSize' | 'book' | 'outbox' | 'budget'
> {
  return {
    clientFor: account => job.connected.clientFor(account),
    batchSize: job.connected.mainClient.batchSize,
    book: job.book,
    outbox: job.outbox,
    budget: job.budget,
  };
}

/**
 * Sends the units in chunks of fetchAll batches inside the time budget, each chunk posted to
 * the outbox and saved before it leaves, and tells what became of each (its rows' words and
 * its Outcome) and its History. A unit whose answer was lost (a dropped batch, a 5xx, a 200
 * that is no envelope: the server may have applied it) is never sent blind: its records are
 * read back by id at once, and settled by the read-back protocol (../read-back.ts): confirmed,
 * sent once more (never a unit delivered `once`), not sent again, or left an unknown outcome
 * that the next run reads back first.
 */
export class Delivery<S, Q> {
  requests = 0;
  remaining = 0;
  /**
   * The new state of each record whose outcome is known (or that was sent back to what it
   * was), by record key: handed to the job's saver, the one place a sheet's state is written.
   */
  readonly states: Record<string, RecordState> = {};
  /** What each unit's rows are to say, in the order decided: the job writes them. */
  readonly told: Array<Told<Q>> = [];
  private done = 0;
  private readonly accepted: Array<Sending<Q>> = [];

  constructor(
    private readonly platform: Platform,
    private readonly spec: PushSpec<S, Q>,
    private readonly deps: DeliveryDeps<Q>,
  ) {}

  run(units: ReadonlyArray<Sending<Q>>): void {
    this.report();
    if (units.length === 0) return;
    // What the last run lost is read back before anything is sent again.
    let queue = [
      ...this.settle(units.filter(u => u.lost)),
      ...this.current(units.filter(u => !u.lost)),
    ];
    for (;;) {
      const size = this.chunkSize(queue.length);
      // Saved before the chunk leaves, as out, with the outcomes so far (their History too).
      const leaving = this.takeOff(queue.slice(0, size));
      queue = queue.slice(size);
      this.deps.settled?.();
      if (leaving.length === 0 && queue.length === 0) break;
      const lost = this.sendChunk(leaving, queue);
      if (!lost) break;
      queue = [...queue, ...this.settle(lost)];
    }
    this.remember();
  }

  /**
   * What the API accepted of a column its lists never return (support_server_click): the one
   * record of it the add-on will have (state/server-click-memory.ts), as the request carried it.
   */
  private remember(): void {
    const at = this.platform.clock.now();
    for (const {header, unlisted} of editableOf(this.spec.schema)) {
      if (!unlisted) continue;
      const taken = this.accepted.flatMap(({record, request}) => {
        const value = (request as Record<string, unknown> | undefined)?.[
          header
        ];
        return value === undefined
          ? []
          : [{id: record.id, value: String(value)}];
      });
      rememberSent(this.deps.book, header, taken, at);
    }
  }

  /**
   * How many of `count` units the next chunk takes: as many fetchAll batches in a row as the
   * slowest batch so far says end in time (every unit of a chunk is posted as out before the
   * first leaves), at least one; one until a batch of this delivery has told how long one
   * takes, so a run killed in its second batch has saved the first.
   */
  private chunkSize(count: number): number {
    const size = this.deps.batchSize;
    let batches = this.requests > 0 ? Math.ceil(count / size) : 1;
    while (batches > 1 && !this.deps.budget.fits(batches)) batches--;
    return Math.max(batches, 1) * size;
  }

  /**
   * Sends a chunk batch by batch; answers the units whose answer was lost, or undefined where
   * the time budget stopped it (what it did not send, and `queue`, told so).
   */
  private sendChunk(
    chunk: ReadonlyArray<Sending<Q>>,
    queue: ReadonlyArray<Sending<Q>>,
  ): Array<Sending<Q>> | undefined {
    const lost: Array<Sending<Q>> = [];
    for (let k = 0; k < chunk.length; k += this.deps.batchSize) {
      const batch = chunk.slice(k, k + this.deps.batchSize);
      const answered = this.deps.budget.batch(() => this.send(batch));
      if (!answered) {
        // What reading back found not applied cannot go again either: grounded with the rest.
        const grounded = [...chunk.slice(k), ...this.settle(lost)];
        this.grounded(grounded);
        this.outOfTime([...grounded, ...queue]);
        return undefined;
      }
      lost.push(...answered);
    }
    return lost;
  }

  /**
   * Posts a chunk's writes to the outbox, their answer unknown: Apps Script may kill the
   * execution while the requests are out (the server applying them), and the next run must then
   * read them back rather than send them a second time. Each outcome settles it. The caller's
   * hook then sees the chunk; what it withdraws never leaves, and its entry goes.
   */
  private takeOff(chunk: ReadonlyArray<Sending<Q>>): ReadonlyArray<Sending<Q>> {
    const sheet = this.spec.schema.name;
    const time = new Date(this.platform.clock.now()).toISOString();
    const job = this.job;
    this.deps.outbox.post(
      chunk.map(unit => ({
        ...this.keyOf(unit),
        kind: 'write' as const,
        job,
        request: {sheet, sent: unit.record.content},
        time,
      })),
    );
    if (!this.deps.takeOff) return chunk;
    const leaving = this.deps.takeOff(chunk);
    for (const unit of chunk) if (!leaving.includes(unit)) this.landed(unit);
    return leaving;
  }

  private get job(): string {
    return this.deps.job ?? this.spec.job;
  }

  /** A unit's outbox key: its record's write, named by its scheduled change where it has one. */
  private keyOf(unit: Sending<Q>) {
    const {account, id} = unit.record;
    return {
      ...writeKey(this.spec.schema.name, account, id),
      ...(unit.change === undefined ? {} : {change: unit.change}),
    };
  }

  /** What became of the unit's write is known: its outbox entry goes. */
  private landed(unit: Sending<Q>): void {
    this.deps.outbox.settle(this.keyOf(unit));
  }

  /**
   * A batch the time budget kept from leaving: its records back to what they were, the one
   * sent again after reading back showed the server does not have it.
   */
  private grounded(chunk: ReadonlyArray<Sending<Q>>): void {
    for (const unit of chunk) {
      this.states[unit.record.key] = unit.again
        ? {...unit.record.base, refused: undefined}
        : unit.record.base;
      this.landed(unit);
    }
  }

  /** Sends one batch; answers the units whose answer was lost. */
  private send(chunk: ReadonlyArray<Sending<Q>>): Array<Sending<Q>> {
    const outcomes = this.spec.send(
      chunk.map(u => ({
        client: this.deps.clientFor(u.record.account),
        body: u.request,
      })),
    );
    this.requests += chunk.length;
    const lost: Array<Sending<Q>> = [];
    chunk.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) {
        this.accept(
          unit,
          unit.again
            ? `Pushed ${unit.sends} (${sentAgain(unit.lost!)}).`
            : `Pushed ${unit.sends}.`,
        );
      } else if (outcome.error instanceof OutcomeUnknownError) {
        lost.push({
          ...unit,
          lost: `the answer was lost (${outcome.error.cause.message})`,
        });
      } else {
        this.fail(unit, outcome.error);
      }
    });
    this.report();
    return lost;
  }

  /**
   * The units to send of those not sent before. A unit that would send, as last pulled,
   * values the user did not touch (spec.resendsPulled: a budget's other groups) is read
   * first: where the server's record changed since the pull, sending would put the pulled
   * values back over that change, so its rows are CONFLICT and nothing is sent. Where the
   * record cannot be read, nothing is sent either: the rows stay EDITED for the next push.
   */
  private current(units: ReadonlyArray<Sending<Q>>): Array<Sending<Q>> {
    const resends = this.spec.resendsPulled;
    // A base read now (a due scheduled change's) is the server's already.
    const check = units.filter(u => !u.fresh && resends?.(u.record));
    if (check.length === 0) return [...units];
    const server = this.read(check);
    const changed = new Set<Sending<Q>>();
    for (const unit of check) {
      // One account's read failing holds back its records alone.
      const failed =
        'failed' in server
          ? server.failed
          : server.unread?.get(unit.record.account)?.failed;
      if (failed !== undefined || 'failed' in server) {
        this.remaining += unit.record.rows.length;
        this.tell(
          unit,
          'EDITED',
          {kind: 'not sent', why: 'unread'},
          `Not sent yet: the push reads the server's ${this.spec.schema.id} ${unit.record.id} first (it sends values you did not edit as last refreshed), and ${failed}. Run the push again.`,
        );
        changed.add(unit);
        continue;
      }
      const rows = server.listed.get(unit.record.key);
      if (!rows) continue;
      // A column the list does not return cannot tell a change: it counts as last pulled.
      const {base} = unit.record;
      const back = serverRecord(this.spec.schema, rows, base.rows).rows;
      if (sameContent(back, contentOf(base.rows))) continue;
      this.tell(
        unit,
        'CONFLICT',
        {kind: 'not sent', why: 'changed'},
        `Not sent: the server changed ${this.spec.schema.id} ${unit.record.id} since the last refresh, and this push would put back what you did not edit as it was then. ${this.spec.refreshTitle} (your edits stay), check them, then push again.`,
      );
      this.done += unit.record.rows.length;
      changed.add(unit);
    }
    return units.filter(u => !changed.has(u));
  }

  /**
   * Reads back the records of units whose answer was lost (read-back.ts) and settles each by
   * its verdict; answers the units to send (again): those the server does not have yet.
   */
  private settle(units: ReadonlyArray<Sending<Q>>): Array<Sending<Q>> {
    if (units.length === 0) return [];
    const server = this.read(units);
    const resend: Array<Sending<Q>> = [];
    for (const unit of units) {
      const {key, content, base, edited} = unit.record;
      const verdict = verdictOn(this.spec.schema, server, {
        key,
        sent: content,
        before: base.rows,
        // A one-row record is judged by what it changed.
        changed: this.spec.schema.rowKey ? [] : edited,
      });
      // A unit delivered once is never sent again, whatever reading back tells.
      const step = stepAfter(
        verdict,
        unit.again === true || unit.once === true,
      );
      if (step === 'send again') {
        resend.push({...unit, again: true});
        continue;
      }
      const marks = marksAfter(step, {sent: content, before: base.rows});
      this.states[key] = recordWith(base, {
        refused: undefined,
        rows: marks.rows,
      });
      // Still unknown: its entry stays, and the next push reads it back first.
      if (!marks.unknown) this.landed(unit);
      this.settled(unit, step, verdict);
    }
    return resend;
  }

  /** A unit's rows, its History and its counts, once reading back settled it. */
  private settled(
    unit: Sending<Q>,
    step: Exclude<ReadBackStep, 'send again'>,
    verdict: ReadBackVerdict,
  ): void {
    const says = readBackSays(
      verdict,
      `${this.spec.schema.id} ${unit.record.id}`,
    );
    const words: Record<typeof step, string> = {
      confirm: `Pushed ${unit.sends}: ${unit.lost}; ${says}.`,
      // Sending it again would overwrite what the server holds now (and restart a tracking
      // link's test): a re-run sends nothing, and a refresh shows the server's.
      'keep as sent': `Unknown outcome: ${unit.lost}, and ${says}: not sent again. Refresh to see what the server has; change the row to send it again.`,
      'send next time':
        verdict.verdict === 'not applied'
          ? `Not applied: ${unit.lost}, and ${says}: the next push sends it again.`
          : `Unknown outcome: ${unit.lost}, and ${says}. The next push sends it again${this.spec.againNote ?? ''}.`,
      'read next time': `Unknown outcome: ${unit.lost}; ${says}: the next push reads it back before sending anything.`,
    };
    const outcome = historyOutcomeOf(step, verdict);
    if (outcome === 'OK') this.accepted.push(unit);
    this.finish(unit, outcome === 'OK' ? 'OK' : 'ERROR', words[step], outcome, {
      kind: 'read back',
      step,
      verdict,
    });
  }

  /** The server's records of the units, each account's read with its keys. */
  private read(units: ReadonlyArray<Sending<Q>>): ReadBackResult {
    const back = readBack(
      this.spec,
      units.map(u => u.record),
      {
        clientFor: this.deps.clientFor,
        context: this.platform.workbook(),
        budget: this.deps.budget,
      },
    );
    this.requests += back.requests;
    return back;
  }

  private accept(unit: Sending<Q>, message: string): void {
    this.settleState(unit, unit.record.content);
    this.accepted.push(unit);
    this.finish(unit, 'OK', message, 'OK', {kind: 'sent'});
  }

  /** A refusal with a verdict on the values is not sent again unchanged. */
  private fail(unit: Sending<Q>, error: Error): void {
    const {base, content} = unit.record;
    this.settleState(
      unit,
      base.rows,
      hasVerdict(error) ? {refused: content} : {},
    );
    this.finish(unit, 'ERROR', refusalWords(error), 'ERROR', {
      kind: 'refused',
      error,
    });
  }

  /** The record's new state: what the server has now, and what the last push left open. */
  private settleState(
    unit: Sending<Q>,
    rows: string[][],
    open: Pick<RecordState, 'refused'> = {},
  ): void {
    this.states[unit.record.key] = {
      ...unit.record.base,
      refused: undefined,
      rows,
      ...open,
    };
    this.landed(unit);
  }

  private outOfTime(queue: ReadonlyArray<Sending<Q>>): void {
    for (const unit of queue) {
      this.remaining += unit.record.rows.length;
      this.tell(
        unit,
        'EDITED',
        {kind: 'not sent', why: 'time'},
        'Not sent yet: the time ran out. Run the push again to send it.',
      );
    }
  }

  /** A unit's write came to an end: its rows, and its History as the caller tells it. */
  private finish(
    unit: Sending<Q>,
    status: SyncStatus,
    message: string,
    outcome: HistoryOutcome,
    kind: Outcome,
  ): void {
    const told = this.tell(unit, status, kind, message);
    const delivered = {record: unit.record, outcome, message};
    const logged = this.deps.history
      ? this.deps.history(delivered, told)
      : delivered;
    if (logged) this.deps.log.add(historyOf(this.spec, logged));
    this.done += unit.record.rows.length;
  }

  private tell(
    unit: Sending<Q>,
    status: SyncStatus,
    outcome: Outcome,
    message: string,
  ): Told<Q> {
    const told = {unit, status, message, outcome};
    this.told.push(told);
    return told;
  }

  private report(): void {
    this.platform.progress.report(
      this.deps.progress ?? this.spec.job,
      this.done,
      this.deps.totalRows,
    );
  }
}

/** A delivered record's History rows: a row per field its write changed. */
function historyOf<S, Q>(
  spec: PushSpec<S, Q>,
  delivered: Delivered,
): HistoryChange[] {
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
