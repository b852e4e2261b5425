/**
 * revertChange: puts the "before" values of one History change back into their sheets as
 * unpushed edits (EDITED, the message naming the change), for the user to preview and push
 * with the usual push. Nothing is sent here.
 *
 * A record is put back only where that is surely what the user wants back:
 * - its fields must still be as the change left them in what was last pulled or pushed (the
 *   state book): a field the server changed since makes the record CONFLICT, untouched;
 * - its rows must hold no unpushed edit of the user's, which putting back would overwrite:
 *   CONFLICT too, saying to push or undo the edit first;
 * - a write the API refused (ERROR) changed nothing: nothing to put back, but rows that still
 *   hold it (for the next push to send again) go back to the server's values; an UNKNOWN one is
 *   put back when the last refresh shows it was applied, and left when it shows it was not;
 *   with no refresh since a lost answer, revert says to refresh first;
 * - a field whose "before" was not known (support_server_click, which the list never returns)
 *   is not emptied: it keeps what the server is last known to hold, and the message says so.
 * Offers created, materials uploaded and sub-accounts created cannot be undone through the
 * API: revert names them and changes nothing. Reverting twice changes nothing the second time.
 */
import {ConfigError} from '../api/errors';
import type {Platform, Workbook} from '../platform/ports';
import {excerpt} from '../rules/values';
import {CodecContext, encode, fromCanonical} from '../sheets/codec';
import {HistoryRow} from '../sheets/schemas/history';
import {readHistoryBackwards} from '../sheets/history';
import {
  FieldChange,
  historyText,
  shiftContent,
  splitField,
} from '../sheets/history-fields';
import {
  EMPTY,
  columnOf,
  contentOf,
  editableColumns,
  editableTexts,
  groupRows,
  sameContent,
} from '../sheets/rows';
import {
  SYNCED_AT,
  SYNC_MESSAGE,
  SYNC_STATUS,
  SheetSchema,
  editableOf,
} from '../sheets/schema';
import {BUDGETS} from '../sheets/schemas/budgets';
import {CAMPAIGNS} from '../sheets/schemas/campaigns';
import {OFFERS} from '../sheets/schemas/offers';
import {StateBook} from '../sheets/state';
import type {SyncStatus} from '../sheets/status';
import {
  Contents,
  SheetLayoutError,
  Table,
  openTable,
  rowContents,
  sheetRow,
  writeTable,
} from '../sheets/table';
import {counted} from '../text/wording';
import {accountLabel} from './connect';
import {JobSummary, MAX_PROBLEMS, RowProblem, withDocumentLock} from './run';

/** The sheets whose changes a push sent, and so a push can send back. */
const REVERTIBLE: ReadonlyArray<SheetSchema<never>> = [
  BUDGETS,
  CAMPAIGNS,
  OFFERS,
] as never;

/** Whether a push sent that sheet's changes, so that revert can put them back. */
export function isRevertible(sheet: string): boolean {
  return REVERTIBLE.some(s => s.name === sheet);
}

/** The rows of one change id, newest first, read back from the newest run. */
export function changeRows(workbook: Workbook, changeId: string): HistoryRow[] {
  const wanted = changeId.trim();
  const rows = readHistoryBackwards(workbook, read => {
    const first = read.findIndex(r => r.change_id === wanted);
    // A run's rows are one block: past it, the rest is older runs. A row without an id (one
    // the user inserted in the block) is no older run: reading on finds the rest of the block.
    return (
      first >= 0 &&
      read.slice(first).some(r => r.change_id !== wanted && r.change_id !== '')
    );
  });
  return rows.filter(r => r.change_id === wanted).reverse();
}

interface RecordChange {
  id: string;
  outcome: string;
  fields: FieldChange[];
}

/** Per sheet, per record: what the change did to it, in History order. */
function bySheet(rows: readonly HistoryRow[]): Map<string, RecordChange[]> {
  const sheets = new Map<string, Map<string, RecordChange>>();
  for (const row of rows) {
    const records = sheets.get(row.sheet) ?? new Map<string, RecordChange>();
    sheets.set(row.sheet, records);
    const record = records.get(row.record) ?? {
      id: row.record,
      outcome: row.outcome,
      fields: [],
    };
    records.set(row.record, record);
    record.fields.push({
      field: row.field,
      before: row.before,
      after: row.after,
    });
  }
  return new Map([...sheets].map(([sheet, m]) => [sheet, [...m.values()]]));
}

interface Tally {
  edited: number;
  conflict: number;
  unchanged: number;
  /** Rows that held a change the server did not take, back to the server's values. */
  withdrawn: number;
  problems: RowProblem[];
  notes: string[];
}

export function revertChange(platform: Platform, changeId: string): JobSummary {
  const id = String(changeId ?? '').trim();
  return withDocumentLock(platform, () => {
    const workbook = platform.workbook();
    const rows = changeRows(workbook, id);
    if (rows.length === 0) {
      throw new ConfigError(
        `Change ${id || '(no id)'} is not in the History sheet: check the id (the sidebar lists the last runs), or it was moved to a History archive sheet. Nothing was changed.`,
      );
    }
    const book = StateBook.open(workbook);
    const now = new Date(platform.clock.now());
    const tally: Tally = {
      edited: 0,
      conflict: 0,
      unchanged: 0,
      withdrawn: 0,
      problems: [],
      notes: [],
    };
    const {account} = rows[0];
    for (const [sheet, records] of bySheet(rows)) {
      const schema = REVERTIBLE.find(s => s.name === sheet);
      if (!schema) {
        tally.notes.push(
          `${counted(records.length, 'record')} of ${sheet} cannot be reverted: the API cannot delete what was created or uploaded. They stay as they are.`,
        );
        continue;
      }
      revertSheet(
        {workbook, now, book, account, changeId: id, tally},
        schema,
        records,
      );
    }
    const parts = [
      tally.edited > 0
        ? `${counted(tally.edited, 'row')} put back as EDITED: preview and push to send ${tally.edited === 1 ? 'it' : 'them'}`
        : 'Nothing put back',
      tally.withdrawn > 0
        ? `${counted(tally.withdrawn, 'row')} back to the server's values, which never took the change: nothing to push for ${tally.withdrawn === 1 ? 'it' : 'them'}`
        : '',
      tally.conflict > 0
        ? `${counted(tally.conflict, 'row')} CONFLICT: see sync_message`
        : '',
      tally.unchanged > 0
        ? `${counted(tally.unchanged, 'record')} needed nothing`
        : '',
    ].filter(p => p !== '');
    return {
      job: 'revertChange',
      account,
      ok: 0,
      invalid: 0,
      error: 0,
      skipped: tally.unchanged,
      remaining: 0,
      dryRun: false,
      edited: tally.edited,
      conflict: tally.conflict,
      changeId: id,
      problems: tally.problems.slice(0, MAX_PROBLEMS),
      requests: 0,
      message: [`${parts.join('; ')}. Nothing was sent.`, ...tally.notes].join(
        ' ',
      ),
    };
  });
}

/** What every sheet of one revert shares. */
interface RevertRun {
  workbook: Workbook;
  now: Date;
  book: StateBook;
  /** The account the change was made as (accountLabel). */
  account: string;
  changeId: string;
  tally: Tally;
}

function revertSheet(
  run: RevertRun,
  schema: SheetSchema<never>,
  records: readonly RecordChange[],
): void {
  const {workbook, now, book, account, changeId, tally} = run;
  const problem = (message: string) => tally.notes.push(message);
  let table: Table<never> | null;
  try {
    table = openTable(workbook, schema, {create: false});
  } catch (e) {
    if (!(e instanceof SheetLayoutError)) throw e;
    problem(`${e.message} Change ${changeId} was not put back there.`);
    return;
  }
  const state = book.get(schema.name);
  if (!table || !state) {
    problem(
      `${schema.name} is not refreshed in this spreadsheet: refresh it, then revert ${changeId} again. Nothing was changed.`,
    );
    return;
  }
  if (accountLabel(state.account) !== account) {
    problem(
      `${schema.name} holds the ${accountLabel(state.account)}'s records, but change ${changeId} was made as the ${account}: act as it, refresh, then revert again. Nothing was changed.`,
    );
    return;
  }
  const sheet = table;
  const groups = groupRows(sheet, workbook);
  const out: Contents[][] = sheet.values.map((_, i) => rowContents(sheet, i));
  // By row array: rows added or removed for budget groups move the ones after them.
  const conflicts = new Map<Contents[], string>();
  const mark = (row: Contents[], status: SyncStatus | '', message: string) => {
    const at = (header: string) => sheet.position.get(header)!;
    row[at(SYNC_STATUS)] = status;
    row[at(SYNC_MESSAGE)] = message;
    row[at(SYNCED_AT)] = now;
    if (status === 'CONFLICT') conflicts.set(row, message);
  };
  const setStatus = (row: number, status: SyncStatus | '', message: string) =>
    mark(out[row], status, message);
  const added = new Map<number, Contents[][]>();
  const removed = new Set<Contents[]>();
  for (const record of records) {
    const base = state.records[record.id];
    const rows = groups.byId.get(record.id);
    const refused = record.outcome === 'ERROR';
    if (!base || !rows) {
      if (refused) {
        tally.unchanged++;
        continue;
      }
      problem(
        `${schema.id} ${record.id} is not in ${schema.name}: refresh it, then revert ${changeId} again.`,
      );
      continue;
    }
    // The state still holds what the server had before a push whose answer was lost: it
    // cannot tell whether the change is there to put back, and only a refresh can.
    if (base.unknown && !refused) {
      problem(
        `Whether ${schema.id} ${record.id} holds change ${changeId} is not known (the answer to a push of it was lost, and no refresh since shows it): refresh ${schema.name}, then revert ${changeId} again. Its rows were not changed.`,
      );
      continue;
    }
    const sheetContent = contentOf(
      rows.map(r => editableTexts(sheet, r, workbook)),
    );
    const known = withDecisions(schema, base.rows, sheetContent);
    const {fields, keep} = unknownBefore(schema, known, record.fields);
    const shift = (from: 'before' | 'after') =>
      shiftContent(schema, known, fields, from, 'before');
    const target = shift('after');
    /** Writes a record's content into its rows, each row with that status and message. */
    const put = (
      content: string[][],
      status: SyncStatus | '',
      message: string,
    ) => {
      const placed = putBack(sheet, out, rows, content, workbook);
      for (const row of placed.kept) setStatus(row, status, message);
      for (const row of placed.removed) removed.add(out[row]);
      for (const row of placed.added) mark(row, status, message);
      if (placed.added.length > 0)
        added.set(rows[rows.length - 1], placed.added);
      return placed.kept.length + placed.added.length;
    };
    // The server does not hold the change (refused, or not there at the last refresh).
    if (refused || shift('before').ok) {
      // Rows still holding it would have the next push send it again: they go back to the
      // server's values, which is what reverting it means.
      const pending = shiftContent(
        schema,
        base.rows,
        record.fields,
        'before',
        'after',
      );
      if (
        pending.ok &&
        sameContent(sheetContent, pending.content) &&
        !sameContent(sheetContent, base.rows)
      ) {
        tally.withdrawn += put(
          base.rows,
          '',
          `Reverts change ${changeId}, which the server did not take (${refused ? 'refused' : 'not there at the last refresh'}): the row is back to the server's values (${backTo(record.fields)}), so a push sends nothing for it.`,
        );
      } else {
        tally.unchanged++;
      }
      continue;
    }
    // Already as before the change (reverted, not pushed yet): nothing to do.
    if (target.ok && sameContent(sheetContent, target.content)) {
      tally.unchanged++;
      continue;
    }
    if (!target.ok) {
      for (const row of rows)
        setStatus(
          row,
          'CONFLICT',
          `Not reverted: the server changed ${target.fields.join(', ')} of ${schema.id} ${record.id} since change ${changeId} (as last refreshed). Your rows are unchanged; edit them by hand if you still want the old values.`,
        );
      continue;
    }
    if (!sameContent(sheetContent, known)) {
      for (const row of rows)
        setStatus(
          row,
          'CONFLICT',
          `Not reverted: ${schema.id} ${record.id} has edits not pushed yet, which reverting change ${changeId} would overwrite. Push or undo them, then revert again.`,
        );
      continue;
    }
    tally.edited += put(
      target.content,
      'EDITED',
      `Reverts change ${changeId} (${backTo(fields)}): not pushed yet.${keep} Preview, then push to send it.`,
    );
  }
  const written = out.flatMap((row, i) => [
    ...(removed.has(row) ? [] : [row]),
    ...(added.get(i) ?? []),
  ]);
  written.forEach((row, i) => {
    const message = conflicts.get(row);
    if (message === undefined) return;
    tally.conflict++;
    tally.problems.push({
      sheet: schema.name,
      row: sheetRow(i),
      status: 'CONFLICT',
      message,
    });
  });
  writeTable(sheet, written);
}

/** A value in a row's message: at most an excerpt, '(empty)' for none. */
function shown(text: string): string {
  return text === '' ? '(empty)' : excerpt(text, false);
}

/**
 * What the server is last known to hold, with the sheet's value in a one-row record's column
 * the list never returns where the add-on does not know it: filled there, it is the user's
 * decision for the next push (push-tracking.ts), not an edit that reverting would overwrite,
 * and revert keeps it.
 */
function withDecisions(
  schema: SheetSchema<never>,
  known: readonly string[][],
  sheet: readonly string[][],
): string[][] {
  if (schema.rowKey || known.length !== 1 || sheet.length !== 1)
    return known.map(row => [...row]);
  const columns = editableOf(schema);
  return [
    known[0].map((text, k) =>
      text === EMPTY && columns[k].unlisted ? sheet[0][k] : text,
    ),
  ];
}

/** "click_url: new back to old; ..." */
function backTo(fields: readonly FieldChange[]): string {
  return fields
    .map(f => `${f.field}: ${shown(f.after)} back to ${shown(f.before)}`)
    .join('; ');
}

/**
 * The change's fields revert puts back, and what it says of those it keeps: a field the
 * list never returns (support_server_click) had an empty "before" because the add-on did not
 * know the server's value, not because it was empty. Putting '' back would leave a row the
 * next push refuses (PUT tracking needs YES or NO), so such a field keeps what the server is
 * last known to hold (what the change sent), and the row's message says so.
 */
function unknownBefore(
  schema: SheetSchema<never>,
  now: readonly string[][],
  changes: readonly FieldChange[],
): {fields: FieldChange[]; keep: string} {
  const columns = editableOf(schema);
  const at = (f: FieldChange) =>
    columns.findIndex(c => c.header === splitField(f.field).header);
  const kept = changes.filter(f => f.before === '' && columns[at(f)]?.unlisted);
  const keep = kept
    .map(f => {
      const k = at(f);
      const value = historyText(columns[k], now[0]?.[k] ?? EMPTY);
      return ` ${f.field} stays ${value || '(empty)'}: its value before the change was not known to the add-on.`;
    })
    .join('');
  return {fields: changes.filter(f => !kept.includes(f)), keep};
}

/**
 * Writes a record's reverted content into its rows: a one-row record's editable cells; for
 * Budgets, each group into the row that has its key, other groups into the other rows in
 * order; rows left over are answered to remove, groups left over as new rows to add below,
 * their read-only cells as the record's first row.
 */
function putBack(
  table: Table<never>,
  out: Contents[][],
  rows: readonly number[],
  content: readonly string[][],
  context: CodecContext,
): {kept: number[]; removed: number[]; added: Contents[][]} {
  const {schema} = table;
  const columns = editableColumns(table);
  const keys = (schema.rowKey ?? []).map(h =>
    columns.indexOf(columnOf(table, h)),
  );
  const keyOf = (texts: readonly string[]) =>
    JSON.stringify(keys.map(k => texts[k]));
  const write = (row: Contents[], texts: readonly string[]) =>
    columns.forEach((column, k) => {
      row[table.position.get(column.header)!] = encode(
        column,
        fromCanonical(texts[k]),
      );
    });
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
    write(out[row], wanted);
    kept.push(row);
  }
  const left = [...pending.values()];
  for (const row of free.splice(0, left.length)) {
    write(out[row], left.shift()!);
    kept.push(row);
  }
  const first = out[rows[0]];
  const own = schema.columns.filter(c => !c.editable);
  const added = left.map(texts => {
    const row: Contents[] = first.map(() => '');
    for (const column of own) {
      const at = table.position.get(column.header);
      if (at !== undefined) row[at] = first[at];
    }
    write(row, texts);
    return row;
  });
  // A record keeps one row even with no content: an offer without a budget shows one.
  if (kept.length === 0 && added.length === 0 && free.length > 0) {
    const row = free.shift()!;
    write(
      out[row],
      columns.map(() => EMPTY),
    );
    kept.push(row);
  }
  return {kept: kept.sort((a, b) => a - b), removed: free, added};
}
