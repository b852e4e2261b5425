/**
 * support_server_click is write-only (TOOLING: the offers list never returns it), so the only
 * record of an offer's value is what the add-on itself sent and the API accepted: at creation
 * (createOffers' tracking step) and in pushTracking. Both remember it here; the Offers refresh
 * shows it, so a click_url edit never silently flips a value nobody typed.
 *
 * Keyed by offer_id (offer ids are unique across accounts: the API takes an offer_id alone);
 * kept in the state sheet beside the pull states.
 */
import type {Offer} from '../api/types';
import type {StateBook} from './book';

export const SERVER_CLICK_MEMO = 'support_server_click sent';

/**
 * offer_id -> when the add-on last set the offer's tracking (ms): the refresh of offers tells
 * an alert when its click URL has not passed its test some hours later (alerts.ts), and drops
 * the entry once it has.
 */
export const TRACKING_SET_MEMO = 'tracking set';

/** offer_id -> the support_server_click value last accepted by the API. */
export type ServerClickMemo = Record<string, string>;

export function sentServerClicks(book: StateBook): ServerClickMemo {
  return book.memo<ServerClickMemo>(SERVER_CLICK_MEMO) ?? {};
}

/** Records tracking the API accepted at `at` (ms); saved with the book's next save(). */
export function rememberServerClicks(
  book: StateBook,
  accepted: ReadonlyArray<{
    offer_id: number | string;
    support_server_click: string;
  }>,
  at: number,
): void {
  if (accepted.length === 0) return;
  const memo = {...sentServerClicks(book)};
  const set = {...book.memo<Record<string, number>>(TRACKING_SET_MEMO)};
  for (const {offer_id, support_server_click} of accepted) {
    memo[String(offer_id)] = support_server_click;
    set[String(offer_id)] = at;
  }
  book.setMemo(SERVER_CLICK_MEMO, memo);
  book.setMemo(TRACKING_SET_MEMO, set);
}

/**
 * The offer with the support_server_click the add-on last sent, where the list leaves it out
 * (it always does: TOOLING); an offer it never sent one to is as listed (the Offers refresh
 * keeps what the sheet last had).
 */
export function withServerClick(offer: Offer, sent: ServerClickMemo): Offer {
  const fields = offer as unknown as Record<string, unknown>;
  const remembered = sent[String(offer.offer_id)];
  if (fields.support_server_click !== undefined || remembered === undefined)
    return offer;
  return {...offer, support_server_click: remembered} as Offer;
}

/** The one column the API's lists never return (a schema's `unlisted`): the memo keeps it. */
const SERVER_CLICK = 'support_server_click';

/**
 * What the add-on last sent, and the API accepted, of `header` (a column the lists never
 * return) for record `id`; undefined: never sent, or not a column this memo keeps.
 */
export function lastSent(
  book: StateBook,
  header: string,
  id: string,
): string | undefined {
  return header === SERVER_CLICK ? sentServerClicks(book)[id] : undefined;
}

/** Remembers what the API accepted of `header` for each record, at `at` (ms). */
export function rememberSent(
  book: StateBook,
  header: string,
  accepted: ReadonlyArray<{id: string; value: string}>,
  at: number,
): void {
  if (header !== SERVER_CLICK) return;
  rememberServerClicks(
    book,
    accepted.map(a => ({offer_id: a.id, support_server_click: a.value})),
    at,
  );
}
