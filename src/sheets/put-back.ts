/**
 * A record's content put into its rows through the one writer: what revert stages and what a
 * scheduled push puts back (the values last pulled). Each group goes into the row that has its
 * key; rows left over are removed, groups left over become new rows.
 */
import {CodecContext, encode, fromCanonical} from './codec';
import {keyPositions, rowKeyText} from './history-fields';
import {EMPTY, editableColumns, editableTexts} from './rows';
import {SYNCED_AT, SYNC_MESSAGE, SYNC_STATUS} from './schema';
import type {SyncStatus} from './status';
import type {Contents, Table} from './table';
import type {SheetWriter} from './writer';

/** A new row's contents with the plan's sync cells. */
export function withStatus(
  table: Table<never>,
  row: Contents[],
  plan: {status: SyncStatus | ''; message: string},
  now: Date,
): Contents[] {
  const out = [...row];
  const set = (header: string, value: Contents) => {
    const at = table.position.get(header);
    if (at !== undefined) out[at] = value;
  };
  set(SYNC_STATUS, plan.status);
  set(SYNC_MESSAGE, plan.message);
  set(SYNCED_AT, plan.status === '' ? '' : now);
  return out;
}

/**
 * Decides a record's reverted content in its rows: a one-row record's editable cells; for
 * Budgets, each group into the row that has its key, other groups into the other rows in
 * order; rows left over are answered to remove (deleted: the formulas below keep their
 * meaning), groups left over as new rows to add below, their read-only cells as the record's
 * first row.
 */
export function putBack(
  writer: SheetWriter<never>,
  rows: readonly number[],
  content: readonly string[][],
  context: CodecContext,
): {kept: number[]; removed: number[]; added: Contents[][]} {
  const columns = editableColumns(writer.table);
  const {kept, free, left} = placeGroups(writer, rows, content, context);
  const added = left.map(texts => addedRow(writer, rows[0], texts));
  // A record keeps one row even with no content: an offer without a budget shows one.
  if (kept.length === 0 && added.length === 0 && free.length > 0) {
    const row = free.shift()!;
    writeTexts(
      writer,
      row,
      columns.map(() => EMPTY),
    );
    kept.push(row);
  }
  return {kept: kept.sort((a, b) => a - b), removed: free, added};
}

/**
 * Writes each group into the row that has its key, then the other groups into the other rows
 * in order, so a group keeps its row (and the formulas pointing at it) wherever it can.
 * Answers the rows written, the rows left free and the groups left without a row.
 */
function placeGroups(
  writer: SheetWriter<never>,
  rows: readonly number[],
  content: readonly string[][],
  context: CodecContext,
): {kept: number[]; free: number[]; left: string[][]} {
  const {table} = writer;
  const keys = keyPositions(table.schema);
  const keyOf = (texts: readonly string[]) => rowKeyText(texts, keys);
  const pending = new Map(content.map(texts => [keyOf(texts), texts]));
  const free: number[] = [];
  const kept: number[] = [];
  for (const row of rows) {
    const key = keyOf(editableTexts(table, row, context));
    const wanted = pending.get(key);
    if (wanted === undefined) {
      free.push(row);
      continue;
    }
    pending.delete(key);
    writeTexts(writer, row, wanted);
    kept.push(row);
  }
  const left = [...pending.values()];
  for (const row of free.splice(0, left.length)) {
    writeTexts(writer, row, left.shift()!);
    kept.push(row);
  }
  return {kept, free, left};
}

/** A new row for a group left over: its read-only cells are the record's first row's. */
function addedRow(
  writer: SheetWriter<never>,
  first: number,
  texts: readonly string[],
): Contents[] {
  const {table} = writer;
  const row = new Array<Contents>(table.width).fill('');
  for (const column of table.schema.columns.filter(c => !c.editable)) {
    const at = table.position.get(column.header);
    if (at !== undefined) row[at] = writer.known(first, column.header);
  }
  for (const [header, contents] of cellsOf(table, texts))
    row[table.position.get(header)!] = contents;
  return row;
}

/** Canonical editable texts as the cells that hold them, by header. */
function cellsOf(
  table: Table<never>,
  texts: readonly string[],
): Array<readonly [string, Contents]> {
  return editableColumns(table).map(
    (column, k) =>
      [column.header, encode(column, fromCanonical(texts[k]))] as const,
  );
}

function writeTexts(
  writer: SheetWriter<never>,
  row: number,
  texts: readonly string[],
): void {
  for (const [header, contents] of cellsOf(writer.table, texts))
    writer.set(row, header, contents);
}
