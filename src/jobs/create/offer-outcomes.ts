/**
 * What became of a New Offers row, as its status and History say it: the offer made from it
 * (created, found by name, or made by an earlier run), a row the time left unsent, and the
 * Creative Sets rows that follow their offer's row. Every phase of a create ends a row here,
 * so the wording of an outcome is written once.
 */
import {ACCOUNT, accountCell} from '../../sheets/accounts';
import type {HistoryOutcome} from '../../sheets/history';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {sheetRow} from '../../sheets/table';
import type {CreateRun} from './context';
import {
  rememberCreateVerdict,
  rememberCreated,
} from '../../state/created-offers';
import {OfferPlan, Tracking} from './new-offer-plan';
import {createSentAs} from './sent-creates';

export const NOT_SENT = 'Nothing was sent.';
export const RERUN = 'run Create new offers again';

/**
 * How the row's offer came to be: created in this run, created in this run or an earlier
 * one but its answer lost and the offer found by name, or created by an earlier run.
 */
export type Origin = 'created' | 'found' | 'exists';

/** How a row's status names its offer, by how the offer came to be. */
export const WHAT: Record<Origin, (offerId: number) => string> = {
  created: id => `Offer ${id} created`,
  found: id =>
    `Offer ${id} created (the answer to its create was lost; found by name)`,
  exists: id => `Offer ${id} exists`,
};

/** An offer that exists, with what is still to do for its row. */
export interface ExistingOffer {
  index: number;
  offerId: number;
  /** The account that made it, whose keys set its tracking. */
  account: string;
  tracking?: Tracking;
  origin: Origin;
  /** What the create left out of the row, and why (OfferPlan.notes). */
  notes: string[];
}

/** The notes of a row's create, to end its OK (or preview) message. */
export function notes(m: {notes: readonly string[]}): string {
  return m.notes.map(n => ` ${n}.`).join('');
}

/** The status of a row whose offer exists and whose tracking is still to set. */
export const trackingLeft = (offer: string, why = '') =>
  `${offer}; its tracking is not set yet${why}: ${RERUN} to set it.`;

/**
 * The status of a row whose create an earlier run sent and whose outcome this run could not
 * settle: it starts with the Create sent marker (naming the offer_name the create carried), so
 * the next run still adopts the offer if it exists.
 */
export const unsettled = (c: OfferPlan, why: string) =>
  `${createSentAs(c.sentAs ?? c.name, c.account)} by an earlier run, and its outcome is still unknown: ${why}; ${RERUN}; it looks the offer up by name before sending anything.`;

/** A History row of an offer this run created, or tried to. */
export function logOffer(
  run: CreateRun,
  record: string | number,
  name: string,
  outcome: HistoryOutcome,
  message: string,
): void {
  run.job.log.add([
    {
      sheet: NEW_OFFERS.name,
      record: String(record),
      field: 'offer created',
      before: '',
      after: name,
      outcome,
      message,
    },
  ]);
}

/**
 * An offer made from the row: its id goes into the row, and into the memory of offers made;
 * the row's status says what is left, true even if the run is cut off before the tracking.
 */
export function made(
  run: CreateRun,
  c: OfferPlan,
  offerId: number,
  origin: Origin,
): ExistingOffer {
  const {book, outbox} = run.job;
  const account = c.account!;
  // Its create, and the one sent under the row's earlier name, settled by this offer.
  for (const name of new Set([c.name, c.sentAs ?? c.name])) {
    outbox.settle({kind: 'offer create', account, record: name});
  }
  run.offers.set(c.index, 'offer_id', offerId);
  // An empty cell meant the acting account of that run: it says whose the offer is for good.
  run.offers.set(c.index, ACCOUNT, accountCell(account));
  rememberCreateVerdict(book, c.name, undefined);
  logOffer(run, offerId, c.name, 'OK', `${WHAT[origin](offerId)}.`);
  rememberCreated(book, [
    {
      offer_id: offerId,
      offer_name: c.name,
      campaign_id: c.body!.campaign_id,
      account,
    },
  ]);
  const offer = {
    index: c.index,
    offerId,
    account,
    tracking: c.tracking,
    origin,
    notes: c.notes,
  };
  if (offer.tracking) {
    run.offers.status(c.index, 'ERROR', trackingLeft(WHAT[origin](offerId)));
  } else {
    run.offers.status(
      c.index,
      'OK',
      `${WHAT[origin](offerId)}.${notes(offer)}`,
    );
  }
  return offer;
}

/**
 * A row the time left unsent. One whose earlier create is still unsettled keeps saying so,
 * so that the next run adopts its offer if it turns up.
 */
export function later(run: CreateRun, c: OfferPlan): void {
  run.counts.remaining++;
  if (c.sent) {
    run.offers.status(c.index, 'ERROR', unsettled(c, 'the time ran out'));
  } else {
    run.offers.status(
      c.index,
      'EDITED',
      'Not sent yet: the time ran out. Run Create new offers again to continue.',
    );
  }
}

/** Each Creative Sets row of a row looked at gets its offer's outcome, or its own problem. */
export function markSets(run: CreateRun, candidates: OfferPlan[]): void {
  for (const c of candidates) {
    const outcome = run.offers.statusOf(c.index);
    const offerId = run.offers.cell(c.index, 'offer_id');
    for (const set of c.sets) {
      if (set.problems.length > 0) {
        run.sets.status(
          set.index,
          'INVALID',
          `${set.problems.join('; ')}. ${NOT_SENT}`,
        );
      } else if (
        offerId !== '' &&
        offerId !== undefined &&
        outcome?.status !== 'EDITED'
      ) {
        run.sets.status(set.index, 'OK', `Part of offer ${offerId}.`);
      } else if (outcome) {
        run.sets.status(
          set.index,
          outcome.status,
          `Not created yet: New Offers row ${sheetRow(c.index)} is ${outcome.status}: ${outcome.message}`,
        );
      }
    }
  }
}
