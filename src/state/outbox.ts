/**
 * The outbox: every request whose outcome a run may never learn once it has left (its answer
 * lost, the server having applied it or not; the run killed while it is out) is posted here
 * before it leaves, and saved with the state book (Job.save) before the request goes. One
 * typed entry per request: the kind of request, the job that sent it, the account whose keys
 * signed it, the record it writes, what it carried, when it left.
 *
 * One protocol settles every kind: an answer that proves what happened settles (removes) its
 * entry; an entry left standing is a request whose outcome is unknown, and before anything is
 * sent for its record again, the record is read back (the created offer looked up by name, an
 * uploaded file by md5): a verdict that tells settles the entry, one that cannot tell keeps it
 * for the next run. No job reads its marks out of a row's message: a row says what happened
 * in words for people, the outbox says it for the add-on.
 *
 * An earlier release marked such requests elsewhere (a New Offers or Sub-accounts row's
 * `Create sent as ...` message, the memo `uploads out`, a created offer's `unknown` tracking
 * in the memo of offers made, a record's `unknown` in its sheet's state, a stored scheduled
 * change's `Unknown outcome` message): each one's marks are read in once (`upgrade`; the
 * sheets' states' when the book is first opened, the scheduled ones' when the store is).
 */
import {keyParts, recordKey} from '../sheets/accounts';
import type {StateBook} from './book';
import {recordWith} from '../sheets/pulled';

export const OUTBOX_MEMO = 'outbox';

/** What each kind of request carries, as its entry keeps it (the record aside). */
export interface OutboxRequests {
  /** POST offer (4.2); the record is the offer_name it carried. */
  'offer create': {campaign_id: number};
  /**
   * POST sub_adv_account (4.10), signed by the main account; the record is the user name it
   * carried, `row` the Sub-accounts row it was sent from (a row renamed since is found there).
   */
  'sub-account create': {row: number};
  /**
   * PUT tracking of an offer made from a New Offers row; the record is its offer_id, and
   * `sent` the tracking as the Offers sheet's editable content.
   */
  tracking: {sent: string[][]};
  /** POST creative upload (4.1); the record is the `file` cell of its Creatives row. */
  upload: Record<string, never>;
  /**
   * A push's or a scheduled change's replace of a record (PUT offer/budget, tracking,
   * campaign); the record is its sheet and id (writeKey): the sheet, and the editable content
   * it sent (what the sheet's state would hold once applied).
   */
  write: {sheet: string; sent: string[][]};
}

export type OutboxKind = keyof OutboxRequests;

export interface OutboxEntry<K extends OutboxKind = OutboxKind> {
  kind: K;
  /** The job that sent it (its entry point's name). */
  job: string;
  /** The account whose keys signed it ('' the main account): its record is read back so. */
  account: string;
  record: string;
  request: OutboxRequests[K];
  /** When it left, ISO 8601; empty where an earlier release's mark did not say. */
  time: string;
  /**
   * The scheduled change (its change_id) this write carries out: its job (`scheduled push`,
   * `scheduled revert`) reads it back and settles it against the stored change, never a
   * push or a refresh (writesOf leaves it out), and it stands beside a push's write of the
   * same record.
   */
  change?: string;
}

/**
 * What names an entry: a request of one kind, for one record of one account (and the
 * scheduled change it carries out, if any).
 */
export type OutboxKey = Pick<OutboxEntry, 'kind' | 'account' | 'record'> & {
  change?: string;
};

/** The entry of a push's write of a record: its sheet and its id, in its account. */
export function writeKey(
  sheet: string,
  account: string,
  id: string,
): OutboxKey {
  return {kind: 'write', account, record: `${sheet} ${id}`};
}

interface Stored {
  entries: OutboxEntry[];
  /** The earlier release's marks read in (upgrade): a kind's, or `scheduled` writes'. */
  upgraded: string[];
}

/** An entry as this release wrote it: its key texts, and what its request carried. */
function readable(entry: unknown): entry is OutboxEntry {
  const e = entry as Partial<OutboxEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    [e.kind, e.job, e.account, e.record, e.time].every(
      v => typeof v === 'string',
    ) &&
    typeof e.request === 'object' &&
    e.request !== null &&
    (e.change === undefined || typeof e.change === 'string') &&
    (e.kind !== 'write' ||
      (typeof (e.request as {sheet?: unknown}).sheet === 'string' &&
        Array.isArray((e.request as {sent?: unknown}).sent)))
  );
}

const same = (a: OutboxKey, b: OutboxKey) =>
  a.kind === b.kind &&
  a.account === b.account &&
  a.record === b.record &&
  a.change === b.change;

export class Outbox {
  private constructor(
    private readonly book: StateBook,
    private readonly stored: Stored,
  ) {}

  /**
   * The book's outbox: one memo, saved with the book. Opened with the book, once a job
   * (Job.outbox): each view keeps its own entries.
   */
  static of(book: StateBook): Outbox {
    const memo = book.memo<Partial<Stored>>(OUTBOX_MEMO);
    const outbox = new Outbox(book, {
      // A cell of the state sheet typed over leaves no entry that cannot be read.
      entries: Array.isArray(memo?.entries)
        ? memo.entries.filter(readable)
        : [],
      upgraded: Array.isArray(memo?.upgraded) ? memo.upgraded : [],
    });
    outbox.upgrade('write', () => outbox.earlierWrites());
    return outbox;
  }

  /** The entries of a kind still standing, oldest first. */
  entries<K extends OutboxKind>(kind: K): Array<OutboxEntry<K>> {
    return this.stored.entries.filter(
      (e): e is OutboxEntry<K> => e.kind === kind,
    );
  }

  /** The entry of a kind standing for a key, if any. */
  find<K extends OutboxKind>(
    kind: K,
    key: OutboxKey,
  ): OutboxEntry<K> | undefined {
    return this.entries(kind).find(e => same(e, key));
  }

  /**
   * Marks requests as out, before they leave (the caller saves the book, then sends): each
   * takes the place of an entry of the same kind, account and record.
   */
  post(entries: readonly OutboxEntry[]): void {
    if (entries.length === 0) return;
    this.stored.entries = [
      ...this.stored.entries.filter(e => !entries.some(n => same(e, n))),
      ...entries,
    ];
    this.write();
  }

  /**
   * What became of the request is known (its answer, or reading its record back, told): its
   * entry goes.
   */
  settle(key: OutboxKey): void {
    // Posting keeps one entry per key: the first found is the one.
    const at = this.stored.entries.findIndex(e => same(e, key));
    if (at < 0) return;
    this.stored.entries.splice(at, 1);
    this.write();
  }

  /**
   * Reads an earlier release's marks of a kind in, once per spreadsheet: `marks` is asked
   * only the first time, and an entry already standing is kept.
   */
  upgrade<K extends OutboxKind>(
    kind: K,
    marks: () => ReadonlyArray<OutboxEntry<K>>,
    /** Which marks: the kind's, unless one kind had marks in two places. */
    of: string = kind,
  ): void {
    if (this.stored.upgraded.includes(of)) return;
    this.stored.upgraded = [...this.stored.upgraded, of];
    this.stored.entries = [
      ...this.stored.entries,
      ...marks().filter(m => !this.stored.entries.some(e => same(e, m))),
    ];
    this.write();
  }

  /**
   * The writes a push sent of the sheet's records whose outcome is unknown: record key -> the
   * content sent. A scheduled change's write is not among them: its own job settles it.
   */
  writesOf(sheet: string): Map<string, string[][]> {
    return new Map(
      this.writesOut(sheet)
        .filter(([, e]) => e.change === undefined)
        .map(([key, e]) => [key, e.request.sent]),
    );
  }

  /**
   * The record keys of the sheet with a write out, a push's or a scheduled change's: what the
   * server holds of them may be Offer Desk's own, never a change made outside it.
   */
  recordsOut(sheet: string): Set<string> {
    return new Set(this.writesOut(sheet).map(([key]) => key));
  }

  private writesOut(sheet: string): Array<[string, OutboxEntry<'write'>]> {
    const prefix = `${sheet} `;
    return this.entries('write')
      .filter(e => e.request.sheet === sheet)
      .map(e => [recordKey(e.account, e.record.slice(prefix.length)), e]);
  }

  /**
   * An earlier release's marks of writes out, a record's `unknown` in its sheet's state, as
   * entries; the states kept without them.
   */
  private earlierWrites(): Array<OutboxEntry<'write'>> {
    return this.book.sheets().flatMap(sheet => {
      const state = this.book.get(sheet)!;
      const marked = Object.entries(state.records).filter(([, r]) => r.unknown);
      if (marked.length === 0) return [];
      const records = {...state.records};
      this.book.set(sheet, {...state, records});
      return marked.map(([key, r]) => {
        const {account, id} = keyParts(key);
        records[key] = recordWith(r, {unknown: undefined});
        return {
          ...writeKey(sheet, account, id),
          kind: 'write' as const,
          job: '',
          request: {sheet, sent: r.unknown!},
          time: '',
        };
      });
    });
  }

  private write(): void {
    this.book.setMemo(OUTBOX_MEMO, this.stored);
  }
}
