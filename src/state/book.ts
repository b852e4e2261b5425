/**
 * What was last pulled, per sheet: the durable memory that tells a user's edit (the sheet
 * differs from what was pulled) from a server change (the API differs from it), and that
 * keeps what a push needs to know of each record (maintain_by, an offer's delivery geos).
 *
 * It lives in a hidden sheet, `STATE_SHEET`, one column per section (a sheet name): row 1
 * names the section, the cells below hold its JSON in chunks of at most CHUNK characters (a
 * cell holds 50,000), read back by joining them, wherever they were cut (cells.ts).
 * 20,000 offers take a few MB, far beyond the 500 KB of a property store, and the cache is not
 * durable. A job reads the state sheet once (one call is cheapest in round trips), but holds a
 * section decoded only while it is set and not yet saved: otherwise the book keeps its chunks
 * (which a save compares anyway) and decodes them when a job asks for the section, keeping for
 * the next ask the last large one so decoded (and any of one cell). So a Budgets push never
 * holds the decoded Offers state (some 15 MB at 31,000 offers), nor a refresh the Offers state
 * it saved while it merges and writes Budgets (issue 37). A save writes, of each section set
 * that changed, only the cells whose text changed, the section's name marked as being saved
 * until the last of them; one not set keeps its cells as they are.
 * Every chunk starts with 'j', so no chunk is ever read as a number, a date or a formula.
 *
 * Besides the sheets' pull states, the book keeps memos: the add-on's own memory of what it did
 * that the API cannot tell it later (a value it sent that no list returns, the offers it created
 * from which rows). A memo is any JSON value under its own section name.
 */
import type {CellValue, SheetPort, Workbook} from '../platform/ports';
import {recordKey} from '../sheets/accounts';
import type {RecordState, SheetState} from '../sheets/pulled';
import {EMPTY, contentOf} from '../sheets/rows';
import {editableOf} from '../sheets/schema';
import {SCHEMAS} from '../sheets/schemas';
import {CHUNK, changedRuns, layout} from './cells';
import {StoredRecords, readRecords, storeRecords} from './columns';

export const STATE_SHEET = 'Offer Desk state';
const PREFIX = 'j';
/** After a section's name while a save writes its cells: read as no state (save()). */
const SAVING = ' (saving)';
/**
 * 4: a section's records are stored by column (columns.ts), no longer one object per record:
 * the same texts in about a fifth of the characters (issue 37).
 * 3: records are keyed by account and id (accounts.ts recordKey): one section holds the
 * records of every account refreshed into the sheet.
 * 2: each section names the fields its row texts hold (`fields`), so no version of the
 * add-on that reorders, adds or removes an editable column misreads what was pulled.
 * 1 (until 2026-11): the texts were in the order of the editable columns of that release.
 */
const VERSION = 4;

/**
 * The editable columns of each sheet in release 1, in the order its state rows hold them:
 * frozen here, since the schemas may change but what release 1 wrote does not.
 */
const V1_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Budgets: ['country_code', 'daily_cap_type', 'daily_cap', 'total_budget'],
  Campaigns: [
    'campaign_name',
    'promotion_type',
    'is_coppa',
    'product_name',
    'package_name',
    'description',
    'icon',
    'category',
    'app_size',
    'min_version',
  ],
  Offers: ['tracking_method', 'click_url', 'support_server_click'],
};

/**
 * Until version 3 a section held one account's records, and what other accounts had pulled of
 * the rows kept for their edits was a memo of this suffix: read once into the section.
 */
const OTHERS_SUFFIX = ' as other accounts';

interface Stored {
  v: number;
  /** Versions 1 and 2: the one account pulled. */
  account?: string;
  accounts?: string[];
  legacyAccount?: string;
  connection?: string;
  connectionLabel?: string;
  /** The field of each position of the row texts. */
  fields?: string[];
  /** Until version 3 one object per record by its key; since, by column. */
  records: Record<string, RecordState> | StoredRecords;
}

interface StoredMemo {
  v: number;
  fields?: string[];
  memo: unknown;
}

/** The editable fields of the sheet a section or memo belongs to, in today's order. */
function fieldsOf(section: string): readonly string[] | undefined {
  const sheet = section.endsWith(OTHERS_SUFFIX)
    ? section.slice(0, -OTHERS_SUFFIX.length)
    : section;
  const schema = SCHEMAS.find(s => s.name === sheet);
  return schema && editableOf(schema).map(c => c.header);
}

export class StateBook {
  /**
   * The sections the book holds, in the order first read or set: the state set and not yet
   * saved, or null where its chunks (`held`) are what the book keeps of it.
   */
  private readonly sections = new Map<string, SheetState | null>();
  /**
   * Sections decoded from their chunks, for the job's next asks: each of one cell, small
   * enough to keep, and the last of the larger ones. A job asks for sections in turn (a
   * refresh's estimate reads each more than once), so the small ones would each push a large
   * one out to be decoded again.
   */
  private readonly decoded = new Map<string, SheetState>();
  private readonly memos = new Map<string, unknown>();
  /** The chunks each section's cells below its name hold, as read or last written. */
  private readonly held = new Map<string, string[]>();
  /**
   * The cells below each section's name that hold anything, chunks or not: past a cell a
   * person cleared, the chunks after it are no part of the section, but would be once a save
   * fills that cell; a save clears them all.
   */
  private readonly used = new Map<string, number>();
  private readonly columns = new Map<string, number>();
  /**
   * The sections whose chunks (`held`) join into the JSON they were read as or last saved as,
   * a save that ended: one set to the same JSON is not written again. The chunks are compared,
   * not a joined copy kept: a section's text is megabytes.
   */
  private readonly settled = new Set<string>();
  private readonly dirty = new Set<string>();
  /** Sections the sheet holds that could not be read (a save cut short, damaged JSON). */
  private readonly unread = new Set<string>();
  /**
   * Sections and memos read from the sheet and not yet asked for: their chunks (`held`) are
   * decoded when one is first asked for (decode), so a job holds only the states it uses.
   */
  private readonly undecoded = new Set<string>();
  private width = 0;

  private constructor(
    private readonly workbook: Workbook,
    private sheet: SheetPort | null,
  ) {}

  /** Reads the state sheet once. */
  static open(workbook: Workbook): StateBook {
    const sheet = workbook.sheet(STATE_SHEET);
    const book = new StateBook(workbook, sheet);
    // Its cells hold whole chunks: its calls are sized by them, not by the cell bound alone.
    if (sheet) book.load(sheet.readValues(CHUNK + PREFIX.length));
    return book;
  }

  /** A section saved or read from the sheet is decoded afresh, unless it is kept (decoded). */
  get(section: string): SheetState | undefined {
    this.decode(section);
    const state = this.sections.get(section);
    if (state !== null) return state;
    if (!this.decoded.has(section)) {
      const read = parse(this.held.get(section)!.join(''), section);
      if (read && 'records' in read) this.keep(section, read);
    }
    return this.decoded.get(section);
  }

  /** Whether the sheet held that section and it could not be read (read as none). */
  unreadable(section: string): boolean {
    this.decode(section);
    return this.unread.has(section) && !this.sections.has(section);
  }

  /** The sheets whose pulled state the book holds: every section decoded to tell. */
  sheets(): string[] {
    for (const name of [...this.undecoded]) this.decode(name);
    return [...this.sections.keys()];
  }

  set(section: string, state: SheetState): void {
    // What the sheet held is replaced whole: no need to decode it.
    this.undecoded.delete(section);
    this.decoded.delete(section);
    this.sections.set(section, state);
    this.dirty.add(section);
  }

  /** The memo of that name (a copy is not made: set it again after changing it). */
  memo<T>(name: string): T | undefined {
    this.decode(name);
    return this.memos.get(name) as T | undefined;
  }

  setMemo(name: string, value: unknown): void {
    this.undecoded.delete(name);
    this.memos.set(name, value);
    this.dirty.add(name);
  }

  /**
   * Writes every section set since opening that changed: of each, the cells whose text
   * changed, one setValues per run of them, and clears the cells it no longer needs.
   */
  save(): void {
    const changed = [...this.dirty].flatMap(section => {
      const json = JSON.stringify(this.stored(section));
      const held = this.settled.has(section)
        ? this.held.get(section)
        : undefined;
      if (!held || !joinsTo(held, json)) return [{section, json}];
      this.encoded(section);
      return [];
    });
    this.dirty.clear();
    if (changed.length === 0) return;
    const created = !this.sheet;
    this.sheet ??= this.workbook.insertSheet(STATE_SHEET);
    for (const {section, json} of changed) {
      const held = this.held.get(section);
      const cells = layout(held ?? [], json);
      const before = this.used.get(section) ?? 0;
      // Not known until its last write has gone: a save after one that threw writes every
      // cell, and clears every one it may have written.
      this.held.delete(section);
      this.settled.delete(section);
      this.used.set(section, Math.max(before, cells.length));
      // Its name says it is being saved until its last write (a new column has none until
      // then): a run stopped between them (a write that throws, Google's daily trigger time
      // used up) leaves cells whose changes are partly written, which would join into a
      // state no save made.
      let column = this.columns.get(section);
      if (column !== undefined) {
        this.sheet.write(1, column, [[section + SAVING]]);
      } else {
        column = ++this.width;
        this.columns.set(section, column);
      }
      for (const run of changedRuns(held ?? [], cells)) {
        this.sheet.write(
          run.first + 2,
          column,
          run.cells.map(c => [PREFIX + c]),
        );
      }
      if (before > cells.length) {
        this.sheet.clearContent(
          cells.length + 2,
          column,
          before - cells.length,
          1,
        );
      }
      this.sheet.write(1, column, [[section]]);
      this.held.set(
        section,
        cells.map((cell, i) => (held?.[i] === cell ? held[i] : own(cell))),
      );
      this.used.set(section, cells.length);
      this.settled.add(section);
      this.encoded(section);
    }
    // Last: hiding is a write the service queues, and writing asks the sheet's size first.
    if (created) this.sheet.hide();
  }

  private keep(section: string, state: SheetState): void {
    const large = (name: string) => (this.held.get(name)?.length ?? 0) > 1;
    if (large(section)) {
      for (const name of this.decoded.keys()) {
        if (large(name)) this.decoded.delete(name);
      }
    }
    this.decoded.set(section, state);
  }

  /** A section saved: its chunks are what the book keeps of it from now on (get). */
  private encoded(section: string): void {
    if (this.sections.has(section)) this.sections.set(section, null);
  }

  private stored(section: string): Stored | StoredMemo {
    const fields = fieldsOf(section) as string[] | undefined;
    if (this.memos.has(section)) {
      return {
        v: VERSION,
        ...(fields ? {fields} : {}),
        memo: this.memos.get(section),
      };
    }
    const state = this.sections.get(section)!;
    return {
      v: VERSION,
      accounts: state.accounts,
      ...(state.legacyAccount !== undefined
        ? {legacyAccount: state.legacyAccount}
        : {}),
      ...(state.connection
        ? {connection: state.connection, connectionLabel: state.connectionLabel}
        : {}),
      ...(fields ? {fields} : {}),
      records: storeRecords(state.records),
    };
  }

  private load(grid: CellValue[][]): void {
    const header = grid[0] ?? [];
    this.width = header.length;
    header.forEach((title, c) => {
      if (typeof title !== 'string' || title === '') return;
      const saving = title.endsWith(SAVING);
      const name = saving ? title.slice(0, -SAVING.length) : title;
      const held: string[] = [];
      for (let r = 1; r < grid.length; r++) {
        const cell = grid[r][c];
        if (typeof cell !== 'string' || !cell.startsWith(PREFIX)) break;
        held.push(cell.slice(PREFIX.length));
      }
      let used = grid.length - 1;
      while (used > held.length && (grid[used][c] ?? '') === '') used--;
      this.columns.set(name, c + 1);
      this.held.set(name, held);
      this.used.set(name, used);
      // A save that never ended: its cells join into no state any save made. Read as none;
      // the next save of the section lays its text over them and gives the name back.
      if (saving) {
        this.unread.add(name);
        return;
      }
      this.undecoded.add(name);
      this.settled.add(name);
    });
    // Read in before anything asks for their sheet's section, which a job may set without
    // asking for it: a few characters each once folded (null), and rare before.
    const others = [...this.undecoded].filter(n => n.endsWith(OTHERS_SUFFIX));
    for (const name of others) {
      const memo = this.memo(name);
      if (!memo) continue;
      this.foldOthers(name.slice(0, -OTHERS_SUFFIX.length), memo);
      // Cleared when next saved, so no later load folds its old records in again.
      this.setMemo(name, null);
    }
  }

  /** A section or memo read from the sheet, decoded the first time it is asked for. */
  private decode(name: string): void {
    if (!this.undecoded.delete(name)) return;
    const stored = parse(this.held.get(name)!.join(''), name);
    if (!stored) this.unread.add(name);
    else if ('memo' in stored) this.memos.set(name, stored.memo);
    else {
      this.sections.set(name, null);
      this.keep(name, stored);
    }
  }

  /** An earlier release's memo of other accounts' records, put into the sheet's section. */
  private foldOthers(sheet: string, memo: unknown): void {
    const section = this.get(sheet);
    if (!section || typeof memo !== 'object') return;
    const others = memo as Record<string, Record<string, RecordState>>;
    const records = {...section.records};
    const accounts = new Set(section.accounts);
    for (const [account, byId] of Object.entries(others)) {
      for (const [id, record] of Object.entries(byId ?? {})) {
        records[recordKey(account, id)] ??= record;
      }
      accounts.add(account);
    }
    // Saved with the memo cleared below: one without the other would lose these records.
    this.set(sheet, {...section, accounts: [...accounts], records});
  }
}

/**
 * A chunk a save wrote, as a string of its own: a slice would keep the section's whole JSON
 * alive beside the chunks kept of it, and that JSON takes two bytes a character throughout
 * where one character needs two (a connection's label has "…"). Parsed back from JSON, each
 * chunk takes one byte a character where its own characters allow (V8).
 */
function own(chunk: string): string {
  return JSON.parse(JSON.stringify(chunk)) as string;
}

/** Whether `chunks` joined are `text`, without joining them. */
function joinsTo(chunks: readonly string[], text: string): boolean {
  let at = 0;
  for (const chunk of chunks) {
    if (!text.startsWith(chunk, at)) return false;
    at += chunk.length;
  }
  return at === text.length;
}

/**
 * A section or memo as today's release reads it: row texts put in today's field order, by
 * the names they were stored under (release 1: its frozen order). A section that cannot be
 * read, or of a release newer than this one, is as good as none: the next refresh rebuilds it.
 */
function parse(
  text: string,
  section: string,
): SheetState | StoredMemo | undefined {
  let stored: Stored | StoredMemo;
  try {
    stored = JSON.parse(text) as Stored | StoredMemo;
  } catch {
    return undefined;
  }
  if (![1, 2, 3, VERSION].includes(stored.v)) return undefined;
  const now = fieldsOf(section);
  const then =
    stored.v === 1
      ? V1_FIELDS[section.replace(OTHERS_SUFFIX, '')]
      : stored.fields;
  const move = now && then ? reorder(then, now) : undefined;
  if ('memo' in stored) {
    if (!move || typeof stored.memo !== 'object' || stored.memo === null)
      return stored;
    const others = stored.memo as Record<string, Record<string, RecordState>>;
    const memo = Object.fromEntries(
      Object.entries(others).map(([account, records]) => [
        account,
        move.records(records),
      ]),
    );
    return {...stored, memo};
  }
  const kept = recordsOf(stored);
  if (!kept) return undefined;
  const records = move ? move.records(kept) : kept;
  return {
    ...accountsOf(stored, records),
    ...(stored.v !== VERSION ? {storedAs: stored.v} : {}),
    ...(stored.connection
      ? {
          connection: String(stored.connection),
          connectionLabel: String(stored.connectionLabel ?? ''),
        }
      : {}),
    ...(move && move.unrecorded.length > 0
      ? {unrecorded: move.unrecorded}
      : {}),
  };
}

/** A section's records by key, from columns or (until version 3) objects; none if damaged. */
function recordsOf(stored: Stored): Record<string, RecordState> | undefined {
  if (typeof stored.records !== 'object' || stored.records === null)
    return undefined;
  if (stored.v < VERSION) return stored.records as Record<string, RecordState>;
  try {
    return readRecords(stored.records as StoredRecords);
  } catch {
    return undefined;
  }
}

/**
 * The accounts of a section and its records by record key: versions 1 and 2 held one
 * account's records by id, which become that account's, its rows' empty `account` cells
 * included (legacyAccount).
 */
function accountsOf(
  stored: Stored,
  records: Record<string, RecordState>,
): Pick<SheetState, 'accounts' | 'legacyAccount' | 'records'> {
  if (stored.v >= 3) {
    return {
      accounts: (stored.accounts ?? []).map(String),
      ...(stored.legacyAccount !== undefined
        ? {legacyAccount: String(stored.legacyAccount)}
        : {}),
      records,
    };
  }
  const account = String(stored.account ?? '');
  return {
    accounts: [account],
    legacyAccount: account,
    records: Object.fromEntries(
      Object.entries(records).map(([id, r]) => [recordKey(account, id), r]),
    ),
  };
}

/** Row texts stored in the order of `then`, put in the order of `now`. */
function reorder(then: readonly string[], now: readonly string[]) {
  const from = now.map(field => then.indexOf(field));
  const unrecorded = now.filter((_, k) => from[k] < 0);
  const same =
    unrecorded.length === 0 &&
    then.length === now.length &&
    from.every((f, k) => f === k);
  const row = (texts: string[]) =>
    from.map(f => (f < 0 ? EMPTY : (texts[f] ?? EMPTY)));
  // Sorted again: content is compared as sorted rows (rows.ts contentOf).
  const rows = (list: string[][] | undefined) =>
    list && contentOf(list.map(row));
  const records = (all: Record<string, RecordState>) => {
    if (same) return all;
    const out: Record<string, RecordState> = {};
    for (const [id, r] of Object.entries(all)) {
      out[id] = {
        ...r,
        rows: rows(r.rows)!,
        ...(r.refused ? {refused: rows(r.refused)} : {}),
        ...(r.unknown ? {unknown: rows(r.unknown)} : {}),
        ...(r.writing ? {writing: rows(r.writing)} : {}),
      };
    }
    return out;
  };
  return {records, unrecorded};
}
