/**
 * What every push shares (DESIGN 3, issue 5): read the sheet once, find the records whose
 * editable cells differ from what was last pulled (state.ts), check them, send the valid ones
 * in fetchAll batches inside the time budget, and write sync_status / sync_message /
 * synced_at of every row touched in one block.
 *
 * - Unchanged records send nothing; a re-run after success sends nothing, after a partial
 *   failure only what is still pending (a success updates what was last pulled). Rows the API
 *   refused with a verdict on the values (retry.ts hasVerdict) are not sent again unchanged:
 *   they keep their ERROR until the user changes them or a refresh; any other failure is sent
 *   again by the next push, and every ERROR message says which of the two it is.
 * - A write whose answer was lost (a dropped batch, a 5xx, a 200 that is no envelope) is never
 *   sent blind: its records are read back by id (Delivery.settle).
 * - A value typed into a read-only column is named in the row's message (read-only.ts).
 * - A record maintained by the account manager (maintain_by AM) is refused, never sent.
 * - `dryRun` marks rows EDITED (would be sent) or INVALID and returns the requests unsent.
 * - Near Apps Script's limit no new batch starts: rows not reached stay EDITED and are counted
 *   in `remaining`; running the push again continues with them.
 */
import {ApiClient, Outcome} from '../api/client';
import {ConfigError, OutcomeUnknownError} from '../api/errors';
import {Listing, listEach} from '../api/paging';
import {hasVerdict} from '../api/retry';
import {excerpt} from '../rules/values';
import type {Platform} from '../platform/ports';
import {checkMaintainedBy} from '../rules/maintain';
import {CodecContext, canonical, encode} from '../sheets/codec';
import {
  EMPTY,
  RowGroups,
  columnOf,
  contentOf,
  editableColumns,
  editableTexts,
  groupRows,
  missingIdMessage,
  sameContent,
} from '../sheets/rows';
import {
  SYNCED_AT,
  SYNC_MESSAGE,
  SYNC_STATUS,
  SheetSchema,
  readColumn,
} from '../sheets/schema';
import {ReadOnlyEdit, readOnlyEdits} from '../sheets/read-only';
import {OtherAccounts, othersMemo} from '../sheets/merge';
import {RecordState, SheetState, StateBook} from '../sheets/state';
import type {SyncStatus} from '../sheets/status';
import {
  Contents,
  SheetLayoutError,
  Table,
  cellOf,
  openTable,
  rowContents,
  sheetRow,
  writeTable,
} from '../sheets/table';
import {counted} from '../ui/wording';
import {accountLabel, connect} from './connect';
import {
  JobSummary,
  MAX_PROBLEMS,
  RETRY_BUDGET_MS,
  RowProblem,
  TimeBudget,
  summaryLine,
  withDocumentLock,
} from './run';

export interface PushOptions {
  /** Check and report what would be sent; send nothing. */
  dryRun?: boolean;
}

/** A record whose editable cells differ from what was last pulled. */
export interface ChangedRecord {
  id: string;
  /** Its data rows, in sheet order. */
  rows: number[];
  /** What was last pulled. */
  base: RecordState;
  /** Its editable content now (rows.ts contentOf). */
  content: string[][];
}

/**
 * The headers of the editable cells that differ from what was last pulled, for a record that
 * takes one row (a campaign, an offer's tracking).
 */
export function changedHeaders<S>(
  record: ChangedRecord,
  table: Table<S>,
  context: CodecContext,
): string[] {
  const columns = editableColumns(table);
  const now = editableTexts(table, record.rows[0], context);
  const before = record.base.rows[0] ?? columns.map(() => EMPTY);
  return columns.filter((_, k) => now[k] !== before[k]).map(c => c.header);
}

/**
 * What a changed record sends, or why it cannot be sent, or (`kept`) that its change sends
 * nothing and becomes what the record is taken to have (a decision, not an edit to send).
 */
export type Built<Q> =
  | {
      ok: false;
      /** Row index -> message; every row of the record gets one. */ kept: Map<
        number,
        string
      >;
    }
  | {
      ok: true;
      request: Q;
      /** What changes, for the row's message. */ sends: string;
    }
  | {
      ok: false;
      /** Row index -> message; every row of the record gets one. */ refused: Map<
        number,
        string
      >;
    };

export interface PushSpec<S, Q> {
  job: string;
  schema: SheetSchema<S>;
  /** The menu title of the refresh that fills the sheet, for messages. */
  refreshTitle: string;
  /** Builds the request of a changed record, checking it with src/rules. */
  build(
    record: ChangedRecord,
    table: Table<S>,
    context: CodecContext,
  ): Built<Q>;
  send(client: ApiClient, requests: readonly Q[]): Array<Outcome<unknown>>;
  /**
   * Reads records back by id (one list request per up to 50 ids), each as its row sources:
   * what the server has after a write whose answer was lost.
   */
  readBack(client: ApiClient, ids: readonly string[]): ReadBack<S>;
  /** Added to "the next push sends it again" where resending has a side effect. */
  againNote?: string;
  /** Tells what the API accepted (pushTracking remembers support_server_click). */
  accepted?(book: StateBook, requests: readonly Q[]): void;
}

/** Ids per read-back list request: the largest page of the offers and campaigns lists. */
export const READ_BACK_IDS = 50;

/** Records read back, each as its row sources, and the requests that took. */
export interface ReadBack<S> {
  records: S[][];
  requests: number;
}

/**
 * Lists records by id, READ_BACK_IDS per listing, every listing fetched together; `rows`
 * gives a listed item's row sources.
 */
export function listByIds<T, S>(
  ids: readonly string[],
  listing: (ids: string[]) => Listing<T>,
  rows: (item: T) => S[],
): ReadBack<S> {
  const listings: Array<Listing<T>> = [];
  for (let k = 0; k < ids.length; k += READ_BACK_IDS) {
    listings.push(listing(ids.slice(k, k + READ_BACK_IDS)));
  }
  const results = listEach(listings);
  return {
    records: results.flatMap(result => result.items.map(rows)),
    requests: results.reduce((n, result) => n + result.requests, 0),
  };
}

interface Unit<Q> {
  record: ChangedRecord;
  request: Q;
  sends: string;
  /** Why its outcome is unknown: its answer was lost (here or at the last push). */
  lost?: string;
  /** Why it is sent again (reading back showed it was not applied): never a third time. */
  again?: string;
}

interface RowVerdict {
  status: SyncStatus | '';
  message: string;
}

/** Statuses that say a row is pending or refused: cleared once the row matches the server. */
const STALE = new Set(['EDITED', 'CONFLICT', 'INVALID', 'ERROR']);

export function runPush<S, Q>(
  platform: Platform,
  spec: PushSpec<S, Q>,
  options: PushOptions = {},
): JobSummary {
  const dryRun = options.dryRun === true;
  return withDocumentLock(platform, () => {
    const budget = new TimeBudget(() => platform.clock.now());
    const connected = connect(platform, budget.retryDeadline);
    const workbook = platform.workbook();
    const table = readTable(workbook, spec);
    const book = StateBook.open(workbook);
    const state = pulledState(book, spec, connected.account);
    const verdicts = new Map<number, RowVerdict>();
    const refuse = (rows: Iterable<[number, string]>) => {
      for (const [row, message] of rows)
        verdicts.set(row, {status: 'INVALID', message});
    };
    const units: Array<Unit<Q>> = [];
    let kept = false;
    const groups = groupRows(table, workbook);
    let unchanged = 0;
    const others = book.memo<OtherAccounts>(othersMemo(spec.schema.name)) ?? {};
    const ownerOf = (id: string) =>
      Object.keys(others).find(account => others[account][id] !== undefined);
    for (const entry of changes(
      table,
      groups,
      state,
      workbook,
      spec,
      ownerOf,
    )) {
      if ('refusedBefore' in entry) {
        unchanged += entry.refusedBefore.length;
      } else if ('unchanged' in entry) {
        unchanged += entry.unchanged.length;
        for (const row of entry.unchanged) {
          if (STALE.has(String(cellOf(table, row, SYNC_STATUS)))) {
            verdicts.set(row, {status: '', message: ''});
          }
        }
      } else if ('refused' in entry) {
        refuse(entry.refused);
      } else {
        const built = spec.build(entry, table, workbook);
        if ('kept' in built) {
          kept = true;
          unchanged += entry.rows.length;
          state.records[entry.id] = {...entry.base, rows: entry.content};
          for (const [row, message] of built.kept)
            verdicts.set(row, {
              status: '',
              message: dryRun ? `Preview: ${message}` : message,
            });
        } else if (built.ok)
          units.push({
            record: entry,
            request: built.request,
            sends: built.sends,
            ...(sameContent(entry.content, entry.base.unknown)
              ? {lost: 'the answer to the last push was lost'}
              : {}),
          });
        else refuse(built.refused);
      }
    }
    const totalRows = units.reduce((n, u) => n + u.record.rows.length, 0);
    let sent = 0;
    let remaining = 0;
    if (dryRun) {
      for (const unit of units) {
        const first = unit.lost
          ? `reads ${spec.schema.id} ${unit.record.id} back (${unit.lost}), then sends ${unit.sends} if it still differs`
          : `sends ${unit.sends}`;
        mark(verdicts, unit, 'EDITED', `Preview: a push ${first}.`);
      }
    } else {
      const delivery = new Delivery(platform, spec, table, state, verdicts, {
        client: connected.client,
        book,
        budget,
        totalRows,
      });
      delivery.run(units);
      sent = delivery.requests;
      remaining = delivery.remaining;
    }
    noteReadOnlyEdits(table, groups, state, verdicts);
    writeStatuses(table, verdicts, new Date(platform.clock.now()));
    if (!dryRun && (units.length > 0 || kept)) {
      book.set(spec.schema.name, state);
      book.save();
    }
    return pushSummary(spec, table, verdicts, {
      account: accountLabel(connected.account),
      dryRun,
      unchanged,
      remaining,
      requests: sent,
      wouldSend: dryRun ? units.map(u => u.request) : undefined,
    });
  });
}

function readTable<S, Q>(
  workbook: ReturnType<Platform['workbook']>,
  spec: PushSpec<S, Q>,
): Table<S> {
  let table: Table<S> | null;
  try {
    table = openTable(workbook, spec.schema, {create: false});
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
  account: string,
): SheetState {
  const state = book.get(spec.schema.name);
  if (!state) {
    throw new ConfigError(
      `${spec.schema.name} has not been refreshed in this spreadsheet yet: run "${spec.refreshTitle}" first, then edit and push.`,
    );
  }
  if (state.account !== account) {
    throw new ConfigError(
      `${spec.schema.name} was refreshed as the ${accountLabel(state.account)}, but you act as the ${accountLabel(account)} now: act as the ${accountLabel(state.account)} again, or refresh first (your unpushed edits are kept).`,
    );
  }
  return {account: state.account, records: {...state.records}};
}

type Change =
  | {unchanged: number[]}
  /** Rows whose content the API refused at the last push, unchanged since. */
  | {refusedBefore: number[]}
  | {refused: Array<[number, string]>}
  | ChangedRecord;

/**
 * Each record of the sheet: unchanged, refused by the API before and unchanged since, refused
 * before any rule (no id, unknown, AM), or changed.
 */
function* changes<S, Q>(
  table: Table<S>,
  groups: RowGroups,
  state: SheetState,
  context: CodecContext,
  spec: PushSpec<S, Q>,
  /** The other account that pulled a record, if any (a row kept across an account switch). */
  ownerOf: (id: string) => string | undefined,
): Generator<Change> {
  const {schema} = spec;
  for (const {index, id, awaits} of groups.order) {
    if (id === null && !awaits) {
      yield {refused: [[index, missingIdMessage(table, index)]]};
    }
  }
  for (const [id, rows] of groups.byId) {
    const all = (message: string): Change => ({
      refused: rows.map(r => [r, message]),
    });
    const base = state.records[id];
    if (!base) {
      const owner = ownerOf(id);
      yield all(
        owner === undefined
          ? `${schema.id} ${id} was not in the last refresh of ${schema.name}: check the id, or run "${spec.refreshTitle}" first.`
          : `${schema.id} ${id} was pulled as the ${accountLabel(owner)}: act as it again to push this row (your edit is kept). Nothing was sent.`,
      );
      continue;
    }
    if (!schema.rowKey && rows.length > 1) {
      yield all(
        `${schema.id} ${id} is in rows ${rows.map(sheetRow).join(', ')}: keep one row per ${schema.id}.`,
      );
      continue;
    }
    const content = contentOf(rows.map(r => editableTexts(table, r, context)));
    if (sameContent(content, base.rows)) {
      yield {unchanged: rows};
      continue;
    }
    if (sameContent(content, base.refused)) {
      yield {refusedBefore: rows};
      continue;
    }
    const am = checkMaintainedBy(base.facts?.maintain_by);
    if (am.maintain_by) {
      yield all(`maintain_by: ${am.maintain_by}. Nothing was sent.`);
      continue;
    }
    yield {id, rows, base, content};
  }
}

function mark<Q>(
  verdicts: Map<number, RowVerdict>,
  unit: Unit<Q>,
  status: SyncStatus,
  message: string,
): void {
  for (const row of unit.record.rows) verdicts.set(row, {status, message});
}

/**
 * Rows with a value typed into a read-only column: nothing sends it, and the next refresh
 * replaces it. The row's message says so; a row with nothing else to send is INVALID.
 */
function noteReadOnlyEdits<S>(
  table: Table<S>,
  groups: RowGroups,
  state: SheetState,
  verdicts: Map<number, RowVerdict>,
): void {
  for (const [id, rows] of groups.byId) {
    const print = state.records[id]?.readOnly;
    if (print === undefined) continue;
    for (const row of rows) {
      const edits = readOnlyEdits(
        table.schema,
        print,
        header => cellOf(table, row, header),
        header => table.position.has(header),
      );
      if (edits.length === 0) continue;
      const note = edits.map(readOnlyNote).join('; ');
      const verdict = verdicts.get(row);
      verdicts.set(
        row,
        verdict && verdict.status !== ''
          ? {...verdict, message: `${verdict.message} ${note}.`}
          : {status: 'INVALID', message: `${note}.`},
      );
    }
  }
}

function readOnlyNote(edit: ReadOnlyEdit): string {
  if (edit.header === undefined) {
    return "A read-only cell of this row was changed: nothing sends it, and the next refresh puts the server's value back";
  }
  return `${edit.header} is read-only: your value ${excerpt(edit.value)} is not sent, and will be replaced by the server's at the next refresh`;
}

/** The message of a failed push, and what the next push does with the row. */
function failureMessage(error: Error): string {
  return hasVerdict(error)
    ? `${error.message}: change the row to send it again.`
    : `${error.message}: the next push sends it again.`;
}

/** The sync cells of every row given a verdict, in one block write. */
function writeStatuses<S>(
  table: Table<S>,
  verdicts: Map<number, RowVerdict>,
  now: Date,
): void {
  if (verdicts.size === 0) return;
  const at = (header: string) => table.position.get(header)!;
  const rows: Contents[][] = table.values.map((_, i) => rowContents(table, i));
  for (const [index, verdict] of verdicts) {
    rows[index][at(SYNC_STATUS)] = verdict.status;
    rows[index][at(SYNC_MESSAGE)] = verdict.message;
    rows[index][at(SYNCED_AT)] = verdict.status === '' ? '' : now;
  }
  writeTable(table, rows);
}

interface SummaryFacts {
  account: string;
  dryRun: boolean;
  unchanged: number;
  remaining: number;
  requests: number;
  wouldSend: unknown[] | undefined;
}

function pushSummary<S, Q>(
  spec: PushSpec<S, Q>,
  table: Table<S>,
  verdicts: Map<number, RowVerdict>,
  facts: SummaryFacts,
): JobSummary {
  const count = (status: SyncStatus) =>
    [...verdicts.values()].filter(v => v.status === status).length;
  const problems: RowProblem[] = [...verdicts.entries()]
    .filter(([, v]) => v.status === 'INVALID' || v.status === 'ERROR')
    .sort(([a], [b]) => a - b)
    .slice(0, MAX_PROBLEMS)
    .map(([index, v]) => ({
      sheet: table.schema.name,
      row: sheetRow(index),
      status: v.status as SyncStatus,
      message: v.message,
    }));
  const base = {
    job: spec.job,
    account: facts.account,
    ok: count('OK'),
    invalid: count('INVALID'),
    error: count('ERROR'),
    skipped: facts.unchanged,
    remaining: facts.remaining,
    dryRun: facts.dryRun,
    problems,
    requests: facts.requests,
  };
  if (!facts.dryRun) {
    return {...base, message: summaryLine(base, table.schema.name)};
  }
  const edited = count('EDITED');
  const requests = facts.wouldSend?.length ?? 0;
  const invalid =
    base.invalid > 0
      ? `; ${counted(base.invalid, 'row')} INVALID: see sync_message in ${table.schema.name}`
      : '';
  return {
    ...base,
    edited,
    wouldSend: facts.wouldSend,
    message: `Preview (nothing sent): ${counted(edited, 'row')} would be sent in ${counted(requests, 'request')}${invalid} (${facts.account}).`,
  };
}

interface DeliveryDeps {
  client: ApiClient;
  book: StateBook;
  budget: TimeBudget;
  totalRows: number;
}

/**
 * Sends the units in fetchAll batches inside the time budget and gives each row its verdict.
 * A unit whose answer was lost (a dropped batch, a 5xx, a 200 that is no envelope: the server
 * may have applied it) is never sent blind: its records are read back by id, and it is
 * confirmed (equal to what was sent), sent once more (still the old values), or left an
 * unknown outcome that the next push reads back first.
 */
class Delivery<S, Q> {
  requests = 0;
  remaining = 0;
  private done = 0;
  private slowest = 0;
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
      ...units.filter(u => !u.lost),
    ];
    while (queue.length > 0) {
      if (!this.mayStart()) {
        this.outOfTime(queue);
        break;
      }
      const chunk = queue.slice(0, this.deps.client.batchSize);
      queue = [...queue.slice(chunk.length), ...this.settle(this.send(chunk))];
    }
    this.spec.accepted?.(this.deps.book, this.accepted);
  }

  /** Whether a batch may start: time left, and the slowest batch so far would end in time. */
  private mayStart(): boolean {
    const {budget} = this.deps;
    const now = this.platform.clock.now();
    return (
      budget.canStart() &&
      now + this.slowest <= budget.startedAt + RETRY_BUDGET_MS
    );
  }

  /** Sends one batch; answers the units whose answer was lost. */
  private send(chunk: ReadonlyArray<Unit<Q>>): Array<Unit<Q>> {
    const started = this.platform.clock.now();
    const outcomes = this.spec.send(
      this.deps.client,
      chunk.map(u => u.request),
    );
    this.requests += chunk.length;
    this.slowest = Math.max(this.slowest, this.platform.clock.now() - started);
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
   * Reads back the records of units whose answer was lost, in one list request per up to 50
   * ids; answers the units to send (again): those the server does not have yet.
   */
  private settle(units: ReadonlyArray<Unit<Q>>): Array<Unit<Q>> {
    if (units.length === 0) return [];
    if (!this.deps.budget.canStart()) {
      for (const unit of units)
        this.unknown(unit, 'the time ran out before reading it back');
      return [];
    }
    let listed: S[][];
    try {
      const back = this.spec.readBack(
        this.deps.client,
        units.map(u => u.record.id),
      );
      listed = back.records;
      this.requests += back.requests;
    } catch (e) {
      // Each list's first page went out, at least.
      this.requests += Math.ceil(units.length / READ_BACK_IDS);
      const why = e instanceof Error ? e.message : String(e);
      for (const unit of units)
        this.unknown(unit, `reading it back failed (${why})`);
      return [];
    }
    const {schema} = this.table;
    const idColumn = columnOf(this.table, schema.id);
    const server = new Map(
      listed.map(rows => [
        canonical(
          idColumn,
          encode(idColumn, readColumn(idColumn, rows[0]) ?? null),
          this.platform.workbook(),
        ),
        rows,
      ]),
    );
    const resend: Array<Unit<Q>> = [];
    for (const unit of units) {
      const rows = server.get(unit.record.id);
      if (!rows) {
        this.unknown(
          unit,
          `reading it back did not list ${schema.id} ${unit.record.id}`,
        );
        continue;
      }
      const back = this.readBackContent(rows, unit.record.content);
      // A one-row record is judged by what it changed: a field changed on the server since
      // the pull is no sign that this push was not applied.
      const changed = this.table.schema.rowKey
        ? []
        : changedHeaders(unit.record, this.table, this.platform.workbook());
      if (!this.holds(back.content, unit.record.content, changed)) {
        if (unit.again) {
          this.finish(
            unit,
            'ERROR',
            `Not applied: ${unit.lost}, and reading it back shows the server does not have it: the next push sends it again.`,
          );
        } else {
          resend.push({
            ...unit,
            again: `${unit.lost}, and reading it back showed it was not applied`,
          });
        }
        continue;
      }
      if (changed.length > 0 && changed.every(h => back.blind.has(h))) {
        this.finish(
          unit,
          'ERROR',
          `Unknown outcome: ${unit.lost}, and reading it back cannot tell: the API's list does not return ${changed.join(', ')}. The next push sends it again${this.spec.againNote ?? ''}.`,
        );
        continue;
      }
      this.accept(
        unit,
        `Pushed ${unit.sends}: ${unit.lost}; reading it back confirmed it.`,
      );
    }
    return resend;
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
   * what was sent: reading back cannot tell them.
   */
  private readBackContent(
    rows: S[],
    sent: string[][],
  ): {content: string[][]; blind: Set<string>} {
    const blind = new Set<string>();
    const context = this.platform.workbook();
    const texts = rows.map(source =>
      editableColumns(this.table).map((column, k) => {
        const value = readColumn(column, source);
        if (value !== undefined)
          return canonical(column, encode(column, value), context);
        blind.add(column.header);
        return sent.length === 1 ? sent[0][k] : EMPTY;
      }),
    );
    return {content: contentOf(texts), blind};
  }

  private accept(unit: Unit<Q>, message: string): void {
    this.settleState(unit, unit.record.content);
    this.accepted.push(unit.request);
    this.finish(unit, 'OK', message);
  }

  /** A refusal with a verdict on the values is not sent again unchanged. */
  private fail(unit: Unit<Q>, error: Error): void {
    const {base, content} = unit.record;
    this.settleState(
      unit,
      base.rows,
      hasVerdict(error) ? {refused: content} : {},
    );
    this.finish(unit, 'ERROR', failureMessage(error));
  }

  /** Nobody knows whether it was applied: the next push reads it back first. */
  private unknown(unit: Unit<Q>, after: string): void {
    const {base, content} = unit.record;
    this.settleState(unit, base.rows, {unknown: content});
    this.finish(
      unit,
      'ERROR',
      `Unknown outcome: ${unit.lost}; ${after}: the next push reads it back before sending anything.`,
    );
  }

  /** The record's new state: what the server has now, and what the last push left open. */
  private settleState(
    unit: Unit<Q>,
    rows: string[][],
    open: Pick<RecordState, 'refused' | 'unknown'> = {},
  ): void {
    this.state.records[unit.record.id] = {
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

  private finish(unit: Unit<Q>, status: SyncStatus, message: string): void {
    mark(this.verdicts, unit, status, message);
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
