/**
 * One sheet of a refresh written (refreshSheet): the records merged into it (the merge keeps
 * unpushed edits, EDITED / CONFLICT, and the user's own columns) and written once through the
 * one writer, the state sheet remembering what was pulled for the next refresh and push.
 *
 * The records come encoded (server-records.ts: as the listing kept them, or encoded from its
 * items just before) and only their cells are held while the sheet is merged and written: what
 * they were made of (the parsed listing) is gone before the sheet's largest moment, its write
 * (issue 37).
 */
import {accountLabel} from '../connect';
import {ACCOUNT, accountOfCell, recordKey} from '../../sheets/accounts';
import {CodecContext, canonical} from '../../sheets/codec';
import {headerNote} from '../../sheets/layout';
import {MergeResult, mergeServerRecords} from '../../sheets/merge';
import {wouldKeepTyping} from '../../sheets/writer';
import {SheetState, recordWith} from '../../sheets/pulled';
import {readOnlyPrint} from '../../sheets/read-only';
import {columnOf} from '../../sheets/rows';
import {
  EncodedRecord,
  ServerRecords,
  serverRecords,
} from '../../sheets/server-records';
import {
  Column,
  NUMBER_FORMAT,
  SheetSchema,
  formatOf,
} from '../../sheets/schema';
import {
  Contents,
  Formula,
  Table,
  openTable,
  sheetRow,
} from '../../sheets/table';
import type {RowWrites} from '../row-writes';
import type {RefreshContext, SheetReport} from './refresher';
import {beforeWriting} from './refresh-settle';
import {refreshedNow} from './server-changes-memory';

/** How a sheet is refreshed, besides its records. */
export interface RefreshSheetOptions {
  /** The query the records answer, for a sheet that shows one at a time: the id header's note says it. */
  answers?: string;
  /**
   * Told when the refresh needs no more of the records' cells than the write holds: `held`
   * says whether it holds a record's row (a new row, written whole). Told once the writer
   * has decided, when no other merge pass can follow, and again, with none held, once the
   * sheet is written.
   */
  released?: (held: (cells: readonly unknown[]) => boolean) => void;
}

/**
 * Merges the records `records` gives (asked once) into the sheet of `schema` (created when
 * missing) and writes it once, remembering what was pulled for the next refresh and push.
 */
export function refreshSheet<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  records: () => ReadonlyArray<EncodedRecord>,
  {answers, released}: RefreshSheetOptions = {},
): SheetReport {
  const {
    table: opened,
    rows,
    again,
  } = encodedInto(
    context,
    schema,
    records,
    sameConnection(context.state.get(schema.name), context),
  );
  const pulledBefore = again.previous?.accounts;
  let table = opened;
  if (context.state.get(schema.name)?.storedAs === 1) reformatNumbers(table);
  const unread = context.state.unreadable(schema.name);
  const merge = () =>
    mergeServerRecords(
      {
        table,
        previous: again.previous,
        accounts: context.accounts,
        label: accountLabel,
        context: context.workbook,
        now: context.now,
      },
      again.server,
    );
  const printed = (m: MergeResult) =>
    withReadOnlyPrints(
      table,
      m.rows,
      m.state,
      again.previous,
      context.workbook,
    );
  const first = merge();
  // The pull as the state keeps it, read-only prints and all (a sheet with statuses).
  const pulled = schema.sync ? printed(first) : undefined;
  // When the write changes no cell a person types in, no typing can be kept and no other pass
  // will merge: what only that pass needs goes before the state's save, and the writer takes
  // the merge's rows first (its decisions, not the rows, are held beside the save).
  const lastPass = (m: MergeResult) =>
    !wouldKeepTyping(table, m.rows, m.sources);
  // A function of its own: nothing of the first write outlives it (the writer, its rows).
  const writeFirst = () => {
    const last = lastPass(first);
    let early: {writes: RowWrites<S>; at: number[]} | undefined;
    if (last) {
      again.server = new Map();
      // A new row the writer holds whole until it is written: told with the rest, after.
      const added = new Set<readonly unknown[]>(
        first.rows.filter((_, k) => first.sources[k] === undefined),
      );
      early = decided(table, first, context);
      released?.(row => added.has(row));
    }
    const seen = pulled
      ? beforeWriting(context, schema, again.previous, first, pulled)
      : undefined;
    if (last) again.previous = undefined;
    const at = written(early ?? decided(table, first, context), context);
    released?.(() => false);
    return {seen, at};
  };
  const {seen, at: firstAt} = writeFirst();
  let rowAt = firstAt;
  let merged = first;
  let state = pulled;
  // A person typed into rows the writer was to overwrite (it kept their cells): the sheet as
  // it is now is merged again, so those rows say EDITED or CONFLICT like any unpushed edit.
  for (let pass = 1; rowAt.kept && pass < MERGE_PASSES; pass++) {
    table = openTable(context.workbook, schema, {create: true, rows})!;
    merged = merge();
    if (schema.sync) state = printed(merged);
    if (lastPass(merged)) {
      again.server = new Map();
      again.previous = undefined;
    }
    rowAt = written(decided(table, merged, context), context);
  }
  const counts = {
    ...merged.counts,
    added: first.counts.added,
    removed: first.counts.removed,
  };
  const notes = merged.notes.map(note => ({
    ...note,
    row: sheetRow(rowAt.at[note.row - sheetRow(0)]),
  }));
  if (answers !== undefined) {
    const id = schema.columns.find(c => c.header === schema.id)!;
    const listed = context.now.toISOString().slice(0, 16).replace('T', ' ');
    table.sheet.setNotes(1, table.position.get(schema.id)! + 1, [
      [
        `${headerNote(id as Column<never>)}\n\nThe rows answer the list of ${answers}, as the ${context.accounts.map(accountLabel).join(', ')}, ${listed} UTC.`,
      ],
    ]);
  }
  // A sheet with statuses remembers its records even without editable columns: a row of
  // them is then known as its account's, not unknown.
  if (schema.sync) {
    context.state.set(schema.name, {
      ...state!,
      connection: context.connection.fingerprint,
      connectionLabel: context.connection.label,
    });
    // A time that only moves when this refresh found a change (or an account's first): a
    // refresh that changed nothing writes nothing, and "since" stays true, if older.
    refreshedNow(
      context.state,
      schema.name,
      context.accounts.filter(
        a => seen?.accounts.includes(a) || !pulledBefore?.includes(a),
      ),
      context.now,
    );
    // Queued behind the sheet's writes, so both reach the document in the same round trip: a
    // run Apps Script stops before the job's end (at the next sheet's read, say) leaves no
    // sheet written beside its old state, whose rows the next push would take for edits.
    context.state.save();
  }
  return {
    sheet: schema.name,
    counts,
    notes,
    ...(seen
      ? {seen: {changes: seen.changes, unreadable: seen.unreadable}}
      : schema.sync && unread
        ? {seen: {changes: 0, unreadable: 0, unread: true}}
        : {}),
  };
}

/**
 * The sheet of `schema` opened (made `rows` data rows tall when it is new) and the records
 * made ready for its merge. They are asked for here, so once this frame is gone nothing of the
 * refresh's holds them but `again`: what another merge pass would merge (the records listed and
 * the last pull), held only while the write could keep a person's typing. A write that cannot
 * lets them go before its flush, the largest moment of a large sheet's refresh (issue 37).
 */
function encodedInto<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  records: () => ReadonlyArray<EncodedRecord>,
  previous: SheetState | undefined,
): {
  table: Table<S>;
  rows: number;
  again: {server: ServerRecords; previous: SheetState | undefined};
} {
  const listed = records();
  const rows = listed.reduce((n, r) => n + r.rows.length, 0);
  const table = openTable(context.workbook, schema, {create: true, rows})!;
  return {
    table,
    rows,
    again: {
      server: serverRecords(table, listed, previous, context.workbook),
      previous,
    },
  };
}

/**
 * How many times a refresh merges one sheet at most: again only after a person typed over a
 * cell it was writing, so a third pass means someone is typing fast into the rows it writes.
 * Their cells are kept whatever the passes (the writer never overwrites them).
 */
const MERGE_PASSES = 3;

/**
 * A merge's rows given to the one writer, which decides what to write: where they will land.
 * The writer takes the rows (the caller printed them before): the merge holds them no longer.
 */
function decided<S>(
  table: Table<S>,
  merged: MergeResult,
  context: RefreshContext,
): {writes: RowWrites<S>; at: number[]} {
  const writes = context.track(table);
  const at = writes.writer.replaceRows(merged.rows, merged.sources);
  merged.rows = [];
  merged.sources = [];
  return {writes, at};
}

/** What the writer decided, written: where the rows landed, and whether typing was kept. */
function written<S>(
  {writes, at}: {writes: RowWrites<S>; at: number[]},
  context: RefreshContext,
): {at: number[]; kept: boolean} {
  const kept = writes.flush().kept.length > 0;
  // Written: its values and rows need not stay in memory while the next sheet is merged.
  context.release(writes);
  return {at, kept};
}

/**
 * Release 1 formatted plain numbers `0.###############`, which Sheets shows with a trailing
 * point (`-5.`): the first refresh after the upgrade gives their columns today's format, once
 * (the state it writes is of today's version).
 */
function reformatNumbers<S>(table: Table<S>): void {
  const rows = table.sheet.maxRows() - 1;
  for (const column of table.schema.columns) {
    if (formatOf(column as Column<never>) !== NUMBER_FORMAT) continue;
    const at = table.position.get(column.header);
    if (at !== undefined) {
      table.sheet.setNumberFormat(sheetRow(0), at + 1, rows, 1, NUMBER_FORMAT);
    }
  }
}

/**
 * What was last pulled, when it was pulled with the keys connected now. Pulled with other
 * keys (another editor's, or another base URL), none of it tells an edit here: the rows are
 * taken as new from the server, and a push never sends what the other keys pulled.
 */
function sameConnection(
  state: SheetState | undefined,
  context: RefreshContext,
): SheetState | undefined {
  if (!state?.connection) return state;
  return state.connection === context.connection.fingerprint
    ? state
    : undefined;
}

/**
 * The merge's state with the print of each record's read-only cells as just written (its first
 * row), so a push can tell a value the user types into one of them. Printed in place: the
 * merge's records and their map are its own, made for this write, and a refresh of 31,000
 * offers held four versions of every record (issue 37); a record the last pull had (another
 * account's, carried) is copied, as that state is still read.
 */
function withReadOnlyPrints<S>(
  table: Table<S>,
  rows: Contents[][],
  state: SheetState,
  previous: SheetState | undefined,
  context: CodecContext,
): SheetState {
  const {schema} = table;
  const idColumn = columnOf(table, schema.id);
  const {records} = state;
  const printed = new Set<string>();
  for (const row of rows) {
    const cell = (header: string) => {
      const contents = row[table.position.get(header) ?? -1];
      return contents instanceof Formula ? '' : (contents ?? '');
    };
    const id = canonical(idColumn, cell(schema.id), context);
    const account = schema.account ? accountOfCell(cell(ACCOUNT)) : '';
    if (account === undefined) continue;
    const key = recordKey(account, id);
    if (printed.has(key) || !records[key]) continue;
    printed.add(key);
    const readOnly = readOnlyPrint(schema, cell);
    // The merge's own record is printed where it is; one of the last pull's is copied.
    if (records[key] === previous?.records[key])
      records[key] = recordWith(records[key], {readOnly});
    else records[key].readOnly = readOnly;
  }
  return state;
}
