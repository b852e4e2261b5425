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
import {CodecContext, canonical, encode} from '../sheets/codec';
import {contentOf} from '../sheets/rows';
import {editableOf} from '../sheets/schema';
import {OFFERS} from '../sheets/schemas/offers';
import type {RecordState} from '../sheets/pulled';
import type {StateBook} from './book';
import type {OutboxEntry} from './outbox';

export const CREATED_OFFERS_MEMO = 'offers created from New Offers';

/** What identifies the row an offer was made from. */
export interface MadeFrom {
  offer_name: string;
  campaign_id: number;
}

/**
 * What the add-on knows of an offer's tracking, in the marks an Offers record's state has
 * (sheets/pulled.ts RecordState), each the tracking as the Offers sheet's editable texts: the one it
 * takes the offer to hold (`rows`: set, or read back as the server's own form of it), the one
 * the API refused (`refused`: not sent again unchanged), the one sent whose answer is unknown
 * (`unknown`: read back before it is sent again, jobs/read-back.ts). This memo keeps the first
 * two; the third is the outbox's (state/outbox.ts), and in this memo only as the release
 * before wrote it (earlierTrackings).
 */
export type TrackingMarks = Partial<
  Pick<RecordState, 'rows' | 'refused' | 'unknown'>
>;

/**
 * offer_id -> the row it was made from, the account that made it (whose keys set its tracking
 * and read it back, whichever account acts then; absent in entries of the release before
 * accounts: the row's), and the marks of its tracking.
 */
export type CreatedOffers = Record<
  string,
  MadeFrom & {account?: string} & TrackingMarks
>;

/**
 * The marks of entries written before they were an Offers record's (until 2026-11): the
 * tracking columns' values as one JSON text, of the tracking refused, or of the one whose
 * answer was lost.
 */
interface OlderMarks {
  refused_tracking?: string;
  lost_tracking?: string;
}

/** The tracking of a New Offers row, as the texts of its tracking columns. */
export interface TrackingTexts {
  tracking_method: string;
  click_url: string;
  support_server_click: string;
}

/** A tracking as the Offers sheet's editable content: what an Offers record's state holds. */
export function trackingContent(
  tracking: TrackingTexts,
  context: CodecContext,
): string[][] {
  return contentOf([
    editableOf(OFFERS).map(column =>
      canonical(
        column,
        encode(column, tracking[column.header as keyof TrackingTexts]),
        context,
      ),
    ),
  ]);
}

/**
 * The memo, or undefined when this spreadsheet has none yet: every create before the memo
 * existed was made by an earlier version of the add-on, which kept no such record. Older
 * marks are read as today's.
 */
export function createdOffers(
  book: StateBook,
  context: CodecContext,
): CreatedOffers | undefined {
  const memo =
    book.memo<Record<string, CreatedOffers[string] & OlderMarks>>(
      CREATED_OFFERS_MEMO,
    );
  const content = (older: string) => {
    const [tracking_method, click_url, support_server_click] = JSON.parse(
      older,
    ) as string[];
    return trackingContent(
      {tracking_method, click_url, support_server_click},
      context,
    );
  };
  for (const entry of Object.values(memo ?? {})) {
    if (entry.refused_tracking) entry.refused = content(entry.refused_tracking);
    if (entry.lost_tracking) entry.unknown = content(entry.lost_tracking);
    delete entry.refused_tracking;
    delete entry.lost_tracking;
  }
  return memo;
}

/**
 * The trackings the release before marked as sent with their answer lost (`unknown` in this
 * memo), as outbox entries (state/outbox.ts), taken out of the memo.
 */
export function earlierTrackings(
  book: StateBook,
  memo: CreatedOffers | undefined,
): Array<OutboxEntry<'tracking'>> {
  const out = Object.entries(memo ?? {}).flatMap(([offerId, entry]) => {
    if (!entry.unknown) return [];
    const sent = entry.unknown;
    delete entry.unknown;
    return [
      {
        kind: 'tracking' as const,
        job: 'createOffers',
        account: entry.account ?? '',
        record: offerId,
        request: {sent},
        time: '',
      },
    ];
  });
  if (out.length > 0) book.setMemo(CREATED_OFFERS_MEMO, memo);
  return out;
}

/** Records offers made from rows; saved with the book's next save(). */
export function rememberCreated(
  book: StateBook,
  made: ReadonlyArray<MadeFrom & {offer_id: number; account?: string}>,
): void {
  if (made.length === 0) return;
  // Changed in place: a run may record thousands, one by one.
  const memo = book.memo<CreatedOffers>(CREATED_OFFERS_MEMO) ?? {};
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
 * Records what became of the tracking of an offer made from a row: its marks, in place of
 * the ones it had. Saved with the book's next save().
 */
export function rememberTracking(
  book: StateBook,
  offerId: number,
  marks: TrackingMarks,
): void {
  const memo = book.memo<CreatedOffers>(CREATED_OFFERS_MEMO);
  const entry = memo?.[String(offerId)];
  if (!memo || !entry) return;
  const keys = ['rows', 'refused', 'unknown'] as const;
  if (keys.every(k => JSON.stringify(entry[k]) === JSON.stringify(marks[k])))
    return;
  for (const k of keys) {
    if (marks[k]) entry[k] = marks[k];
    else delete entry[k];
  }
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
