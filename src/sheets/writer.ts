/**
 * The one writer: every job puts what it decided into a sheet through it, and nothing else.
 *
 * A spreadsheet is shared: while a job sends, people sort, insert and delete rows and type
 * values. So a job's decisions are addressed to the rows it read (handles), never to sheet
 * positions, and the writer:
 * - writes only the cells the job decided on: a value typed meanwhile into any other cell
 *   stays. Where one block is cheaper than many (DESIGN 6), the cells of the block the job did
 *   not decide on are read again just before the write and written back as they are then;
 * - reads the identity cells of the sheet again just before writing (one read of the few
 *   columns that tell a row apart: the schema's `identity`) and puts each decision on the row
 *   that holds that identity now. A row whose identity is gone, or is now held by more rows or
 *   fewer than the job read, is not written: it is reported (`gone`), never written elsewhere;
 * - keeps what a person typed since the job read: a decided cell of a column people type in
 *   (an editable one or their own) is read again just before the write, and where it no longer
 *   shows what the job read, it is not written: the row is reported (`kept`) so that the job
 *   can say what became of it (a refresh merges it again: EDITED, or CONFLICT);
 * - removes and inserts rows with Sheets' own row operations, so that the formulas of rows
 *   that move keep pointing at the cells they meant (a refresh and a revert alike);
 * - bounds every text it writes (cell-entries.ts), so text from a server never makes a write
 *   throw after requests went out, and keeps text text.
 * Where it writes in blocks, write-blocks.ts decides.
 */
import type {CellValue, SheetPort} from '../platform/ports';
import {isDate, sameCell} from './cell';
import {rowRuns} from '../platform/blocks';
import {cellEntries, entryChars} from './cell-entries';
import {LOCKED_COLOR, formatRows} from './layout';
import {
  Column,
  SYNCED_AT,
  SYNC_MESSAGE,
  SYNC_STATUS,
  allColumns,
  identityOf,
} from './schema';
import {SyncStatus, statusColor} from './status';
import {clipped} from '../text/wording';
import {
  Contents,
  FIRST_ROW,
  Formula,
  Table,
  contentsOf,
  sheetRow,
} from './table';
import {
  Block,
  ByRow,
  CELL_MS,
  READ_MS,
  area,
  cost,
  exactBlocks,
  filledColumnRuns,
  joinedBlocks,
  rowBands,
  rowIndex,
} from './write-blocks';

/** The longest sync_message: a reason, not a dump of what a server answered. */
export const MAX_MESSAGE = 2000;

/** What a flush did. */
export interface FlushReport {
  /** Handles whose decisions were not written: their row moved away or was deleted. */
  gone: number[];
  /** Cells written (values), for the bench's counters. */
  cellsWritten: number;
  /** Handles of rows where a cell a person changed since the job read it was not written. */
  kept: number[];
}

/**
 * A row a job can address: one it read, or one it appended. A large sheet has a handle per
 * row, so what most rows never need is made only when needed (issue 37: a refresh of 50,000
 * rows held a Map, a Set, two arrays and a copy of its cells for each).
 */
interface RowHandle {
  /** The table's data row it was read as (undefined: appended by this job). */
  read?: number;
  /** An appended row's contents as the job knows them (a row read: the table's, and `wrote`). */
  known?: Contents[];
  /**
   * What the row's cells showed when read: a formula's value, which is what the identity
   * read finds again (an offer_name built by a formula is that name).
   */
  shown?: readonly CellValue[];
  /** Decisions not written yet: column -> contents. */
  decided?: Map<number, Contents>;
  /**
   * The cells this job wrote since it read the row: `shown` no longer says what they hold.
   * The decisions a flush wrote become it, the same Map.
   */
  wrote?: Map<number, Contents>;
  /** Rows to insert right after this one (a refresh: a record that grew). */
  inserts?: Contents[][];
  /** Rows to insert right above this one. */
  before?: Contents[][];
  remove: boolean;
  /** On the sheet: false for a row appended and not flushed yet. */
  placed: boolean;
  /** Removed by an earlier flush, or found gone. */
  dead: boolean;
}

export class SheetWriter<S> {
  private readonly handles: RowHandle[];
  private readonly identity: number[];
  /** Columns people type in: the editable ones and their own (no schema column's). */
  private readonly typed: ReadonlySet<number>;
  private reported = new Set<number>();
  /** Whether a flush wrote before: the sheet may hold what this job put there. */
  private flushed = false;

  constructor(
    readonly table: Table<S>,
    private readonly now: () => number,
  ) {
    this.handles = table.values.map((values, i) => ({
      read: i,
      shown: values,
      remove: false,
      placed: true,
      dead: false,
    }));
    this.identity = identityOf(table.schema).flatMap(header => {
      const at = table.position.get(header);
      return at === undefined ? [] : [at];
    });
    this.typed = typedColumns(table);
  }

  /** A new row below the others, written at the next flush; answers its handle. */
  append(): number {
    return this.appendRow(new Array<Contents>(this.table.width).fill(''));
  }

  /**
   * A new row of these contents (`table.width` of them), written at the next flush: the
   * writer takes the array as it is, and may change it.
   */
  private appendRow(row: Contents[]): number {
    this.handles.push({known: row, remove: false, placed: false, dead: false});
    return this.handles.length - 1;
  }

  /** Decides the cell under `header` (nothing when the sheet has no such column). */
  set(handle: number, header: string, value: Contents): void {
    const at = this.table.position.get(header);
    if (at === undefined) return;
    decide(this.handles[handle], at, value);
  }

  /**
   * The row's sync_status, sync_message and synced_at ('' clears all three). A message is
   * bounded to MAX_MESSAGE characters: it quotes servers and users.
   */
  status(handle: number, status: SyncStatus | '', message: string): void {
    this.set(handle, SYNC_STATUS, status);
    this.set(handle, SYNC_MESSAGE, boundedMessage(message));
    this.set(handle, SYNCED_AT, status === '' ? '' : new Date(this.now()));
  }

  /** Decides every cell of a row (a row of `table.width` contents). */
  setRow(handle: number, row: readonly Contents[]): void {
    const h = this.handles[handle];
    row.forEach((contents, c) => {
      if (!sameContents(this.cellKnown(h, c), contents)) decide(h, c, contents);
    });
  }

  /** Rows to insert right below `handle`'s row. */
  insertAfter(handle: number, rows: Contents[][]): void {
    if (rows.length === 0) return;
    const h = this.handles[handle];
    h.inserts = [...(h.inserts ?? []), ...rows];
  }

  /** Rows to insert right above `handle`'s row. */
  insertBefore(handle: number, rows: Contents[][]): void {
    if (rows.length === 0) return;
    const h = this.handles[handle];
    h.before = [...(h.before ?? []), ...rows];
  }

  /** A cell as the job knows it: as read, or as this job last wrote it. */
  private cellKnown(h: RowHandle, c: number): Contents {
    if (h.known) return h.known[c] ?? '';
    return h.wrote?.get(c) ?? contentsOf(this.table, h.read!, c);
  }

  /**
   * Makes the data rows `rows`, where `sources[k]` is the handle row k comes from (undefined:
   * a new row): each row kept is changed in place, cell by cell; a handle no row comes from is
   * removed; a new row is inserted next to the row before it (or after it, at the top), and
   * new rows after the last kept row are appended. Answers where each row will be (0-based
   * data row), were nobody else to change the sheet meanwhile. The writer takes the new rows'
   * arrays as they are (no copy of a large sheet's rows): the caller no longer changes them.
   */
  replaceRows(
    rows: Contents[][],
    sources: ReadonlyArray<number | undefined>,
  ): number[] {
    const kept = new Set<number>();
    let anchor: number | undefined;
    let waiting: Contents[][] = [];
    rows.forEach((row, k) => {
      const from = sources[k];
      if (from === undefined) {
        waiting.push(row);
        return;
      }
      kept.add(from);
      this.setRow(from, row);
      if (waiting.length > 0) {
        if (anchor === undefined) this.insertBefore(from, waiting);
        else this.insertAfter(anchor, waiting);
        waiting = [];
      }
      anchor = from;
    });
    for (const row of waiting) this.appendRow(this.padded(row));
    this.handles.forEach((h, k) => {
      if (h.placed && !h.dead && !kept.has(k)) this.remove(k);
    });
    return this.layout(rows, sources);
  }

  /** Where rows given to replaceRows land: handles in their order, inserts beside them. */
  private layout(
    rows: Contents[][],
    sources: ReadonlyArray<number | undefined>,
  ): number[] {
    const at = new Array<number>(rows.length).fill(-1);
    const outOf = new Map<number, number>();
    sources.forEach((from, k) => {
      if (from !== undefined) outOf.set(from, k);
    });
    let next = 0;
    const indexOf = new Map(rows.map((row, k) => [row, k]));
    const newRows = (list: Contents[][]) => {
      for (const row of list) at[indexOf.get(row)!] = next++;
    };
    this.handles.forEach((h, k) => {
      if (!h.placed || h.dead || h.remove) return;
      newRows(h.before ?? []);
      const out = outOf.get(k);
      if (out !== undefined) at[out] = next++;
      newRows(h.inserts ?? []);
    });
    return at.map(position => (position < 0 ? next++ : position));
  }

  /** Deletes the row (Sheets moves the rows below up, adjusting their formulas). */
  remove(handle: number): void {
    this.handles[handle].remove = true;
  }

  /** The contents the job knows of a cell: as read, or as this job last decided it. */
  known(handle: number, header: string): Contents {
    const at = this.table.position.get(header);
    if (at === undefined) return '';
    const row = this.handles[handle];
    return row.decided?.get(at) ?? this.cellKnown(row, at);
  }

  /** Whether a flush has anything to write. */
  pending(): boolean {
    return this.handles.some(h => !h.dead && (busy(h) || !h.placed));
  }

  /** Writes every decision made since the last flush; see the header. */
  flush(): FlushReport {
    if (!this.pending()) return {gone: [], cellsWritten: 0, kept: []};
    const {rows: where, last} = this.locate();
    const gone: number[] = [];
    let cellsWritten = 0;
    const updates: Array<{row: number; handle: RowHandle; k: number}> = [];
    this.handles.forEach((handle, k) => {
      if (handle.dead || !handle.placed) return;
      const at = where.get(k);
      if (at === undefined) {
        if (busy(handle)) {
          gone.push(k);
          this.reported.add(k);
        }
        handle.decided = handle.inserts = handle.before = undefined;
        handle.remove = false;
        return;
      }
      if (handle.decided) updates.push({row: at, handle, k});
    });
    const kept = this.keepTyping(updates);
    cellsWritten += this.writeUpdates(updates.filter(u => u.handle.decided));
    const height = this.restructure(where);
    cellsWritten += this.writeAppends(last + height);
    return {gone, cellsWritten, kept};
  }

  /**
   * Drops the decisions on cells people type in that no longer show what the job read (a
   * collaborator typed there meanwhile), reading them again in the blocks that cost least;
   * answers the handles of the rows concerned.
   */
  private keepTyping(
    updates: ReadonlyArray<{row: number; handle: RowHandle; k: number}>,
  ): number[] {
    const watched = this.watched(updates);
    if (watched.length === 0) return [];
    const price = (blocks: Block[]) =>
      blocks.reduce((ms, b) => ms + READ_MS + area(b) * CELL_MS, 0);
    const exact = exactBlocks(watched);
    const joined = joinedBlocks(watched, this.table.width);
    const blocks = price(joined) < price(exact) ? joined : exact;
    const byRow = rowIndex(watched, w => w);
    const kept = new Set<number>();
    for (const block of blocks) {
      const now = this.table.sheet.readBlock(
        sheetRow(block.top),
        block.left + 1,
        block.bottom - block.top + 1,
        block.right - block.left + 1,
      );
      for (let r = block.top; r <= block.bottom; r++) {
        const w = byRow.get(r);
        if (!w) continue;
        for (let c = block.left; c <= block.right; c++) {
          if (!w.handle.decided.has(c)) continue;
          if (sameCell(now[r - block.top][c - block.left], w.of.shown![c]))
            continue;
          undecide(w.of, c);
          kept.add(w.k);
        }
      }
    }
    return [...kept];
  }

  /**
   * The updates that decide cells people type in, as the job read them (nothing written there
   * since), with those columns: each set of columns is one object, shared by the rows that
   * have it (a copy of each row's decisions was 10 MB of a 42,000-row write, issue 37).
   */
  private watched(
    updates: ReadonlyArray<{row: number; handle: RowHandle; k: number}>,
  ): Array<{
    row: number;
    handle: {decided: ReadonlySet<number>};
    k: number;
    of: RowHandle;
  }> {
    const sets = new Map<string, {decided: ReadonlySet<number>}>();
    return updates.flatMap(({row, handle, k}) => {
      const columns = this.typedDecisions(handle);
      if (columns.length === 0) return [];
      const key = columns.join(',');
      let set = sets.get(key);
      if (!set) sets.set(key, (set = {decided: new Set(columns)}));
      return [{row, handle: set, k, of: handle}];
    });
  }

  /** The columns people type in where the row, as read, has a decision not yet written. */
  private typedDecisions(handle: RowHandle): number[] {
    if (!handle.shown || !handle.decided) return [];
    return [...handle.decided.keys()].filter(
      c => this.typed.has(c) && !handle.wrote?.has(c),
    );
  }

  /**
   * Where each placed handle's row is now (0-based data row), from one read of the identity
   * columns, and the last data row's index + 1.
   */
  private locate(): {rows: Map<number, number>; last: number} {
    const {sheet} = this.table;
    const placed = this.handles.some(h => h.placed && !h.dead);
    // A sheet this job created holds only what it wrote: nothing to look up before the
    // first write (the first refresh of a new sheet costs no read).
    if (!placed && this.table.plainText && !this.flushed) {
      this.flushed = true;
      return {rows: new Map(), last: 0};
    }
    this.flushed = true;
    const lastRow = sheet.lastRow();
    const count = Math.max(0, lastRow - FIRST_ROW + 1);
    const moving = this.handles.some(h => h.placed && !h.dead && busy(h));
    const keyNow = moving ? this.readIdentities(sheet, count) : [];
    const fresh = new Map<string, number[]>();
    keyNow.forEach((key, row) => push(fresh, key, row));
    const expected = new Map<string, number[]>();
    this.handles.forEach((h, k) => {
      if (!h.dead && h.placed) push(expected, this.keyOf(h), k);
    });
    const rows = new Map<number, number>();
    for (const [key, handles] of expected) {
      const found = fresh.get(key) ?? [];
      if (found.length !== handles.length) continue;
      handles.forEach((k, n) => rows.set(k, found[n]));
    }
    return {rows, last: count};
  }

  private readIdentities(sheet: SheetPort, count: number): string[] {
    if (count === 0) return [];
    if (this.identity.length === 0) {
      return Array.from({length: count}, (_, i) => String(i));
    }
    // Columns far apart are read apart: the cells between would cost more than a read.
    const gap = READ_MS / (CELL_MS * count);
    const sorted = [...this.identity].sort((a, b) => a - b);
    const runs: Array<[number, number]> = [];
    for (const c of sorted) {
      const last = runs[runs.length - 1];
      if (last && c - last[1] - 1 <= gap) last[1] = c;
      else runs.push([c, c]);
    }
    const cells = new Map<number, CellValue[]>();
    for (const [from, to] of runs) {
      const block = sheet.readBlock(FIRST_ROW, from + 1, count, to - from + 1);
      for (let c = from; c <= to; c++) {
        cells.set(
          c,
          block.map(row => row[c - from]),
        );
      }
    }
    return Array.from({length: count}, (_, i) =>
      identityKey(this.identity.map(c => cells.get(c)![i])),
    );
  }

  /** The identity of a row the job knows, as its cells show it. */
  private keyOf(h: RowHandle): string {
    return identityKey(
      this.identity.map(c => {
        const cell = this.cellKnown(h, c);
        return cell instanceof Formula && h.shown ? h.shown[c] : cell;
      }),
    );
  }

  /**
   * Writes the decided cells of rows found, the cheaper way by the latency model (DESIGN 6):
   * each gap-free rectangle of decided cells as its own block, or a few large blocks whose
   * undecided cells are read again first and written back as they are now.
   */
  private writeUpdates(
    updates: Array<{row: number; handle: RowHandle}>,
  ): number {
    if (updates.length === 0) return 0;
    const byRow = rowIndex(updates, u => u.handle);
    const exact = exactBlocks(updates);
    const joined = joinedBlocks(updates, this.table.width);
    const blocks = cost(joined, byRow) < cost(exact, byRow) ? joined : exact;
    let cells = 0;
    const colours = new Map<number, string | null>();
    for (const block of blocks) {
      for (const band of rowBands(block))
        cells += this.writeBlock(band, byRow, colours);
    }
    this.colourRows(colours);
    for (const {handle} of updates) {
      const decided = handle.decided ?? new Map<number, Contents>();
      handle.decided = undefined;
      if (handle.known) for (const [c, v] of decided) handle.known[c] = v;
      else if (!handle.wrote) handle.wrote = decided;
      else for (const [c, v] of decided) handle.wrote.set(c, v);
    }
    return cells;
  }

  /** `colours`: where the status cells the block changes get their colour (sheet row). */
  private writeBlock(
    block: Block,
    byRow: ByRow<RowHandle>,
    colours: Map<number, string | null>,
  ): number {
    const {sheet} = this.table;
    const rows = block.bottom - block.top + 1;
    const columns = block.right - block.left + 1;
    const decidedAt = (i: number, k: number) =>
      byRow.get(block.top + i)?.decided?.get(block.left + k);
    let gaps = false;
    for (let i = 0; i < rows && !gaps; i++) {
      for (let k = 0; k < columns && !gaps; k++) {
        if (decidedAt(i, k) === undefined) gaps = true;
      }
    }
    const top = sheetRow(block.top);
    const fresh = gaps
      ? this.readNow(top, block.left + 1, rows, columns)
      : undefined;
    const contents = Array.from({length: rows}, (_, i) =>
      Array.from({length: columns}, (_, k) => decidedAt(i, k) ?? fresh![i][k]),
    );
    const entries = cellEntries(this.table, top, block.left, contents);
    sheet.write(top, block.left + 1, entries);
    this.colourStatuses(block, contents, byRow, colours);
    this.colourLocked(block, contents, byRow);
    return rows * columns;
  }

  /** A block's contents as they are now: formulas where there are, values elsewhere. */
  private readNow(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): Contents[][] {
    const {sheet} = this.table;
    const values = sheet.readBlock(row, column, rows, columns);
    const formulas = sheet.readFormulas(row, column, rows, columns);
    return values.map((r, i) =>
      r.map((value, k) => {
        const formula = formulas[i]?.[k] ?? '';
        return formula !== '' ? new Formula(formula) : value;
      }),
    );
  }

  /** Colours of the status cells the block changes, gaps coloured by their status now. */
  private colourStatuses(
    block: Block,
    contents: Contents[][],
    byRow: ByRow<RowHandle>,
    colours: Map<number, string | null>,
  ): void {
    const at = this.table.position.get(SYNC_STATUS);
    if (!this.table.schema.sync || at === undefined) return;
    if (at < block.left || at > block.right) return;
    const k = at - block.left;
    if (this.changedRows(block, byRow, at, statusColor).length === 0) return;
    contents.forEach((row, i) =>
      colours.set(sheetRow(block.top + i), statusColor(row[k])),
    );
  }

  /**
   * The status cells of these sheet rows coloured: one call per colour for all its runs of
   * rows (a range list), as the rows a push settles lie scattered down a large sheet and a
   * call per block would cost as much as writing their values.
   */
  private colourRows(colours: ReadonlyMap<number, string | null>): void {
    const at = this.table.position.get(SYNC_STATUS);
    if (colours.size === 0 || at === undefined) return;
    const byColour = new Map<string | null, number[]>();
    for (const [row, colour] of colours) push(byColour, colour, row);
    for (const [colour, rows] of byColour) {
      this.table.sheet.setBackgroundOf(
        runsOf(rows.sort((a, b) => a - b)).map(([row, count]) => ({
          row,
          column: at + 1,
          rows: count,
          columns: 1,
        })),
        colour,
      );
    }
  }

  /**
   * Greys the editable cells of the block's rows whose lock cell (schema `lockedWhen`) it
   * changes between locked and not, and clears the grey of rows unlocked; the other rows'
   * colours are already right.
   */
  private colourLocked(
    block: Block,
    contents: Contents[][],
    byRow: ByRow<RowHandle>,
  ): void {
    const at = this.lockAt();
    if (at === undefined || at < block.left || at > block.right) return;
    const k = at - block.left;
    this.greyRows(
      this.changedRows(block, byRow, at, c => this.locked(c)).map(i => ({
        row: sheetRow(block.top + i),
        locked: this.locked(contents[i][k]),
      })),
    );
  }

  /** The lock column's position, when the schema has one and the sheet holds it. */
  private lockAt(): number | undefined {
    const lock = this.table.schema.lockedWhen;
    return lock && this.table.position.get(lock.header);
  }

  private locked(contents: Contents | undefined): boolean {
    return (
      String(contents ?? '').trim() === this.table.schema.lockedWhen?.value
    );
  }

  /**
   * Backgrounds of the editable cells of these sheet rows: grey where locked, none elsewhere.
   * One call per colour for all their runs of rows (a range list): the AM rows of a large
   * pull lie scattered, and a colour per cell would cost more than the values themselves.
   */
  private greyRows(rows: ReadonlyArray<{row: number; locked: boolean}>): void {
    if (rows.length === 0) return;
    const {schema, position, sheet} = this.table;
    const columns = runsOf(
      schema.columns
        .filter(c => c.editable)
        .map(c => position.get(c.header))
        .filter((at): at is number => at !== undefined)
        .sort((a, b) => a - b),
    );
    const sorted = [...rows].sort((a, b) => a.row - b.row);
    const blocks = (locked: boolean) =>
      runsOf(sorted.filter(r => r.locked === locked).map(r => r.row)).flatMap(
        ([row, count]) =>
          columns.map(([at, width]) => ({
            row,
            column: at + 1,
            rows: count,
            columns: width,
          })),
      );
    sheet.setBackgroundOf(blocks(true), LOCKED_COLOR);
    sheet.setBackgroundOf(blocks(false), null);
  }

  /**
   * Deletes and inserts rows, from the bottom up so that each operation moves only rows
   * already dealt with. Answers how many rows the sheet gained (negative: lost).
   */
  private restructure(where: Map<number, number>): number {
    const {sheet} = this.table;
    const ops: Array<{row: number; handle: number}> = [];
    this.handles.forEach((h, k) => {
      const at = where.get(k);
      const moves = h.remove || h.inserts || h.before;
      if (at !== undefined && !h.dead && moves) ops.push({row: at, handle: k});
    });
    ops.sort((a, b) => b.row - a.row);
    let height = 0;
    let run: {top: number; bottom: number} | undefined;
    const closeRun = () => {
      if (!run) return;
      sheet.deleteRows(sheetRow(run.top), run.bottom - run.top + 1);
      height -= run.bottom - run.top + 1;
      run = undefined;
    };
    for (const {row, handle: k} of ops) {
      const handle = this.handles[k];
      if (handle.inserts) {
        closeRun();
        height += this.insertRows(sheetRow(row), handle.inserts);
        handle.inserts = undefined;
      }
      if (handle.remove) {
        if (run && run.top === row + 1) run.top = row;
        else {
          closeRun();
          run = {top: row, bottom: row};
        }
        handle.remove = false;
        handle.dead = true;
      }
      if (handle.before) {
        closeRun();
        height += this.insertRows(sheetRow(row) - 1, handle.before);
        handle.before = undefined;
      }
    }
    closeRun();
    return height;
  }

  /** New rows right below sheet row `after`. */
  private insertRows(after: number, rows: Contents[][]): number {
    this.table.sheet.insertRowsAfter(after, rows.length);
    this.writeNewRows(after + 1, rows);
    return rows.length;
  }

  /**
   * Rows written where every cell is blank (inserted, or below the last row): one block, less
   * the columns blank in all of them, sent in calls within the bounds of one (blocks.ts).
   * Each call's cells are made from the rows as it goes: a large pull's rows are not copied
   * whole (issue 37). A row shorter than the table is blank after its end. Answers the cells
   * written.
   */
  private writeNewRows(
    top: number,
    rows: ReadonlyArray<readonly Contents[]>,
  ): number {
    let cells = 0;
    for (const {left, right} of filledColumnRuns(rows)) {
      const columns = right - left + 1;
      const chars = (i: number) => {
        let n = 0;
        for (let c = left; c <= right; c++) n += entryChars(rows[i][c] ?? '');
        return n;
      };
      for (const [first, count] of rowRuns(rows.length, columns, chars)) {
        const block = rows
          .slice(first, first + count)
          .map(r => Array.from({length: columns}, (_, k) => r[left + k] ?? ''));
        this.table.sheet.write(
          top + first,
          left + 1,
          cellEntries(this.table, top + first, left, block),
        );
      }
      cells += rows.length * columns;
    }
    this.colourNew(top, rows);
    const at = this.lockAt();
    if (at !== undefined && rows.some(r => this.locked(r[at])))
      this.greyRows(
        rows.map((r, i) => ({row: top + i, locked: this.locked(r[at])})),
      );
    return cells;
  }

  /** Rows appended since the last flush, written below the last data row. */
  private writeAppends(count: number): number {
    const appended = this.handles.filter(h => !h.placed && !h.dead);
    if (appended.length === 0) return 0;
    const top = sheetRow(count);
    this.growTo(top + appended.length - 1);
    const rows = appended.map(h => {
      const row = h.known!;
      // Only a handle that has decisions is given `undefined`: a property added to the others
      // grows each of them (40 bytes a row of a 50,000-row pull).
      if (h.decided) {
        for (const [c, contents] of h.decided) row[c] = contents;
        h.decided = undefined;
      }
      h.placed = true;
      return row;
    });
    return this.writeNewRows(top, rows);
  }

  /** The row made `table.width` long, in place. */
  private padded(row: Contents[]): Contents[] {
    while (row.length < this.table.width) row.push('');
    return row;
  }

  private colourNew(
    top: number,
    rows: ReadonlyArray<readonly Contents[]>,
  ): void {
    const at = this.table.position.get(SYNC_STATUS);
    if (!this.table.schema.sync || at === undefined) return;
    if (!rows.some(r => statusColor(r[at]) !== null)) return;
    this.table.sheet.setBackgrounds(
      top,
      at + 1,
      rows.map(r => [statusColor(r[at])]),
    );
  }

  /**
   * The block's rows (offsets from its top) where it decides a cell of column `at` that `kind`
   * tells apart from the cell as the job knew it (a status of another colour, a row locked or
   * unlocked): their colours to redo.
   */
  private changedRows(
    block: Block,
    byRow: ByRow<RowHandle>,
    at: number,
    kind: (contents: Contents | undefined) => unknown,
  ): number[] {
    const rows: number[] = [];
    for (let i = 0; i <= block.bottom - block.top; i++) {
      const handle = byRow.get(block.top + i);
      const decided = handle?.decided?.get(at);
      if (
        decided !== undefined &&
        kind(this.cellKnown(handle!, at)) !== kind(decided)
      )
        rows.push(i);
    }
    return rows;
  }

  /** Grows the sheet to hold sheet row `row`, formatting the new rows like the others. */
  private growTo(row: number): void {
    const {sheet, schema, position, width} = this.table;
    const had = sheet.maxRows();
    if (row <= had) return;
    sheet.ensureSize(row, width);
    const placed = allColumns(schema).map(column => ({
      column: column as Column<never>,
      at: (position.get(column.header) ?? 0) + 1,
    }));
    formatRows(sheet, placed, had + 1, row - had);
  }
}

function boundedMessage(message: string): string {
  return clipped(message, MAX_MESSAGE);
}

/** Columns people type in: the editable ones and their own (no schema column's). */
function typedColumns<S>(table: Table<S>): Set<number> {
  const theirs = new Set(
    allColumns(table.schema).flatMap(c => {
      const at = table.position.get(c.header);
      return at === undefined || c.editable ? [] : [at];
    }),
  );
  return new Set(
    Array.from({length: table.width}, (_, c) => c).filter(c => !theirs.has(c)),
  );
}

/**
 * Whether writing `rows` over the table as read (replaceRows, where `sources` are the data
 * rows they come from) could keep a person's typing at the flush (FlushReport.kept): a row
 * read would change in a cell people type in. Asked before a writer decides anything.
 */
export function wouldKeepTyping<S>(
  table: Table<S>,
  rows: ReadonlyArray<readonly Contents[]>,
  sources: ReadonlyArray<number | undefined>,
): boolean {
  const typed = [...typedColumns(table)];
  return sources.some(
    (from, k) =>
      from !== undefined &&
      typed.some(
        c =>
          c < rows[k].length &&
          !sameContents(contentsOf(table, from, c), rows[k][c]),
      ),
  );
}

/** Records a decision on a cell of the handle's row. */
function decide(h: RowHandle, column: number, contents: Contents): void {
  h.decided ??= new Map();
  h.decided.set(column, contents);
}

/** Drops the decision on a cell (a person typed there meanwhile). */
function undecide(h: RowHandle, column: number): void {
  h.decided?.delete(column);
  if (h.decided?.size === 0) h.decided = undefined;
}

/** Whether the handle has anything to write or move. */
function busy(h: RowHandle): boolean {
  return (
    h.decided !== undefined ||
    h.inserts !== undefined ||
    h.before !== undefined ||
    h.remove
  );
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function identityKey(cells: ReadonlyArray<Contents | undefined>): string {
  return cells.map(keyText).join('\u0001');
}

/** A cell as identity text: what a sheet holds in it, whatever the realm of a Date. */
function keyText(cell: Contents | undefined): string {
  if (cell === undefined || cell === null) return '';
  if (cell instanceof Formula) return cell.text;
  if (isDate(cell)) return `d${cell.getTime()}`;
  return typeof cell === 'string' ? cell.trim() : String(cell);
}

export function sameContents(a: Contents, b: Contents): boolean {
  if (a instanceof Formula || b instanceof Formula) {
    return a instanceof Formula && b instanceof Formula && a.text === b.text;
  }
  return sameCell(a, b);
}

/** Ascending numbers as runs of consecutive ones: [start, count]. */
function runsOf(sorted: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const n of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === n) last[1]++;
    else runs.push([n, 1]);
  }
  return runs;
}
