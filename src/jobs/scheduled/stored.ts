/**
 * The scheduled changes as stored (DESIGN 4.5): the truth, kept in the state book, of which
 * the Scheduled sheet is a view. What goes out is what was checked when it was scheduled: a
 * cell typed over (record, field, before, after, times, account) is never sent, its row says
 * that it differs and what is stored. Typing CANCELLED in a WAITING row's status, or deleting
 * the row, cancels the change; a status typed over otherwise is written back as stored.
 */
import type {Workbook} from '../../platform/ports';
import type {
  ScheduledEntry,
  ScheduledSheet,
  ScheduledStatus,
} from '../../sheets/scheduled';
import type {StateBook} from '../../state/book';
import type {Outbox} from '../../state/outbox';
import {SCHEDULED_MEMO, type StoredTexts} from '../../state/scheduled-memo';
import {localTime} from '../host/schedule-health';
import {earlierOut, outPhase} from './due';

const DIFFERS = 'This row differs from the stored change';

/** The message of a row that shows no stored field. */
export const EXTRA =
  'Not sent: this row shows no field of its stored change (a copy of a row, or typed in), so nothing sends it. To change a scheduled change, cancel it and schedule it again.';

/** One field of one stored change, as the state book keeps it (times in Unix seconds). */
interface Kept extends StoredTexts {
  apply_at: number;
  revert_at: number | null;
  sent_as?: string;
}

/** A stored field's text cells. */
export function textsOf(e: StoredEntry): StoredTexts {
  const {change_id, account, sheet, record, field, before, after} = e;
  const {status, message} = e;
  return {
    change_id,
    account,
    sheet,
    record,
    field,
    before,
    after,
    status,
    message,
  };
}

/** The content of a stored field that its row must show: typed over, it is not sent. */
const SHOWN = [
  'account',
  'sheet',
  'record',
  'field',
  'before',
  'after',
] as const;

/**
 * A stored field as a run handles it: its content and status are the store's; `index` is the
 * row that shows it (-1: none, its row was deleted).
 */
export type StoredEntry = ScheduledEntry;

/** '2026-01-05 11:00 +01:00 (Europe/Paris)': an instant in the spreadsheet's zone, with its offset. */
export function shownTime(workbook: Workbook, ms: number): string {
  const offset = workbook.utcOffsetMinutes(ms);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${localTime(ms, offset)} ${sign}${hhmm} (${workbook.timeZone()})`;
}

export class StoredChanges {
  private constructor(
    private readonly book: StateBook,
    /** Where a stored change's request out with no answer recorded stands (outKey). */
    readonly outbox: Outbox,
    readonly entries: StoredEntry[],
  ) {}

  static open(book: StateBook, outbox: Outbox): StoredChanges {
    const kept = book.memo<Kept[]>(SCHEDULED_MEMO) ?? [];
    const store = new StoredChanges(
      book,
      outbox,
      kept.map(k => ({
        index: -1,
        change_id: k.change_id,
        account: k.account,
        sheet: k.sheet,
        record: k.record,
        field: k.field,
        before: k.before,
        after: k.after,
        applyAt: k.apply_at * 1000,
        revertAt: k.revert_at === null ? NaN : k.revert_at * 1000,
        status: k.status,
        message: k.message,
        ...(k.sent_as ? {sentAs: k.sent_as} : {}),
      })),
    );
    outbox.upgrade('write', () => earlierOut(store.entries), 'scheduled');
    return store;
  }

  add(entries: readonly StoredEntry[]): void {
    this.entries.push(...entries);
    this.keep();
  }

  /** Sets a field's status and message (the state book is saved with the job). */
  mark(entry: StoredEntry, status: ScheduledStatus, message: string): void {
    entry.status = status;
    entry.message = message;
    this.keep();
  }

  /** Forgets the fields that will send nothing any more (`open` false). */
  prune(open: (entry: StoredEntry) => boolean): void {
    const kept = this.entries.filter(open);
    if (kept.length === this.entries.length) return;
    this.entries.splice(0, this.entries.length, ...kept);
    this.keep();
  }

  private keep(): void {
    this.book.setMemo(
      SCHEDULED_MEMO,
      this.entries.map((e): Kept => ({
        ...textsOf(e),
        apply_at: Math.round(e.applyAt / 1000),
        revert_at: Number.isNaN(e.revertAt)
          ? null
          : Math.round(e.revertAt / 1000),
        ...(e.sentAs ? {sent_as: e.sentAs} : {}),
      })),
    );
  }
}

/** How a Scheduled row differs from the stored field it shows: '' when it does not. */
function differences(row: ScheduledEntry, stored: StoredEntry): string[] {
  const out: string[] = SHOWN.filter(h => row[h].trim() !== stored[h].trim());
  // The row shows the minute: a time is typed over when its minute differs.
  const minute = (ms: number) => Math.floor(ms / 60_000);
  const sameTime = (a: number, b: number) =>
    (Number.isNaN(a) && Number.isNaN(b)) || minute(a) === minute(b);
  if (!sameTime(row.applyAt, stored.applyAt)) out.push('apply_at');
  if (!sameTime(row.revertAt, stored.revertAt)) out.push('revert_at');
  return out;
}

/**
 * The stored fields, each given the row that shows it (`index`), the rows paired by change
 * and then by most cells alike; the store brought up to date with the sheet: a WAITING field
 * whose row was deleted, or typed CANCELLED, is cancelled. Answers, by stored field, what its
 * row shows otherwise (the cells typed over), for the row's message.
 */
export function pairRows(
  store: StoredChanges,
  sheet: ScheduledSheet | null,
  /**
   * Rows of a change the store does not hold to take in as they read (the changes of this
   * person scheduled before the store existed, which only their rows kept).
   */
  adopt: (row: ScheduledEntry) => boolean = () => false,
): Paired {
  const rows = sheet?.entries() ?? [];
  const held = new Set(store.entries.map(e => e.change_id));
  store.add(
    rows
      .filter(r => !held.has(r.change_id) && adopt(r))
      .map(r => ({...r, index: -1})),
  );
  const differs = new Map<StoredEntry, string[]>();
  const late = new Set<StoredEntry>();
  const noted = new Set<StoredEntry>();
  const reshown = new Set<StoredEntry>();
  const free = new Set(rows);
  const byChange = (id: string) => [...free].filter(r => r.change_id === id);
  const pair = (stored: StoredEntry, row: ScheduledEntry) => {
    free.delete(row);
    stored.index = row.index;
    const diff = differences(row, stored);
    const typed =
      row.status === 'CANCELLED' ? cancelled(stored, store.outbox) : undefined;
    if (typed === 'cancel') {
      store.mark(stored, 'CANCELLED', stored.message);
    } else if (typed === 'cancel put-back') {
      reshown.add(stored);
      store.mark(
        stored,
        'CANCELLED',
        `${stored.message} Its put-back was cancelled (CANCELLED typed in its row): the server keeps the value sent.`,
      );
    } else if (typed === 'too late') {
      late.add(stored);
    } else if (row.status !== stored.status) {
      diff.push('status');
    }
    if (diff.length > 0) differs.set(stored, diff);
    if (row.message.includes(DIFFERS)) noted.add(stored);
  };
  const unpaired: StoredEntry[] = [];
  for (const stored of store.entries) {
    stored.index = -1;
    const row = byChange(stored.change_id).find(
      r => differences(r, stored).length === 0,
    );
    if (row) pair(stored, row);
    else unpaired.push(stored);
  }
  for (const stored of unpaired) {
    const best = byChange(stored.change_id)
      .map(r => ({r, alike: 8 - differences(r, stored).length}))
      .sort((a, b) => b.alike - a.alike)[0];
    if (best) pair(stored, best.r);
  }
  // A row more of a stored change (a copy) is no part of it: nothing sends it.
  const extra = [...free].filter(
    r => held.has(r.change_id) && !r.message.startsWith(EXTRA),
  );
  for (const stored of store.entries) {
    if (stored.index < 0 && stored.status === 'WAITING') {
      store.mark(
        stored,
        'CANCELLED',
        'Cancelled: its row was deleted from the Scheduled sheet.',
      );
    }
  }
  return {differs, late, noted, reshown, extra};
}

/**
 * What CANCELLED typed in a row does to its stored field: a WAITING one is cancelled; an
 * applied one still to be put back has its put-back cancelled; one whose request has left (sent,
 * or out with its answer unknown) it is too late to stop, and the row says so.
 */
function cancelled(
  stored: StoredEntry,
  outbox: Outbox,
): 'cancel' | 'cancel put-back' | 'too late' | undefined {
  if (stored.status === 'WAITING') return 'cancel';
  if (stored.status === 'OK')
    return Number.isNaN(stored.revertAt) ? 'too late' : 'cancel put-back';
  return outPhase(stored, outbox) ? 'too late' : undefined;
}

/** The store paired with the sheet. */
export interface Paired {
  /** Stored fields whose row shows other cells (those named): never sent as typed. */
  differs: Map<StoredEntry, string[]>;
  /** Fields whose row was typed CANCELLED after their request had left. */
  late: Set<StoredEntry>;
  /** Fields whose row already says that it differs. */
  noted: Set<StoredEntry>;
  /** Fields the pairing changed in the store, for their rows to show. */
  reshown: Set<StoredEntry>;
  /** Rows of a stored change that show none of its fields (copies): never sent. */
  extra: ScheduledEntry[];
}

/** "after reads 999 (stored: 150)": a row's cells typed over, told against the store. */
export function differsNote(
  workbook: Workbook,
  stored: StoredEntry,
  fields: readonly string[],
): string {
  const storedText = (field: string) => {
    if (field === 'apply_at') return shownTime(workbook, stored.applyAt);
    if (field === 'revert_at')
      return Number.isNaN(stored.revertAt)
        ? '(none)'
        : shownTime(workbook, stored.revertAt);
    return String(stored[field as keyof StoredEntry]);
  };
  return `${DIFFERS} (stored: ${fields.map(f => `${f} ${storedText(f)}`).join(', ')}): a cell typed over is never sent; what goes out is the stored change. To change it, cancel it (type CANCELLED in status) and schedule it again.`;
}
