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
 *   sent blind: its records are read back by id (push-delivery.ts).
 * - A value typed into a read-only column is named in the row's message (read-only.ts).
 * - A record maintained by the account manager (maintain_by AM) is refused, never sent.
 * - `dryRun` marks rows EDITED (would be sent) or INVALID and returns the requests unsent.
 * - Near Apps Script's limit no new batch starts: rows not reached stay EDITED and are counted
 *   in `remaining`; running the push again continues with them.
 */
import {ConfigError} from '../api/errors';
import type {Platform} from '../platform/ports';
import {checkMaintainedBy} from '../rules/maintain';
import {excerpt} from '../rules/values';
import type {CodecContext} from '../sheets/codec';
import {OtherAccounts, othersMemo} from '../sheets/merge';
import {ReadOnlyEdit, readOnlyEdits} from '../sheets/read-only';
import {
  RowGroups,
  contentOf,
  editableTexts,
  groupRows,
  missingIdMessage,
  sameContent,
} from '../sheets/rows';
import {SYNCED_AT, SYNC_MESSAGE, SYNC_STATUS} from '../sheets/schema';
import {SheetState, StateBook} from '../sheets/state';
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
import {fieldChanges} from '../sheets/history-fields';
import {ChangeLog} from './change-log';
import {accountLabel, connect} from './connect';
import {previewSummary} from './preview';
import {Delivered, Delivery, RowVerdict, Unit, mark} from './push-delivery';
import {ChangedRecord, PushOptions, PushSpec} from './push-spec';
import {
  JobSummary,
  MAX_PROBLEMS,
  RowProblem,
  TimeBudget,
  summaryLine,
  withDocumentLock,
} from './run';

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
        const built = spec.build(entry, table, workbook, {workbook, book});
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
    const guard = spec.guard?.(units, platform, dryRun);
    const sending = guard ? guard.send : units;
    const totalRows = sending.reduce((n, u) => n + u.record.rows.length, 0);
    let sent = 0;
    let remaining = 0;
    const log = new ChangeLog(
      platform,
      spec.job,
      accountLabel(connected.account),
    );
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
      delivery.run(sending);
      sent = delivery.requests;
      remaining = delivery.remaining;
      log.add(
        delivery.delivered.flatMap(d =>
          historyOf(spec, guard ? guard.history(d) : d),
        ),
      );
    }
    for (const {unit, message} of guard?.held ?? [])
      mark(verdicts, unit, 'EDITED', message);
    noteReadOnlyEdits(table, groups, state, verdicts);
    writeStatuses(table, verdicts, new Date(platform.clock.now()));
    if (!dryRun && (units.length > 0 || kept)) {
      book.set(spec.schema.name, state);
      book.save();
    }
    const summary = pushSummary(spec, table, verdicts, {
      account: accountLabel(connected.account),
      dryRun,
      unchanged,
      remaining,
      requests: sent,
      wouldSend: dryRun ? units.map(u => u.request) : undefined,
    });
    return log.close(workbook, {
      ...summary,
      message: summary.message + (guard?.note ?? ''),
    });
  });
}

/** A delivered record's History rows: a row per field its push changed. */
function historyOf<S, Q>(spec: PushSpec<S, Q>, delivered: Delivered) {
  const {record, outcome, message, at} = delivered;
  return fieldChanges(spec.schema, record.base.rows, record.content).map(
    change => ({
      sheet: spec.schema.name,
      record: record.id,
      ...change,
      outcome,
      message,
      at,
    }),
  );
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
  const wouldSend = facts.wouldSend ?? [];
  return previewSummary(base, {
    sheet: table.schema.name,
    edited: count('EDITED'),
    requests: wouldSend.length,
    wouldSend,
  });
}
