/**
 * What createOffers makes of its three sheets before anything is sent (new-offer-rows.ts
 * readPlan): the rows to create, the rows created whose tracking is still to set, the rows
 * refused; and what it is given to read them: the sheets, what the add-on remembers of the
 * rows, the accounts a row may be for.
 */
import type {Material, TrackingUpdate} from '../../api/types';
import type {CreativeSetDraft, MaterialRow} from '../../rules/creative-set';
import type {OfferBody} from '../../rules/offer';
import type {Table} from '../../sheets/table';
import type {CreatedOffers, MadeFrom} from '../../state/created-offers';
import type {SentCreate} from './sent-creates';

export type Tracking = Omit<TrackingUpdate, 'offer_id'>;

export interface SetPlan {
  /** Creative Sets data row. */
  index: number;
  /** Whose creative set it is: its offer's (undefined while the offer's is unknown). */
  account?: string;
  /** Its own problems, full messages. */
  problems: string[];
  draft?: CreativeSetDraft;
  /** Each creative of the draft, with the Creatives row it names. */
  materials: Array<{item: string; material: MaterialRow}>;
}

export interface OfferPlan {
  /** New Offers data row. */
  index: number;
  name: string;
  /**
   * The account that creates it: the one that sent its unsettled create, else its `account`
   * cell's, else the acting account's; undefined (and a problem said) when it names none.
   */
  account?: string;
  /** Full messages; none means the row may be sent. */
  problems: string[];
  body?: OfferBody;
  /** What the row has that the body leaves out, and why: its OK message ends with them. */
  notes: string[];
  tracking?: Tracking;
  sets: SetPlan[];
  /** A create of this row was sent before and its answer never recorded. */
  sent: boolean;
  /** The offer_name that create carried (its outbox entry's record). */
  sentAs?: string;
}

export interface CreatedRow {
  index: number;
  offerId: number;
  /** The account that made the offer, whose keys set its tracking. */
  account: string;
  tracking?: Tracking;
  /** Why its tracking cannot be sent. */
  problems: string[];
}

export interface Plan {
  /** Rows without an offer_id. */
  candidates: OfferPlan[];
  /** Rows with the offer_id of an offer made from them whose work is not finished (not OK). */
  created: CreatedRow[];
  /** Rows with the offer_id of an offer made from them and OK: nothing to do. */
  done: number;
  /** Rows an earlier version of the add-on created (see `madeBefore`): to be remembered. */
  legacy: Array<MadeFrom & {offer_id: number; account?: string}>;
  /** Rows refused before anything else: unreadable offer_id, Creative Sets rows of no offer. */
  refused: Array<{table: 'offers' | 'sets'; index: number; message: string}>;
  /** Unsettled creates no row resumes (their rows deleted): nothing will send them again. */
  unclaimed: SentCreate[];
}

/**
 * What the add-on remembers of the rows: the offers it made from them, the creates out whose
 * outcome is unknown, and the offers whose tracking is out (by offer_id; both the outbox's).
 */
export interface Known {
  made: CreatedOffers | undefined;
  sent: readonly SentCreate[];
  tracking: ReadonlySet<string>;
}

export interface Sheets {
  offers: Table<never>;
  sets: Table<never>;
  creatives: Table<Material>;
}

/**
 * The acting account ('*' for every account), whose rows those with an empty `account` cell
 * are, and the sub-accounts a cell may name (known-accounts.ts).
 */
export interface Accounts {
  acting: string;
  known: readonly string[];
}
