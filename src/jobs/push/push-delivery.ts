/**
 * How a push sends what it built (push.ts): fetchAll batches inside the time budget, a verdict
 * per row, and the settling of writes whose answer was lost by reading their records back.
 */
import {READ_BACK_IDS} from '../../api/paging';
import type {ApiClient} from '../../api/client';
import {OutcomeUnknownError} from '../../api/errors';
import {hasVerdict} from '../../api/retry';
import type {Platform} from '../../platform/ports';
import {canonical, encode} from '../../sheets/codec';
import {recordKey} from '../../sheets/accounts';
import {
  EMPTY,
  columnOf,
  contentOf,
  editableColumns,
  sameContent,
} from '../../sheets/rows';
import type {HistoryOutcome} from '../../sheets/history';
import {readColumn} from '../../sheets/schema';
import type {RecordState, SheetState, StateBook} from '../../sheets/state';
import type {SyncStatus} from '../../sheets/status';
import type {Table} from '../../sheets/table';
import {ChangedRecord, PushSpec, changedHeaders} from './push-spec';
import type {TimeBudget} from '../run';

export interface Unit<Q> {
  record: ChangedRecord;
  request: Q;
  sends: string;
  /** Why its outcome is unknown: its answer was lost (here or at the last push). */
  lost?: string;
  /** Why it is sent again (reading back showed it was not applied): never a third time. */
  again?: string;
}

export interface RowVerdict {
  status: SyncStatus | '';
  message: string;
}

export function mark<Q>(
  verdicts: Map<number, RowVerdict>,
  unit: Unit<Q>,
  status: SyncStatus,
  message: string,
): void {
  for (const row of unit.record.rows) verdicts.set(row, {status, message});
}

/** The message of a failed push, and what the next push does with the row. */
function failureMessage(error: Error): string {
  return hasVerdict(error)
    ? `${error.message}: change the row to send it again.`
    : `${error.message}: the next push sends it again.`;
}

/** A record whose write came to an end in this run: what the History records of it. */
export interface Delivered {
  record: ChangedRecord;
  outcome: HistoryOutcome;
  message: string;
}

export interface DeliveryDeps {
  /** The client of a record's account: its requests are signed with its keys (DESIGN 4.4). */
  clientFor(account: string): ApiClient;
  /** Requests a fetchAll batch carries. */
  batchSize: number;
  book: StateBook;
  budget: TimeBudget;
  totalRows: number;
  /** Called after each batch's outcomes are known, so the job saves them before the next. */
  settled?: () => void;
}

/**
 * Sends the units in fetchAll batches inside the time budget and gives each row its verdict.
 * A unit whose answer was lost (a dropped batch, a 5xx, a 200 that is no envelope: the server
 * may have applied it) is never sent blind: its records are read back by id, and it is
 * confirmed (equal to what was sent), sent once more (still the old values), or left an
 * unknown outcome that the next push reads back first.
 */
export class Delivery<S, Q> {
  requests = 0;
  remaining = 0;
  /** Every record sent (or read back) whose outcome this run settled, in order. */
  readonly delivered: Delivered[] = [];
  private done = 0;
  private readonly accepted: Q[] = [];

  constructor(
    private readonly platform: Platform,
    private readonly spec: PushSpec<S, Q>,
    private readonly table: Table<S>,
    private readonly state: SheetState,
    private readonly verdicts: Map<number, RowVerdict>,
    private readonly deps: DeliveryDeps,
  ) {}

  run(units: ReadonlyArray<Unit<Q>>): void {
    this.report();
    // What the last push lost is read back before anything is sent again.
    let queue = [
      ...this.settle(units.filter(u => u.lost)),
      ...this.current(units.filter(u => !u.lost)),
    ];
    // Saved before the first batch: what reading back settled (its History too), and the
    // batch itself as out.
    if (units.length > 0) {
      this.takeOff(queue);
      this.deps.settled?.();
    }
    while (queue.length > 0) {
      const chunk = queue.slice(0, this.deps.batchSize);
      const lost = this.deps.budget.batch(() => this.send(chunk));
      if (!lost) {
        this.grounded(chunk);
        this.outOfTime(queue);
        break;
      }
      queue = [...queue.slice(chunk.length), ...this.settle(lost)];
      // The next batch is saved as out before its requests leave, with this one's outcomes.
      this.takeOff(queue);
      this.deps.settled?.();
    }
    this.spec.accepted?.(this.deps.book, this.accepted);
  }

  /**
   * Records the next batch's records as sent with their answer unknown: Apps Script may kill
   * the execution while the requests are out (the server applying them), and the next push
   * must then read them back rather than send them a second time. Each outcome replaces it.
   */
  private takeOff(queue: ReadonlyArray<Unit<Q>>): void {
    for (const unit of queue.slice(0, this.deps.batchSize)) {
      this.settleState(unit, unit.record.base.rows, {
        unknown: unit.record.content,
      });
    }
  }

  /**
   * A batch the time budget kept from leaving: its records back to what they were, the one
   * sent again after reading back showed the server does not have it.
   */
  private grounded(chunk: ReadonlyArray<Unit<Q>>): void {
    for (const unit of chunk) {
      this.state.records[unit.record.key] = unit.again
        ? {...unit.record.base, refused: undefined, unknown: undefined}
        : unit.record.base;
    }
  }

  /** Sends one batch; answers the units whose answer was lost. */
  private send(chunk: ReadonlyArray<Unit<Q>>): Array<Unit<Q>> {
    const outcomes = this.spec.send(
      chunk.map(u => ({
        client: this.deps.clientFor(u.record.account),
        body: u.request,
      })),
    );
    this.requests += chunk.length;
    const lost: Array<Unit<Q>> = [];
    chunk.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) {
        this.accept(
          unit,
          unit.again
            ? `Pushed ${unit.sends} (sent again: ${unit.again}).`
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
  private current(units: ReadonlyArray<Unit<Q>>): Array<Unit<Q>> {
    const resends = this.spec.resendsPulled;
    const check = units.filter(u => resends?.(u.record));
    if (check.length === 0) return [...units];
    const server = this.readBack(check);
    const changed = new Set<Unit<Q>>();
    for (const unit of check) {
      if (!(server instanceof Map)) {
        this.remaining += unit.record.rows.length;
        mark(
          this.verdicts,
          unit,
          'EDITED',
          `Not sent yet: the push reads the server's ${this.spec.schema.id} ${unit.record.id} first (it sends values you did not edit as last refreshed), and ${server.failed}. Run the push again.`,
        );
        changed.add(unit);
        continue;
      }
      const rows = server.get(unit.record.key);
      if (!rows) continue;
      // A column the list does not return cannot tell a change: it counts as last pulled.
      const back = this.readBackContent(rows, unit.record.base.rows).content;
      if (sameContent(back, contentOf(unit.record.base.rows))) continue;
      mark(
        this.verdicts,
        unit,
        'CONFLICT',
        `Not sent: the server changed ${this.spec.schema.id} ${unit.record.id} since the last refresh, and this push would put back what you did not edit as it was then. ${this.spec.refreshTitle} (your edits stay), check them, then push again.`,
      );
      this.done += unit.record.rows.length;
      changed.add(unit);
    }
    return units.filter(u => !changed.has(u));
  }

  /**
   * Reads back the records of units whose answer was lost, in one list request per up to 50
   * ids; answers the units to send (again): those the server does not have yet.
   */
  private settle(units: ReadonlyArray<Unit<Q>>): Array<Unit<Q>> {
    if (units.length === 0) return [];
    const server = this.readBack(units);
    if (!(server instanceof Map)) {
      for (const unit of units) this.unknown(unit, server.failed);
      return [];
    }
    const resend: Array<Unit<Q>> = [];
    for (const unit of units) {
      const rows = server.get(unit.record.key);
      if (!rows) {
        this.unknown(
          unit,
          `reading it back did not list ${this.table.schema.id} ${unit.record.id}`,
        );
        continue;
      }
      const again = this.judgeReadBack(unit, rows);
      if (again) resend.push(again);
    }
    return resend;
  }

  /**
   * The server's records of the units by record key; or why they could not be read (no
   * time left, or the list failed).
   */
  private readBack(
    units: ReadonlyArray<Unit<Q>>,
  ): Map<string, S[]> | {failed: string} {
    if (!this.deps.budget.canStart()) {
      return {failed: 'the time ran out before reading it back'};
    }
    const accounts = [...new Set(units.map(u => u.record.account))];
    let listed: S[][][];
    try {
      const back = this.spec.readBack(
        accounts.map(account => ({
          client: this.deps.clientFor(account),
          ids: units
            .filter(u => u.record.account === account)
            .map(u => u.record.id),
        })),
      );
      listed = back.records;
      this.requests += back.requests;
    } catch (e) {
      // Each list's first page went out, at least.
      this.requests += Math.ceil(units.length / READ_BACK_IDS);
      const why = e instanceof Error ? e.message : String(e);
      return {failed: `reading it back failed (${why})`};
    }
    const idColumn = columnOf(this.table, this.table.schema.id);
    return new Map(
      listed.flatMap((records, g) =>
        records.map((rows): [string, S[]] => [
          recordKey(
            accounts[g],
            canonical(
              idColumn,
              encode(idColumn, readColumn(idColumn, rows[0]) ?? null),
              this.platform.workbook(),
            ),
          ),
          rows,
        ]),
      ),
    );
  }

  /**
   * Settles a unit by its record as read back (`rows`): confirmed, not applied, or not
   * telling; answers the unit to send once more when it was not applied the first time.
   */
  private judgeReadBack(unit: Unit<Q>, rows: S[]): Unit<Q> | undefined {
    const back = this.readBackContent(rows, unit.record.content);
    // A one-row record is judged by what it changed: a field changed on the server since
    // the pull is no sign that this push was not applied.
    const changed = this.table.schema.rowKey
      ? []
      : changedHeaders(unit.record, this.table, this.platform.workbook());
    const moved = this.neitherSentNorBefore(back, unit, changed);
    if (moved.length > 0) {
      // Sending it again would overwrite what the server holds now (and restart a tracking
      // link's test); the sent values become the record's, so a re-run sends nothing and a
      // refresh shows the server's.
      this.settleState(unit, unit.record.content);
      this.finish(
        unit,
        'ERROR',
        `Unknown outcome: ${unit.lost}, and reading it back shows ${moved.join(', ')}, neither what was sent nor what it was (the server's own form of it, or a change made since): not sent again. Refresh to see what the server has; change the row to send it again.`,
        'UNKNOWN',
      );
    } else if (!this.holds(back.content, unit.record.content, changed)) {
      if (!unit.again) {
        return {
          ...unit,
          again: `${unit.lost}, and reading it back showed it was not applied`,
        };
      }
      // Known not applied: the next push sends it, as the row says, without reading back.
      this.settleState(unit, unit.record.base.rows);
      this.finish(
        unit,
        'ERROR',
        `Not applied: ${unit.lost}, and reading it back shows the server does not have it: the next push sends it again.`,
        'ERROR',
      );
    } else if (changed.length > 0 && changed.every(h => back.blind.has(h))) {
      // Reading back will never tell: what the server had stays the record's, so the next
      // push sends it rather than reading it back again.
      this.settleState(unit, unit.record.base.rows);
      this.finish(
        unit,
        'ERROR',
        `Unknown outcome: ${unit.lost}, and reading it back cannot tell: the API's list does not return ${changed.join(', ')}. The next push sends it again${this.spec.againNote ?? ''}.`,
        'UNKNOWN',
      );
    } else {
      this.accept(
        unit,
        `Pushed ${unit.sends}: ${unit.lost}; reading it back confirmed it.`,
      );
    }
    return undefined;
  }

  /**
   * The changed columns of a one-row record whose value read back is neither the one sent
   * nor the one it had before (`header value` each): the push was not refused, nor plainly
   * applied. None when another changed column still has its value from before: a PUT is
   * applied whole or not at all, so that one was not applied. Columns the list does not
   * return tell nothing.
   */
  private neitherSentNorBefore(
    back: {content: string[][]; blind: Set<string>},
    unit: Unit<Q>,
    changed: readonly string[],
  ): string[] {
    const columns = editableColumns(this.table);
    const empty = columns.map(() => EMPTY);
    const theirs = back.content[0] ?? empty;
    const ours = unit.record.content[0] ?? empty;
    const before = unit.record.base.rows[0] ?? empty;
    const told = columns
      .map((c, k) => ({c, k}))
      .filter(({c}) => changed.includes(c.header) && !back.blind.has(c.header));
    if (told.some(({k}) => theirs[k] === before[k])) return [];
    return told.flatMap(({c, k}) =>
      theirs[k] !== ours[k] ? [`${c.header} ${theirs[k]}`] : [],
    );
  }

  /** Whether the server has what was sent: the `changed` columns, or (none given) all. */
  private holds(
    server: string[][],
    sent: string[][],
    changed: readonly string[],
  ): boolean {
    if (changed.length === 0) return sameContent(server, sent);
    const columns = editableColumns(this.table);
    const empty = columns.map(() => EMPTY);
    const [theirs, ours] = [server[0] ?? empty, sent[0] ?? empty];
    return columns.every(
      (c, k) => !changed.includes(c.header) || theirs[k] === ours[k],
    );
  }

  /**
   * A record's editable texts as read back. Columns the list does not return (`blind`) take
   * their text of `fill` (what was sent, or what was last pulled): reading cannot tell them.
   */
  private readBackContent(
    rows: S[],
    fill: string[][],
  ): {content: string[][]; blind: Set<string>} {
    const blind = new Set<string>();
    const context = this.platform.workbook();
    const texts = rows.map(source =>
      editableColumns(this.table).map((column, k) => {
        const value = readColumn(column, source);
        if (value !== undefined)
          return canonical(column, encode(column, value), context);
        blind.add(column.header);
        return fill.length === 1 ? fill[0][k] : EMPTY;
      }),
    );
    return {content: contentOf(texts), blind};
  }

  private accept(unit: Unit<Q>, message: string): void {
    this.settleState(unit, unit.record.content);
    this.accepted.push(unit.request);
    this.finish(unit, 'OK', message, 'OK');
  }

  /** A refusal with a verdict on the values is not sent again unchanged. */
  private fail(unit: Unit<Q>, error: Error): void {
    const {base, content} = unit.record;
    this.settleState(
      unit,
      base.rows,
      hasVerdict(error) ? {refused: content} : {},
    );
    this.finish(unit, 'ERROR', failureMessage(error), 'ERROR');
  }

  /** Nobody knows whether it was applied: the next push reads it back first. */
  private unknown(unit: Unit<Q>, after: string): void {
    const {base, content} = unit.record;
    this.settleState(unit, base.rows, {unknown: content});
    this.finish(
      unit,
      'ERROR',
      `Unknown outcome: ${unit.lost}; ${after}: the next push reads it back before sending anything.`,
      'UNKNOWN',
    );
  }

  /** The record's new state: what the server has now, and what the last push left open. */
  private settleState(
    unit: Unit<Q>,
    rows: string[][],
    open: Pick<RecordState, 'refused' | 'unknown'> = {},
  ): void {
    this.state.records[unit.record.key] = {
      ...unit.record.base,
      refused: undefined,
      unknown: undefined,
      rows,
      ...open,
    };
  }

  private outOfTime(queue: ReadonlyArray<Unit<Q>>): void {
    for (const unit of queue) {
      this.remaining += unit.record.rows.length;
      mark(
        this.verdicts,
        unit,
        'EDITED',
        'Not sent yet: the time ran out. Run the push again to send it.',
      );
    }
  }

  private finish(
    unit: Unit<Q>,
    status: SyncStatus,
    message: string,
    outcome: HistoryOutcome,
  ): void {
    mark(this.verdicts, unit, status, message);
    this.delivered.push({
      record: unit.record,
      outcome,
      message,
    });
    this.done += unit.record.rows.length;
  }

  private report(): void {
    this.platform.progress.report(
      this.spec.job,
      this.done,
      this.deps.totalRows,
    );
  }
}
