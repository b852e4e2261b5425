/**
 * What a push declares (push-budgets.ts, push-campaigns.ts, push-tracking.ts) and what
 * runPush (push.ts) hands it: a changed record, the request it builds, how its records are
 * read back after a lost answer.
 */
import type {Outcome} from '../../api/client';
import type {FieldMessages} from '../../rules/maintain';
import type {SignedBy} from '../../api/operations';
import type {IdGroup, ReadBack} from '../../api/paging';
import type {Platform, Workbook} from '../../platform/ports';
import type {EditableRow} from '../../sheets/rows';
import type {RowSaid, SheetRecord} from '../../sheets/records';
import {type SheetSchema, editableOf} from '../../sheets/schema';
import {NO_ZONE, canonical} from '../../sheets/codec';
import type {RecordState} from '../../sheets/pulled';
import type {StateBook} from '../../state/book';
import type {HistoryOutcome} from '../../sheets/history';
import type {SyncStatus} from '../../sheets/status';

/** A record whose editable cells differ from what was last pulled. */
export interface ChangedRecord {
  /** Whose record it is ('' the main account): its requests are signed with its keys. */
  account: string;
  /** Canonical id. */
  id: string;
  /** Its identity (accounts.ts recordKey): its key in the state. */
  key: string;
  /** Its data rows, in sheet order. */
  rows: number[];
  /** What each row's status cells said when the push read them (records.ts). */
  said: readonly RowSaid[];
  /** Each row's editable cells, decoded once when the push read them (records.ts). */
  decoded: readonly EditableRow[];
  /** What was last pulled. */
  base: RecordState;
  /** Its editable content now (rows.ts contentOf). */
  content: string[][];
  /** The editable fields whose text differs from the pull (a one-row record's; records.ts). */
  edited: readonly string[];
}

/** A changed record's request on its way (a push sends it in a batch, or reads it back). */
export interface Sending<Q> {
  record: ChangedRecord;
  request: Q;
  sends: string;
  /** Why its outcome is unknown: its answer was lost (here or at the last push). */
  lost?: string;
  /** Sent again, reading back having shown it was not applied: never a third time. */
  again?: boolean;
  /**
   * Delivered once, never sent again after a lost answer (a due scheduled change: what was
   * checked goes out at its time, or not at all).
   */
  once?: boolean;
  /** Its base is the server's record read now, not a pull: it is not read again first. */
  fresh?: boolean;
  /** The scheduled change it carries: its outbox entry is named by it too (state/outbox.ts). */
  change?: string;
}

/** The status and message a push gives a row. */
export interface RowVerdict {
  status: SyncStatus | '';
  message: string;
}

/** A record whose write came to an end in this run: what the History records of it. */
export interface Delivered {
  record: ChangedRecord;
  outcome: HistoryOutcome;
  message: string;
}

/**
 * What a changed record sends, or why it cannot be sent, or (`kept`) that its change sends
 * nothing and becomes what the record is taken to have (a decision, not an edit to send).
 */
export type RecordDecision<Q> =
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
  /**
   * Builds the request of a changed record from its decoded rows, checking it with src/rules.
   * `opened`: the spreadsheet, the state book and every record the push decoded, for rules
   * that look further than the record (another sheet, the other records): never read again
   * per record.
   */
  build(record: ChangedRecord, opened: Opened): RecordDecision<Q>;
  /**
   * The rules its build checks on a record's values, for a revert to check what it would put
   * back with them; a push without them (campaigns: its rules need the other rows' names) is
   * reverted unchecked and refused by the push, if ever, when sent.
   */
  rules?: RecordRules;
  /** Sends each request signed by its record's account, sharing fetchAll batches. */
  send(calls: ReadonlyArray<SignedBy<Q>>): Array<Outcome<unknown>>;
  /**
   * Reads records back by id (one list request per up to 50 ids of one account), each as its
   * row sources, per group: what the server has after a write whose answer was lost.
   */
  readBack(groups: readonly IdGroup[]): ReadBack<S>;
  /**
   * Whether the record's request carries values the user did not touch, as last pulled (a
   * budget's other groups, a tracking's unedited tracking_method): it is then read first, and
   * not sent where the server changed since the pull (push-delivery.ts current).
   */
  resendsPulled?(record: ChangedRecord): boolean;
  /** Added to "the next push sends it again" where resending has a side effect. */
  againNote?: string;
  /**
   * Splits what the push built into what is sent and what waits for a yes (pushBudgets'
   * guard), asking where someone can answer; a preview asks nothing and sends nothing.
   */
  guard?(
    units: ReadonlyArray<Sending<Q>>,
    platform: Platform,
    dryRun: boolean,
  ): Guarded<Q>;
}

/** The rules of src/rules on a record's values, asked alike by its push and by a revert. */
export interface RecordRules {
  /**
   * What the rules know beyond the record, read from the sheets once before any decision and
   * handed to `check` as plain data (Opened.known): deciding reads no sheet.
   */
  known?(sheets: Decoded): unknown;
  /**
   * The problems of a record whose rows hold `rows` (header -> value, as decoded): each
   * row's, in order, and the whole record's. None: a push sends it.
   */
  check(
    rows: ReadonlyArray<Record<string, unknown>>,
    about: CheckedRecord,
  ): {rows: FieldMessages[]; whole: FieldMessages};
  /**
   * A field the API cannot empty once set: reverting the change that first set it is refused
   * with these words, not with the rules' problem with an empty value.
   */
  setOnce?: {header: string; words(label: string, changeId: string): string};
  /** What the rows of a record make together, for messages ('budget'). */
  whole?: string;
}

/** The record whose values RecordRules.check is asked about. */
export interface CheckedRecord {
  account: string;
  id: string;
  /** What was last pulled. */
  base: RecordState;
  /** The editable fields that change (headers). */
  edited: readonly string[];
  /** What the job decoded once, for rules that look at the other records or sheets. */
  opened?: Opened;
}

/** A verdict of RecordRules.check with a problem anywhere. */
export function hasProblems(verdict: {
  rows: FieldMessages[];
  whole: FieldMessages;
}): boolean {
  return (
    Object.keys(verdict.whole).length > 0 ||
    verdict.rows.some(row => Object.keys(row).length > 0)
  );
}

/** What a job read and decoded of a sheet, before any decision on it. */
export interface Decoded {
  workbook: Workbook;
  book: StateBook;
  records: readonly SheetRecord[];
}

/** What a push (or a revert) decoded once, for the rules that look beyond one record. */
export interface Opened {
  records: readonly SheetRecord[];
  /** What the rules know of the other sheets (RecordRules.known), as plain data. */
  known?: unknown;
}

/** A sheet's records as its rules decide on them, what they know beyond them read first. */
export function openedFor(
  rules: RecordRules | undefined,
  decoded: Decoded,
): Opened {
  return {records: decoded.records, known: rules?.known?.(decoded)};
}

/**
 * The record's content as its request sets it: a column the lists never return (schema
 * `unlisted`: support_server_click) as the request carries it under its header (a header is
 * the API's field name), where the build decided more than the row says (the sidebar's default
 * standing in for a value not known). What the API takes of it is remembered from here, and a
 * scheduled change records it as a field, to send at its time what was decided now.
 */
export function asSent<S, Q>(
  schema: SheetSchema<S>,
  record: ChangedRecord,
  request: Q,
): string[][] {
  const columns = editableOf(schema);
  const carried = (request ?? {}) as Record<string, unknown>;
  const set = (k: number) =>
    columns[k].unlisted && carried[columns[k].header] !== undefined;
  if (!columns.some((_, k) => set(k))) return record.content;
  return record.content.map(row =>
    row.map((text, k) =>
      set(k)
        ? canonical(columns[k], carried[columns[k].header], NO_ZONE)
        : text,
    ),
  );
}

/** What a push's guard decided. */
export interface Guarded<Q> {
  /** The units to send (in a preview: all). */
  send: Array<Sending<Q>>;
  /** Units not sent, each with its rows' EDITED message. */
  held: Array<{unit: Sending<Q>; message: string}>;
  /** A delivered record as History tells it: one sent after a yes says so. */
  history(delivered: Delivered): Delivered;
  /** Added to the summary's message; '' when nothing was held. */
  note: string;
  /** Whether a question was asked: the sheet may have changed while it was open. */
  asked: boolean;
}
