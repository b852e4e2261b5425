/**
 * The refresh merge: API records, the sheet as the user left it, and what was last pulled
 * (pulled.ts) become the sheet's new rows and the new state, without losing an unpushed edit or
 * a cell of a column the user added.
 *
 * For each record (matched with its rows by id, never by position), comparing the editable
 * cells of its rows (rows.ts `contentOf`):
 * - as last pulled, or as the server has them now: the server's rows replace them; the user's
 *   own columns stay with the record (several rows: matched by `rowKey`, then in order);
 * - edited, and the server still has what was last pulled: EDITED, the user's values stay;
 * - edited, and the server changed too: CONFLICT, the user's values stay and the message gives
 *   the server's. Nothing pulled before counts as a server change.
 * Read-only columns always take the server's values. Records keep their place in the sheet;
 * new ones are appended in the API's order. Rows of a record the API no longer lists are
 * dropped unless they hold edits (then kept, CONFLICT). Rows without a readable id, and a
 * second row of a one-row record, are kept and INVALID. Blank rows are dropped. A sheet
 * without status columns (a listing that answers one query: Creative Ads) keeps no row the API
 * did not list, as nothing in it could say why the row stays.
 *
 * A column the table put back (it was missing) holds nothing the user typed: edits are told
 * by the other columns, and rows kept for their edits take its cells from the server (or from
 * what was last pulled when the server no longer lists the record), so an empty cell the user
 * never typed never becomes an edit. A formula in an editable column stays when the server's
 * value equals its value; otherwise its value is an edit like any other.
 *
 * Accounts: a record is its account and its id (accounts.ts), so the rows of the accounts
 * listed now are merged as above, and the rows of every other account, with what they last
 * pulled, stay exactly as they are: a refresh as one account replaces that account's rows only
 * (but in a sheet without status columns, which shows the answer to the last query only).
 * A row whose `account` cell is empty (an earlier release wrote none) is the account that
 * release pulled (pulled.ts blankAccountOf); the merge fills its cell.
 *
 * The new state is the server's content for every listed record (so a CONFLICT is reported
 * once, then the row stays edited with its CONFLICT status until pushed or made equal).
 */
import type {CellValue} from '../platform/ports';
import {sameCell} from './cell';
import {CodecContext, canonical, encode, fromCanonical} from './codec';
import {excerpt} from '../rules/values';
import {ACCOUNT, keyParts} from './accounts';
import {
  EMPTY,
  columnOf,
  contentOf,
  editableColumns,
  editableTexts,
  groupRows,
  missingAccountMessage,
  missingIdMessage,
  sameContent,
} from './rows';
import {
  Column,
  SYNCED_AT,
  SYNC_COLUMNS,
  SYNC_MESSAGE,
  SYNC_STATUS,
} from './schema';
import {RecordState, SheetState, blankAccountOf, pulledAs} from './pulled';
import {EDITED_HERE, SyncStatus, withoutRunNote} from './status';
import {Contents, Formula, Table, cellOf, contentsOf, sheetRow} from './table';
import {
  PulledRecord,
  ServerCells,
  ServerRecord,
  ServerRecords,
  columnIndex,
  encodeRecords,
  serverRecords,
} from './server-records';

export type {PulledRecord} from './server-records';

export interface MergeCounts {
  /** Records listed. */
  records: number;
  added: number;
  removed: number;
  edited: number;
  conflict: number;
  invalid: number;
}

export interface RowNote {
  /** 1-based sheet row after the write. */
  row: number;
  status: SyncStatus;
  message: string;
}

export interface MergeResult {
  /** The sheet's new data rows, for the writer's replaceRows. */
  rows: Contents[][];
  /** The data row each new row comes from (undefined: a new row). */
  sources: Array<number | undefined>;
  state: SheetState;
  counts: MergeCounts;
  /** Rows that need the user's attention (CONFLICT, INVALID). */
  notes: RowNote[];
}

export interface MergeOptions<S> {
  table: Table<S>;
  /** What was last pulled, if anything. */
  previous: SheetState | undefined;
  /** The accounts listed ('' for the main account): every record of `records` is of one. */
  accounts: readonly string[];
  /** How messages name an account: 'main account', 'sub-account X'. */
  label: (account: string) => string;
  context: CodecContext;
  /** The moment statuses are written. */
  now: Date;
}

export interface MergeInput<S> extends MergeOptions<S> {
  records: ReadonlyArray<PulledRecord<S>>;
}

/** Statuses a still-edited row keeps: until the next push they say more than EDITED. */
const KEPT_STATUSES = new Set<string>(['INVALID', 'ERROR', 'CONFLICT']);

export function mergeRecords<S>(input: MergeInput<S>): MergeResult {
  const {records, ...options} = input;
  return mergeServerRecords(
    options,
    serverRecords(
      input.table,
      encodeRecords(input.table.schema, records),
      input.previous,
      input.context,
    ),
  );
}

/**
 * The merge of records already encoded (server-records.ts): a refresh merges them again after
 * a person typed into the rows it wrote, without the parsed records they came from.
 */
export function mergeServerRecords<S>(
  options: MergeOptions<S>,
  server: ServerRecords,
): MergeResult {
  return new Merge(options, server).run();
}

/**
 * Each text of `content` that the same place of `last` holds too is made last's own string:
 * a record of which one field changed keeps one copy of the others.
 */
function heldOnceWith(content: string[][], last: readonly string[][]): void {
  content.forEach((row, r) =>
    row.forEach((text, c) => {
      if (last[r]?.[c] === text) row[c] = last[r][c];
    }),
  );
}

/** Whether two records' facts are the same. */
function sameFacts(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every(k => a[k] === b[k])
  );
}

/** A record key's id (its canonical text) as its cell shows it: an md5 without JSON's quotes. */
function shownId(key: string): string {
  const {id} = keyParts(key);
  const value = fromCanonical(id);
  // A cell that did not decode: its canonical text is its raw text behind one marker character.
  return value === null ? id.slice(1) : String(value);
}

/** How the rows of a record the user edited are written. */
interface Verdict {
  status: SyncStatus;
  message: string;
  /** The server's record, whose read-only cells the rows take. */
  record: ServerRecord | undefined;
  /** Without a server record: what was last pulled, for the cells of put-back columns. */
  base?: RecordState;
}

class Merge<S> {
  private readonly table: Table<S>;
  private readonly editable: ReadonlyArray<Column<S>>;
  /** Positions (in `editable`) of the editable columns the table put back. */
  private readonly absent: ReadonlySet<number>;
  /** What was last pulled, by record key. */
  private readonly own: Record<string, RecordState>;
  /** The accounts listed now: the rows of others stay as they are. */
  private readonly listed: ReadonlySet<string>;
  /** The index of each header among the schema's columns (a server row's cells). */
  private readonly at: ReadonlyMap<string, number>;
  /**
   * Whether the sheet's columns begin with the schema's, in its order (a sheet the add-on
   * laid out): a new row is then its server cells, with nothing after them.
   */
  private readonly schemaOrder: boolean;
  private readonly out: Contents[][] = [];
  private readonly sources: Array<number | undefined> = [];
  private readonly notes: RowNote[] = [];
  private readonly records: Record<string, RecordState> = {};
  private readonly kept = new Map<string, Verdict>();
  private readonly counts: MergeCounts = {
    records: 0,
    added: 0,
    removed: 0,
    edited: 0,
    conflict: 0,
    invalid: 0,
  };

  constructor(
    private readonly input: MergeOptions<S>,
    private readonly server: ServerRecords,
  ) {
    this.table = input.table;
    this.editable = editableColumns(this.table);
    const unrecorded = new Set(input.previous?.unrecorded);
    this.absent = new Set(
      this.editable.flatMap((c, k) =>
        this.table.added.has(c.header) || unrecorded.has(c.header) ? [k] : [],
      ),
    );
    this.own = input.previous?.records ?? {};
    this.listed = new Set(input.accounts);
    this.at = columnIndex(this.table.schema);
    this.schemaOrder = this.table.schema.columns.every(
      (c, k) => this.table.position.get(c.header) === k,
    );
  }

  run(): MergeResult {
    const {server} = this;
    const {previous} = this.input;
    // An empty account cell is the account that pulled its id, else the one account listed.
    const pulledBy = blankAccountOf(previous);
    const only = this.listed.size === 1 ? [...this.listed][0] : undefined;
    const {byKey, order} = groupRows(
      this.table,
      this.input.context,
      id => pulledBy?.(id) ?? only,
    );
    // Another account's records stay as last pulled while a row holds them: the rows a person
    // deleted of an account no longer listed (a deleted sub-account) are not kept, so the
    // account is no longer named as left out.
    for (const [key, state] of Object.entries(this.own)) {
      if (!this.listed.has(keyParts(key).account) && byKey.has(key))
        this.records[key] = state;
    }
    const seen = new Set<string>();
    for (const {index, key, awaits, noAccount} of order) {
      if (awaits) {
        this.emit(this.carried(index), index);
      } else if (key !== null && !this.listed.has(keyParts(key).account)) {
        // A sheet that answers one query (Creative Ads) shows the last answer only.
        if (this.table.schema.sync) this.emit(this.carried(index), index);
        else this.counts.removed++;
      } else if (noAccount) {
        this.counts.invalid++;
        this.keepRow(index, {
          status: 'INVALID',
          message: missingAccountMessage(this.table),
          record: undefined,
        });
      } else if (key === null) {
        this.counts.invalid++;
        this.keepRow(index, {
          status: 'INVALID',
          message: missingIdMessage(this.table, index),
          record: undefined,
        });
      } else if (!seen.has(key)) {
        seen.add(key);
        this.mergeRecord(key, byKey.get(key)!, server.get(key));
      } else {
        const verdict = this.kept.get(key);
        if (verdict) this.keepRow(index, verdict);
      }
    }
    for (const record of server.values()) {
      if (byKey.has(record.key)) continue;
      this.remember(record);
      this.counts.added++;
      for (const row of record.rows) this.emitServerRow(row, undefined);
    }
    this.counts.records = server.size;
    const accounts = new Set([...(previous?.accounts ?? []), ...this.listed]);
    const legacy = previous?.legacyAccount;
    return {
      rows: this.out,
      sources: this.sources,
      state: {
        accounts: [...accounts],
        // Until a refresh of that account has filled its rows' empty account cells.
        ...(legacy !== undefined && !this.listed.has(legacy)
          ? {legacyAccount: legacy}
          : {}),
        records: this.records,
      },
      counts: this.counts,
      notes: this.notes,
    };
  }

  private mergeRecord(
    key: string,
    indexes: number[],
    record: ServerRecord | undefined,
  ): void {
    const {schema} = this.table;
    const texts = indexes.map(i =>
      editableTexts(this.table, i, this.input.context),
    );
    const user = this.project(texts);
    const pulled = this.own[key];
    const base = pulled && pulledAs(pulled, user, rows => this.project(rows));
    if (!record) {
      this.unlisted(key, indexes[0], user, base);
      return;
    }
    this.remember(record);
    if (!schema.rowKey && indexes.length > 1) {
      const rows = indexes.map(sheetRow).join(', ');
      this.keep(key, indexes[0], {
        status: 'INVALID',
        message: `${schema.id} ${shownId(key)} is in rows ${rows}: keep one row per ${schema.id}.`,
        record,
      });
      return;
    }
    const server = this.project(record.content);
    const edited = !sameContent(user, base && this.project(base.rows));
    if (!edited || sameContent(user, server)) {
      this.replace(indexes, record);
    } else if (base && sameContent(server, this.project(base.rows))) {
      this.keep(key, indexes[0], {
        status: 'EDITED',
        message: EDITED_HERE,
        record,
      });
    } else {
      this.keep(key, indexes[0], {
        status: 'CONFLICT',
        message: this.conflictMessage(texts, record),
        record,
      });
    }
  }

  /**
   * Rows of a record its account does not list: dropped when they hold no edit, else kept
   * with what was last pulled of them (a record deleted on the server, or no longer the
   * account's).
   */
  private unlisted(
    key: string,
    first: number,
    user: string[][],
    base: RecordState | undefined,
  ): void {
    const {schema} = this.table;
    const unedited = base && sameContent(user, this.project(base.rows));
    if (!schema.sync || unedited) {
      this.counts.removed++;
      return;
    }
    const {account} = keyParts(key);
    if (base) this.records[key] = base;
    this.keep(key, first, {
      status: base ? 'CONFLICT' : 'INVALID',
      message: base
        ? `The API no longer lists ${schema.id} ${shownId(key)} for the ${this.input.label(account)} (deleted on the server, or no longer this account's): your unpushed edit is kept; delete the row if it is no longer needed.`
        : `${schema.id} ${shownId(key)} is not among the records the ${this.input.label(account)} lists, and no refresh here pulled it: check the id and the ${ACCOUNT} cell, or delete the row.`,
      record: undefined,
      base,
    });
  }

  /**
   * A record's content as far as the sheet can tell edits: without the columns the table put
   * back, whose cells the user never typed.
   */
  private project(rows: string[][]): string[][] {
    if (this.absent.size === 0) return contentOf(rows);
    return contentOf(
      rows.map(row => row.filter((_, k) => !this.absent.has(k))),
    );
  }

  /**
   * The new state of a listed record: the server's content. Content and facts the last pull
   * had already stay the last pull's own arrays and strings: a refresh that finds few changes
   * holds one copy of what did not change, not two (issue 37).
   */
  private remember(record: ServerRecord): void {
    const pulled = this.own[record.key];
    if (pulled && sameContent(pulled.rows, record.content))
      record.content = pulled.rows;
    else if (pulled) heldOnceWith(record.content, pulled.rows);
    if (pulled?.facts && record.facts && sameFacts(pulled.facts, record.facts))
      record.facts = pulled.facts;
    // One shape, made whole (facts undefined where none, and room for the print its write
    // gives it): a spread object holds more, a field added later grows it, and the state
    // keeps one per record listed.
    this.records[record.key] = {
      rows: record.content,
      facts: record.facts,
      readOnly: undefined,
    };
  }

  private keep(id: string, first: number, verdict: Verdict): void {
    if (verdict.status === 'EDITED') this.counts.edited++;
    if (verdict.status === 'CONFLICT') this.counts.conflict++;
    if (verdict.status === 'INVALID') this.counts.invalid++;
    this.kept.set(id, verdict);
    this.keepRow(first, verdict);
  }

  private conflictMessage(user: string[][], record: ServerRecord): string {
    const show = (text: string) => {
      const value = fromCanonical(text);
      if (value === null) return '(empty)';
      return excerpt(
        typeof value === 'string' ? value : JSON.stringify(value),
        false,
      );
    };
    const empty = this.editable.map(() => EMPTY);
    let server: string;
    if (!this.table.schema.rowKey) {
      const mine = user[0] ?? empty;
      const theirs = record.content[0] ?? empty;
      server = this.editable
        .flatMap((c, k) =>
          mine[k] !== theirs[k] && !this.absent.has(k)
            ? [`${c.header} = ${show(theirs[k])}`]
            : [],
        )
        .join(', ');
    } else {
      const groups = record.content.map(row =>
        this.editable.map((c, k) => `${c.header} ${show(row[k])}`).join(', '),
      );
      server = groups.length > 0 ? groups.join('; ') : 'nothing';
    }
    return `Changed on the server too; the server has: ${server}. A push sends your values; type the server's to keep them.`;
  }

  /** The server's rows replace the record's, at the place of its first row. */
  private replace(indexes: number[], record: ServerRecord): void {
    const unused = [...indexes];
    const byKey = (row: ServerCells): number | undefined => {
      if (!this.table.schema.rowKey) return unused.shift();
      const key = this.keyOfCells(h => this.serverCell(row, h)!);
      const at = unused.findIndex(
        i => this.keyOfCells(h => cellOf(this.table, i, h)) === key,
      );
      return at >= 0 ? unused.splice(at, 1)[0] : undefined;
    };
    const from = record.rows.map(byKey);
    record.rows.forEach((row, k) =>
      this.emitServerRow(row, from[k] ?? unused.shift()),
    );
  }

  /** What tells apart the rows of a record (rowKey), from canonical texts by header. */
  private keyOf(text: (header: string) => string | undefined): string {
    return (this.table.schema.rowKey ?? []).map(text).join('\u0001');
  }

  private keyOfCells(cell: (header: string) => CellValue): string {
    return this.keyOf(h => this.canonicalOf(columnOf(this.table, h), cell(h)));
  }

  /**
   * The put-back editable cells of a kept row: the server's row with the same key, else the
   * row last pulled with it (a one-row record: its only row).
   */
  private fillPutBack(row: Contents[], index: number, verdict: Verdict): void {
    if (this.absent.size === 0) return;
    const key = this.keyOfCells(h => cellOf(this.table, index, h));
    const pick = <T>(rows: T[], keyOf: (row: T) => string): T | undefined =>
      rows.find(r => keyOf(r) === key) ??
      (rows.length === 1 ? rows[0] : undefined);
    const position = (h: string) =>
      this.editable.findIndex(c => c.header === h);
    const cells =
      verdict.record &&
      pick(verdict.record.rows, r =>
        this.keyOfCells(h => this.serverCell(r, h)!),
      );
    const texts =
      verdict.base &&
      pick(verdict.base.rows, r => this.keyOf(h => r[position(h)]));
    for (const k of this.absent) {
      const column = this.editable[k];
      const cell = cells
        ? this.serverCell(cells, column.header)
        : texts && encode(column, fromCanonical(texts[k]));
      if (cell !== undefined) this.setCell(row, column.header, cell);
    }
  }

  /** A row as the user has it, read-only cells from the server, with its status. */
  private keepRow(index: number, verdict: Verdict): void {
    const at = this.out.length;
    const row = this.carried(index);
    const server = verdict.record?.rows[0];
    const {schema} = this.table;
    if (server) {
      schema.columns.forEach((column, k) => {
        const cell = server[k];
        if (column.editable || column.header === schema.id) return;
        if (cell !== undefined) {
          row[this.table.position.get(column.header)!] = cell;
        }
      });
    }
    this.fillPutBack(row, index, verdict);
    let {status, message} = verdict;
    const current = String(cellOf(this.table, index, SYNC_STATUS));
    if (
      status === 'EDITED' &&
      KEPT_STATUSES.has(current) &&
      verdict.base === undefined
    ) {
      status = current as SyncStatus;
      message = withoutRunNote(String(cellOf(this.table, index, SYNC_MESSAGE)));
    }
    this.setSync(row, index, status, message);
    if (status !== 'EDITED')
      this.notes.push({row: sheetRow(at), status, message});
    this.emit(row, index);
  }

  private emit(row: Contents[], from: number | undefined): void {
    this.out.push(row);
    this.sources.push(from);
  }

  /** A server row, carrying the user's cells of row `from` (and its OK status). */
  private emitServerRow(cells: ServerCells, from: number | undefined): void {
    const row =
      from === undefined ? this.newRow(cells) : this.serverOver(cells, from);
    this.table.schema.columns.forEach((column, k) => {
      const cell = cells[k];
      const at = this.table.position.get(column.header)!;
      if (cell === undefined || this.keepsFormula(column, from, row[at], cell))
        return;
      // The same text or moment as the sheet's: the record holds the sheet's, not a copy.
      if (from !== undefined && sameCell(cell, row[at] as CellValue))
        cells[k] = row[at] as CellValue;
      row[at] = cells[k]!;
    });
    const keepsOk =
      from !== undefined && cellOf(this.table, from, SYNC_STATUS) === 'OK';
    if (!keepsOk) for (const c of SYNC_COLUMNS) this.setCell(row, c.header, '');
    this.emit(from === undefined ? row : this.asRead(row, from), from);
  }

  /**
   * The table's own row when `row` holds just what it holds (no formula kept, no cell
   * changed): a refresh that changes a few cells of a large sheet holds no copy of the rest
   * (issue 37). Nothing changes a row it emits for a row read (the writer only compares).
   */
  private asRead(row: Contents[], from: number): Contents[] {
    if (this.holdsFormula(from)) return row;
    const read = this.table.values[from];
    return row.every((c, k) => sameCell(c as CellValue, read[k])) ? read : row;
  }

  private holdsFormula(from: number): boolean {
    return this.table.formulas[from]?.some(f => f !== '') ?? false;
  }

  /**
   * The row of a record the sheet holds at `from`, for the server's cells to go over: its row
   * as read. Where the sheet's columns begin with the schema's, the server said every cell and
   * the row holds no formula, the server cells are that row, the row's own cells (statuses,
   * the user's columns) after them as read now: a refresh that changes a cell in every row
   * holds one array a row, not two (issue 37).
   */
  private serverOver(cells: ServerCells, from: number): Contents[] {
    if (
      !this.schemaOrder ||
      cells.includes(undefined) ||
      this.holdsFormula(from)
    )
      return this.carried(from);
    const row = cells as Contents[];
    // As wide as the sheet now: a pass after a column was deleted has fewer.
    row.length = this.table.width;
    for (let c = this.table.schema.columns.length; c < this.table.width; c++)
      row[c] = contentsOf(this.table, from, c);
    return row;
  }

  /**
   * The row of a record the sheet does not hold. Where the sheet has the schema's columns in
   * order and the server said every cell, the server cells are the row, made as wide as the
   * sheet: a large pull holds one array per new row, not two (issue 37). The writer writes
   * the rows it is given as they are.
   */
  private newRow(cells: ServerCells): Contents[] {
    if (!this.schemaOrder || cells.includes(undefined))
      return new Array<Contents>(this.table.width).fill('');
    const row = cells as Contents[];
    // As wide as the sheet now, nothing after the schema's cells (an earlier pass may have
    // put the sheet's cells of another row there).
    row.length = this.table.width;
    return row.fill('', this.table.schema.columns.length);
  }

  /** A user's formula in an editable column stays while its value is the server's. */
  private keepsFormula(
    column: Column<S>,
    from: number | undefined,
    contents: Contents,
    server: CellValue,
  ): boolean {
    return (
      from !== undefined &&
      column.editable === true &&
      contents instanceof Formula &&
      this.canonicalOf(column, cellOf(this.table, from, column.header)) ===
        this.canonicalOf(column, server)
    );
  }

  /** Row `from` as it is: the writer changes it in place, so its formulas stay as they are. */
  private carried(from: number): Contents[] {
    const row: Contents[] = [];
    for (let c = 0; c < this.table.width; c++) {
      row.push(contentsOf(this.table, from, c));
    }
    return row;
  }

  private setSync(
    row: Contents[],
    from: number,
    status: SyncStatus,
    message: string,
  ): void {
    if (!this.table.schema.sync) return;
    const unchanged =
      cellOf(this.table, from, SYNC_STATUS) === status &&
      cellOf(this.table, from, SYNC_MESSAGE) === message;
    if (unchanged) return;
    this.setCell(row, SYNC_STATUS, status);
    this.setCell(row, SYNC_MESSAGE, message);
    this.setCell(row, SYNCED_AT, this.input.now);
  }

  private setCell(row: Contents[], header: string, value: Contents): void {
    const at = this.table.position.get(header);
    if (at !== undefined) row[at] = value;
  }

  /** A server row's cell of `header`. */
  private serverCell(
    cells: ServerCells,
    header: string,
  ): CellValue | undefined {
    return cells[this.at.get(header)!];
  }

  private canonicalOf(column: Column<S>, cell: CellValue): string {
    return canonical(column, cell, this.input.context);
  }
}
