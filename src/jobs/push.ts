/**
 * What every push shares (DESIGN 3, issue 5): read the sheet once, find the records whose
 * editable cells differ from what was last pulled (state.ts), check them, send the valid ones
 * in fetchAll batches inside the time budget, and write sync_status / sync_message /
 * synced_at of every row touched in one block.
 *
 * - Unchanged records send nothing; a re-run after success sends nothing, after a partial
 *   failure only what is still pending (a success updates what was last pulled). Rows the API
 *   refused (it answered with an error code) are not sent again unchanged: they keep their
 *   ERROR until the user changes them or a refresh; network failures, 429 and 5xx are pending.
 * - A record maintained by the account manager (maintain_by AM) is refused, never sent.
 * - `dryRun` marks rows EDITED (would be sent) or INVALID and returns the requests unsent.
 * - Near Apps Script's limit no new batch starts: rows not reached stay EDITED and are counted
 *   in `remaining`; running the push again continues with them.
 */
import {ApiClient, Outcome, isKeyRefusal} from '../api/client';
import {ApiError, ConfigError, NetworkError} from '../api/errors';
import type {Platform} from '../platform/ports';
import {checkMaintainedBy} from '../rules/maintain';
import type {CodecContext} from '../sheets/codec';
import {
  EMPTY,
  RowGroups,
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
} from '../sheets/schema';
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

/** What a changed record sends, or why it cannot be sent. */
export type Built<Q> =
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
}

interface Unit<Q> {
  record: ChangedRecord;
  request: Q;
  sends: string;
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
    const groups = groupRows(table, workbook);
    let unchanged = 0;
    for (const entry of changes(table, groups, state, workbook, spec)) {
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
        if (built.ok)
          units.push({
            record: entry,
            request: built.request,
            sends: built.sends,
          });
        else refuse(built.refused);
      }
    }
    const totalRows = units.reduce((n, u) => n + u.record.rows.length, 0);
    let sent = 0;
    let remaining = 0;
    if (dryRun) {
      for (const unit of units) {
        mark(verdicts, unit, 'EDITED', `Preview: a push sends ${unit.sends}.`);
      }
    } else {
      platform.progress.report(spec.job, 0, totalRows);
      let done = 0;
      let slowest = 0;
      const batch = connected.client.batchSize;
      for (let start = 0; start < units.length; start += batch) {
        const now = platform.clock.now();
        const late = now + slowest > budget.startedAt + RETRY_BUDGET_MS;
        if (!budget.canStart() || late) {
          for (const unit of units.slice(start)) {
            remaining += unit.record.rows.length;
            mark(
              verdicts,
              unit,
              'EDITED',
              'Not sent yet: the time ran out. Run the push again to send it.',
            );
          }
          break;
        }
        const chunk = units.slice(start, start + batch);
        const outcomes = spec.send(
          connected.client,
          chunk.map(u => u.request),
        );
        sent += chunk.length;
        slowest = Math.max(slowest, platform.clock.now() - now);
        chunk.forEach((unit, i) => {
          const outcome = outcomes[i];
          if (outcome.ok) {
            state.records[unit.record.id] = {
              ...unit.record.base,
              rows: unit.record.content,
            };
            mark(verdicts, unit, 'OK', `Pushed ${unit.sends}.`);
          } else {
            if (isRefusal(outcome.error)) {
              state.records[unit.record.id] = {
                ...unit.record.base,
                refused: unit.record.content,
              };
            }
            mark(verdicts, unit, 'ERROR', errorMessage(outcome.error));
          }
          done += unit.record.rows.length;
        });
        platform.progress.report(spec.job, done, totalRows);
      }
    }
    writeStatuses(table, verdicts, new Date(platform.clock.now()));
    if (!dryRun && units.length > 0) {
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
      yield all(
        `${schema.id} ${id} was not in the last refresh of ${schema.name}: check the id, or run "${spec.refreshTitle}" first.`,
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

/** The API looked at the request and said no: the same request would be refused again. */
function isRefusal(error: Error): boolean {
  return (
    error instanceof ApiError &&
    error.code !== null &&
    error.httpStatus < 500 &&
    error.httpStatus !== 429 &&
    !isKeyRefusal(error)
  );
}

function errorMessage(error: Error): string {
  if (error instanceof NetworkError) {
    return `${error.message}. It may not have been applied: run the push again to send it.`;
  }
  return error.message;
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
      ? `; ${base.invalid} rows INVALID: see sync_message in ${table.schema.name}`
      : '';
  return {
    ...base,
    edited,
    wouldSend: facts.wouldSend,
    message: `Preview (nothing sent): ${edited} rows would be sent in ${requests} requests${invalid} (${facts.account}).`,
  };
}
