/**
 * What a refresher is (refresh.ts runs them): the listing it declares, what it makes of what
 * each account listed, and where and how that is written, sheet by sheet.
 */
import type {ApiClient} from '../../api/client';
import type {ListResult, Listing} from '../../api/paging';
import type {Workbook} from '../../platform/ports';
import type {MergeCounts, RowNote} from '../../sheets/merge';
import type {Table} from '../../sheets/table';
import type {StateBook} from '../../state/book';
import type {Outbox} from '../../state/outbox';
import type {Noun} from '../../text/wording';
import type {ChangeLog} from '../change-log';
import type {RowWrites} from '../row-writes';
import type {OfferWatch} from './offer-watch';

/** Where a refresher writes: the spreadsheet, the state sheet, who pulled, and when. */
export interface RefreshContext {
  workbook: Workbook;
  state: StateBook;
  /** The requests out (state/outbox.ts): a push's writes in flight, settled by what is listed. */
  outbox: Outbox;
  /** The accounts whose lists answered ('' for the main account): their rows are replaced. */
  accounts: readonly string[];
  /** The connection's fingerprint and label (connect.ts): stored with what is pulled. */
  connection: {fingerprint: string; label: string};
  now: Date;
  /** The alerts a refresh of offers finds (offer-watch.ts). */
  watch?: OfferWatch;
  /** The run's History: what a push left in flight and the refresh found settled. */
  log?: ChangeLog;
  /** The job's writer of a sheet (kernel.ts Job.track), its rows stamped `now`. */
  track<S>(table: Table<S>): RowWrites<S>;
  /** Lets the job forget a writer with nothing left to write (kernel.ts Job.release). */
  release<S>(rows: RowWrites<S>): void;
}

/** How one sheet came out of a refresh. */
export interface SheetReport {
  sheet: string;
  counts: MergeCounts;
  notes: RowNote[];
  /**
   * Fields found changed outside Offer Desk (History rows), records not compared, and
   * whether the sheet's last refresh could not be read at all (nothing compared).
   */
  seen?: {changes: number; unreadable: number; unread?: true};
}

/** A listing fetched and not yet written. */
export interface Pulled {
  /** Records listed. */
  records: number;
  /** Requests sent. */
  requests: number;
  /** Writes the listing into its sheets. */
  write(context: RefreshContext): SheetReport[];
}

/** What a refresher may use to declare its listing and to complete what it listed. */
export interface FetchContext {
  /** The account listed ('' for the main account). */
  account: string;
  /** Signs as the account listed. */
  client: ApiClient;
  /** Signs as the main account: sub-accounts are listed with its keys (API part 5, rule 3). */
  main: ApiClient;
  /** For reading only: nothing is written before every listing has answered. */
  workbook: Workbook;
  /** The state book, for reading only, as the workbook. */
  state: StateBook;
}

/** What one account's listing answered. */
export interface AccountListed<T> extends ListResult<T> {
  /** '' for the main account. */
  account: string;
}

/**
 * One API listing and the sheets it fills: it lists records `T` and keeps `K` of each
 * (Listing.keep), what it writes from.
 */
export interface Refresher<T = unknown, K = T> {
  /** What it lists, for messages: noun('offer'). */
  what: Noun;
  /**
   * The main account's records whoever acts (sub-accounts): listed once, with its keys.
   * Otherwise the listing goes out for each account acted for.
   */
  mainOnly?: boolean;
  /**
   * What its cost is told from before it starts (refresh-cost.ts): the sheets it writes, the
   * first holding a record per item listed, as last pulled; and its listing's page size.
   */
  cost: {sheets: readonly string[]; pageSize: number};
  /** The listing it needs, with the client that signs it; the job fetches it. */
  listing(context: FetchContext): Listing<T, K>;
  /**
   * What to write, from what each account listed; writes nothing, may ask the API for more
   * (signed by the main account).
   */
  pulled(
    listed: ReadonlyArray<AccountListed<K>>,
    context: FetchContext,
  ): Pulled;
}
