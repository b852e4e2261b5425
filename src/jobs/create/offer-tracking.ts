/**
 * Setting the tracking of the offers made (step 3 of the chain), batch by batch within the
 * time budget, each batch's outcomes saved before the next; each offer's tracking is sent and
 * read back with the keys of the account that made it, whichever account acts. An offer made by an earlier run
 * is resumed here only when its row is still the one it was made from (created-offers.ts).
 */
import {OutcomeUnknownError} from '../../api/errors';
import {offersListing, setTracking} from '../../api/operations';
import {listByIds} from '../../api/paging';
import type {Offer} from '../../api/types';
import {hasVerdict} from '../../api/retry';
import {recordKey} from '../../sheets/accounts';
import type {HistoryOutcome} from '../../sheets/history';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {rememberServerClicks} from '../server-click-memory';
import type {CreateRun} from './context';
import {
  createdOffers,
  rememberTrackingVerdict,
  trackingKey,
} from './created-offers';
import type {CreatedRow, Tracking} from './new-offer-rows';
import {Made, WHAT, notes, trackingLeft} from './offer-outcomes';

/** A created row whose tracking has problems is refused; the others go on. */
export function trackable(run: CreateRun, row: CreatedRow): boolean {
  if (row.problems.length === 0) return true;
  run.offers.status(
    row.index,
    'INVALID',
    `Offer ${row.offerId} exists, but its tracking cannot be sent: ${row.problems.join('; ')}.`,
  );
  return false;
}

const what = (m: Made) => WHAT[m.origin](m.offerId);

/** Sets the tracking of the offers that have it filled; every such row gets its status. */
export function track(run: CreateRun, made: Made[]): void {
  for (const m of made) {
    if (!m.tracking) run.offers.status(m.index, 'OK', `${what(m)}.${notes(m)}`);
  }
  const withTracking = settleLost(
    run,
    made.filter(m => m.tracking),
  );
  const size = run.batchSize;
  for (let start = 0; start < withTracking.length; start += size) {
    const chunk = withTracking.slice(start, start + size);
    const outcomes = run.job.budget.batch(() => {
      outForSending(run, chunk);
      return setTracking(
        chunk.map(m => ({
          client: run.clientFor(m.account),
          body: {offer_id: m.offerId, ...m.tracking!},
        })),
      );
    });
    if (!outcomes) {
      for (const m of withTracking.slice(start)) {
        run.counts.remaining++;
        run.offers.status(
          m.index,
          'ERROR',
          trackingLeft(what(m), ' (the time ran out)'),
        );
      }
      break;
    }
    run.counts.requests += chunk.length;
    const accepted = chunk.filter((m, i) => tracked(run, m, outcomes[i]));
    trackingTaken(run, accepted);
    run.job.save();
  }
}

/**
 * Records a batch's trackings as sent with their answer lost, and saves, before the batch
 * leaves: should Apps Script stop the run while it is out (the server setting them), the next
 * run reads them back instead of sending them twice. Each answer replaces the mark.
 */
function outForSending(run: CreateRun, chunk: readonly Made[]): void {
  const sentAt = new Date(run.job.platform.clock.now()).toISOString();
  for (const m of chunk) {
    rememberTrackingVerdict(run.job.book, m.offerId, {
      lost: trackingKey(m.tracking!),
    });
    run.offers.status(
      m.index,
      'ERROR',
      `Offer ${m.offerId} exists (offer_id filled in); its tracking was sent at ${sentAt}, but the answer was never recorded: it may or may not be set. Run Create new offers again: it reads the tracking back and sends it only if it is not set.`,
    );
  }
  run.job.save();
}

/** Whether an earlier run sent this tracking of the offer and its answer was lost. */
export function answerLost(
  run: CreateRun,
  offerId: number,
  tracking: Tracking,
): boolean {
  const memo = createdOffers(run.job.book);
  return memo?.[String(offerId)]?.lost_tracking === trackingKey(tracking);
}

/**
 * The offers whose tracking an earlier run sent and got no answer for, unchanged since, read
 * back first: sending it twice would restart the offer's click-URL test. An offer the add-on
 * made has no tracking but what it sent, so one that reads back with this tracking_method and
 * a click_url took it (the server may rewrite the URL it was sent) and is not sent again; one
 * without is sent. If reading back fails, nothing is sent for them. Answers what to send.
 */
function settleLost(run: CreateRun, withTracking: Made[]): Made[] {
  const isLost = (m: Made) => answerLost(run, m.offerId, m.tracking!);
  const lost = withTracking.filter(isLost);
  if (lost.length === 0) return withTracking;
  const accounts = [...new Set(lost.map(m => m.account))];
  const read = run.job.budget.batch(() => {
    try {
      return listByIds(
        accounts.map(account => ({
          client: run.clientFor(account),
          ids: lost
            .filter(m => m.account === account)
            .map(m => String(m.offerId)),
        })),
        (client, ids) => offersListing(client, {offer_id: ids}),
        (offer: Offer) => [offer],
      );
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  });
  const rest = withTracking.filter(m => !isLost(m));
  if (read === undefined) {
    for (const m of lost) {
      run.counts.remaining++;
      run.offers.status(
        m.index,
        'ERROR',
        trackingLeft(what(m), ' (the time ran out)'),
      );
    }
    return rest;
  }
  if (read instanceof Error) {
    for (const m of lost) {
      run.offers.status(
        m.index,
        'ERROR',
        `Offer ${m.offerId} exists (offer_id filled in); the answer to setting its tracking was lost, and reading it back failed (${read.message}): nothing was sent. Run Create new offers again: it reads the tracking back before sending it.`,
      );
    }
    return rest;
  }
  run.counts.requests += read.requests;
  const listed = new Map(
    read.records.flatMap((records, g) =>
      records.map(([offer]) => [
        recordKey(accounts[g], String(offer.offer_id)),
        offer,
      ]),
    ),
  );
  const confirmed: Made[] = [];
  for (const m of lost) {
    const offer = listed.get(recordKey(m.account, String(m.offerId)));
    // Compared as text whatever its case: the list may spell an enumeration its own way.
    const took =
      offer !== undefined &&
      String(offer.tracking_method ?? '').toUpperCase() ===
        m.tracking!.tracking_method.toUpperCase() &&
      String(offer.click_url ?? '') !== '';
    if (!took) {
      rest.push(m);
      continue;
    }
    confirmed.push(m);
    rememberTrackingVerdict(run.job.book, m.offerId, undefined);
    const message = `${what(m)}; tracking set (the answer to setting it was lost; reading it back confirmed it).${notes(m)}`;
    run.offers.status(m.index, 'OK', message);
    logTracking(run, m, 'OK', message);
  }
  trackingTaken(run, confirmed);
  return rest;
}

/** The server took these offers' tracking: its support_server_click is known now. */
function trackingTaken(run: CreateRun, taken: readonly Made[]): void {
  rememberServerClicks(
    run.job.book,
    taken.map(m => ({
      offer_id: m.offerId,
      support_server_click: m.tracking!.support_server_click,
    })),
    run.job.platform.clock.now(),
  );
}

/** One offer's tracking answer, on its row, in History and in the state: true if set. */
function tracked(
  run: CreateRun,
  m: Made,
  outcome: ReturnType<typeof setTracking>[number],
): boolean {
  const log = (outcome: HistoryOutcome, message: string) => {
    run.offers.status(m.index, outcome === 'OK' ? 'OK' : 'ERROR', message);
    logTracking(run, m, outcome, message);
  };
  const {book} = run.job;
  if (outcome.ok) {
    rememberTrackingVerdict(book, m.offerId, undefined);
    log('OK', `${what(m)}; tracking set.${notes(m)}`);
    return true;
  }
  if (hasVerdict(outcome.error)) {
    rememberTrackingVerdict(book, m.offerId, {
      refused: trackingKey(m.tracking!),
    });
    log(
      'ERROR',
      `Offer ${m.offerId} exists (offer_id filled in), but the API refused its tracking: ${outcome.error.message}. Change tracking_method, click_url or support_server_click, then run Create new offers again: only the tracking is sent, and not before it changes.`,
    );
  } else if (outcome.error instanceof OutcomeUnknownError) {
    rememberTrackingVerdict(book, m.offerId, {lost: trackingKey(m.tracking!)});
    log(
      'UNKNOWN',
      `Offer ${m.offerId} exists (offer_id filled in), but the answer to setting its tracking was lost (${outcome.error.message}): it may or may not be set. Run Create new offers again: it reads the tracking back and sends it only if it is not set.`,
    );
  } else {
    log(
      'ERROR',
      `Offer ${m.offerId} exists (offer_id filled in), but setting its tracking failed: ${outcome.error.message}. Run Create new offers again to retry the tracking only.`,
    );
  }
  return false;
}

/** The History rows of an offer's tracking this run sent. */
function logTracking(
  run: CreateRun,
  m: Made,
  outcome: HistoryOutcome,
  message: string,
): void {
  const tracking = m.tracking!;
  run.job.log.add(
    (['tracking_method', 'click_url', 'support_server_click'] as const).map(
      field => ({
        sheet: NEW_OFFERS.name,
        record: String(m.offerId),
        field,
        before: '',
        after: tracking[field],
        outcome,
        message,
      }),
    ),
  );
}
