/**
 * The offers the add-on made from New Offers rows: created, or adopted after a create whose
 * answer was lost. A row with an offer_id may resume (set the tracking of) only such an
 * offer, and only if it is still the row the offer was made from: same offer_name, same
 * campaign_id. A row copied from Offers, or from another New Offers row, carries an offer_id
 * too, and the API cannot tell whose it is; without this memory the add-on would set the
 * tracking of a live offer nobody meant to touch.
 *
 * Kept as a StateBook memo keyed by offer_id, saved before the next request goes out.
 */
import type {StateBook} from '../../sheets/state';

export const CREATED_OFFERS_MEMO = 'offers created from New Offers';

/** What identifies the row an offer was made from. */
export interface MadeFrom {
  offer_name: string;
  campaign_id: number;
}

/**
 * offer_id -> the row it was made from, the account that made it (whose keys set its tracking
 * and read it back, whichever account acts then; absent in entries of the release before
 * accounts: the row's), and the trackingKey() of the tracking the API last
 * refused for it (the row's own message says why), or of the tracking whose answer was lost
 * (read back before it is sent again), if any.
 */
export type CreatedOffers = Record<
  string,
  MadeFrom & {
    account?: string;
    refused_tracking?: string;
    lost_tracking?: string;
  }
>;

/** What became of a tracking sent: refused, or its answer lost (each its trackingKey()). */
export type TrackingVerdict = {refused: string} | {lost: string};

/** The tracking columns' values as one comparable text. */
export function trackingKey(tracking: {
  tracking_method: string;
  click_url: string;
  support_server_click: string;
}): string {
  return JSON.stringify([
    tracking.tracking_method,
    tracking.click_url,
    tracking.support_server_click,
  ]);
}

/**
 * The memo, or undefined when this spreadsheet has none yet: every create before the memo
 * existed was made by an earlier version of the add-on, which kept no such record.
 */
export function createdOffers(book: StateBook): CreatedOffers | undefined {
  return book.memo<CreatedOffers>(CREATED_OFFERS_MEMO);
}

/** Records offers made from rows; saved with the book's next save(). */
export function rememberCreated(
  book: StateBook,
  made: ReadonlyArray<MadeFrom & {offer_id: number; account?: string}>,
): void {
  if (made.length === 0) return;
  // Changed in place: a run may record thousands, one by one.
  const memo = createdOffers(book) ?? {};
  for (const {offer_id, offer_name, campaign_id, account} of made) {
    memo[String(offer_id)] = {
      offer_name,
      campaign_id,
      ...(account === undefined ? {} : {account}),
    };
  }
  book.setMemo(CREATED_OFFERS_MEMO, memo);
}

/**
 * Records what became of the tracking of an offer made from a row: refused (not sent again
 * until the row changes it), its answer lost (read back before it is sent again: sending it
 * twice restarts the offer's click-URL test), or accepted (undefined).
 */
export function rememberTrackingVerdict(
  book: StateBook,
  offerId: number,
  verdict: TrackingVerdict | undefined,
): void {
  const memo = createdOffers(book);
  const entry = memo?.[String(offerId)];
  if (!memo || !entry) return;
  const refused = verdict && 'refused' in verdict ? verdict.refused : undefined;
  const lost = verdict && 'lost' in verdict ? verdict.lost : undefined;
  if (entry.refused_tracking === refused && entry.lost_tracking === lost)
    return;
  if (refused) entry.refused_tracking = refused;
  else delete entry.refused_tracking;
  if (lost) entry.lost_tracking = lost;
  else delete entry.lost_tracking;
  book.setMemo(CREATED_OFFERS_MEMO, memo);
}

/**
 * The memo of creates the API refused with a verdict on the values: offer_name -> the print of
 * the refused request (the row's own message says why).
 */
const REFUSED_CREATES_MEMO = 'offer creates refused from New Offers';

export function refusedCreates(book: StateBook): Record<string, string> {
  return book.memo<Record<string, string>>(REFUSED_CREATES_MEMO) ?? {};
}

/**
 * Records that the API refused the create of the row named `name` (`print`: the print of what
 * it sent), or that no refusal stands for it any more (undefined): an unchanged row is not sent
 * again to be refused again. Saved with the book's next save().
 */
export function rememberCreateVerdict(
  book: StateBook,
  name: string,
  print: string | undefined,
): void {
  const memo = refusedCreates(book);
  if (!print && !(name in memo)) return;
  if (print) memo[name] = print;
  else delete memo[name];
  book.setMemo(REFUSED_CREATES_MEMO, memo);
}
