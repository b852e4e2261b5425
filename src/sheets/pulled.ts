/**
 * What a sheet was last pulled as: each record's editable content as the server had it, the
 * marks a push or a refresh left on it, and the accounts and connection that pulled it. The
 * state book stores it; the merge and a sheet's records compare its rows with it. Apart from
 * the book, so that what reads a sheet needs nothing of how the state is stored.
 */
import {keyParts} from './accounts';
import {sameContent} from './rows';

/** A record as last pulled. */
export interface RecordState {
  /**
   * Canonical texts (codec.ts) of the record's editable cells, one array per row in schema
   * order; rows whose editable cells are all empty are left out; sorted.
   */
  rows: string[][];
  /** Facts of the record a push needs (maintain_by, delivery geos). */
  facts?: Record<string, string>;
  /**
   * Content the API refused at the last push: sending it again would be refused again, so a
   * push skips it until the user changes the rows or a refresh replaces this record state.
   */
  refused?: string[][];
  /**
   * Content whose push got no answer that proves what happened, as the release before the
   * outbox marked it: the outbox (state/outbox.ts) takes it in when the book is opened, and
   * no state of this release holds it.
   */
  unknown?: string[][];
  /**
   * What a refresh was writing into the record's rows (the server's content) when it saved
   * this state before the sheet: stopped inside that write, it leaves each row as before or
   * as written, so a row showing this content is as pulled too, not an edit. The state the
   * refresh saves after the sheet has none.
   */
  writing?: string[][];
  /**
   * Watched facts whose change that refresh told History of before its write (server
   * changes): a run stopped before its last state save does not tell them again.
   */
  toldFacts?: Record<string, string>;
  /** The print of its read-only cells as last written from the server (read-only.ts). */
  readOnly?: string;
}

/**
 * `base` with `changes`, as `{...base, ...changes}` would make it. A spread at a place that
 * has seen records of many shapes (optional marks make many) gives V8 a hidden class per
 * object made there, some 200 bytes each; Object.assign gives records of one shape one
 * (issue 37: 31,000 records held 6 MB of such classes).
 */
export function recordWith(
  base: RecordState,
  changes: Partial<RecordState>,
): RecordState {
  return Object.assign({}, base, changes);
}

/**
 * The state rows showing `content` were pulled with: what an interrupted refresh was writing
 * where they show that, else the record as last pulled. `view` is how the caller compares
 * contents (the merge leaves out the columns the table put back).
 */
export function pulledAs(
  base: RecordState,
  content: string[][],
  view: (rows: string[][]) => string[][] = rows => rows,
): RecordState {
  if (!base.writing || !sameContent(content, view(base.writing))) return base;
  return recordWith(base, {rows: base.writing, writing: undefined});
}

export interface SheetState {
  /** The accounts whose records were refreshed into the sheet ('' for the main account). */
  accounts: string[];
  /**
   * The one account an earlier release pulled the sheet as: its rows have no `account` cell
   * yet, and an empty one is taken for this account's until a refresh fills it.
   */
  legacyAccount?: string;
  /**
   * Which connection pulled them: a digest of the base URL and the main account's access key
   * (never a key), so rows pulled with other keys (another editor's) are never pushed.
   */
  connection?: string;
  /** How messages name that connection (host and the end of the access key). */
  connectionLabel?: string;
  records: Record<string, RecordState>;
  /** The older version of the add-on's state it was read from (1: release 1's sections). */
  storedAs?: number;
  /**
   * Editable fields the pull that wrote this state did not record (a column added by a later
   * release): their texts read as empty, and no edit can be told in them until a refresh.
   */
  unrecorded?: string[];
}

/**
 * The account of a row whose `account` cell is empty (a row an earlier release pulled, or one
 * a user added by typing its id): the one account that pulled a record of that id, else the
 * account an earlier release acted as, else none.
 */
export function blankAccountOf(
  state: SheetState | undefined,
): ((id: string) => string | undefined) | undefined {
  if (!state) return undefined;
  const owners = new Map<string, Set<string>>();
  for (const key of Object.keys(state.records)) {
    const {account, id} = keyParts(key);
    const set = owners.get(id) ?? new Set<string>();
    set.add(account);
    owners.set(id, set);
  }
  const legacy = state.legacyAccount;
  return id => {
    const found = owners.get(id);
    return found?.size === 1 ? [...found][0] : legacy;
  };
}
