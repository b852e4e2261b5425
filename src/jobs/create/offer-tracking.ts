/**
 * Setting the tracking of the offers made (step 3 of the chain), batch by batch within the
 * time budget, each batch's outcomes saved before the next. An offer made by an earlier run
 * is resumed here only when its row is still the one it was made from (created-offers.ts).
 */
import {OutcomeUnknownError} from '../../api/errors';
import {setTracking} from '../../api/operations';
import {hasVerdict} from '../../api/retry';
import type {HistoryOutcome} from '../../sheets/history';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {rememberServerClicks} from '../server-click-memory';
import type {CreateRun} from './context';
import {rememberTrackingVerdict, trackingKey} from './created-offers';
import type {CreatedRow} from './new-offer-rows';
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
  const withTracking = made.filter(m => m.tracking);
  for (const m of made) {
    if (!m.tracking) run.offers.status(m.index, 'OK', `${what(m)}.${notes(m)}`);
  }
  const size = run.client.batchSize;
  for (let start = 0; start < withTracking.length; start += size) {
    const chunk = withTracking.slice(start, start + size);
    const outcomes = run.job.budget.batch(() =>
      setTracking(
        run.client,
        chunk.map(m => ({offer_id: m.offerId, ...m.tracking!})),
      ),
    );
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
    rememberServerClicks(
      run.job.book,
      accepted.map(m => ({
        offer_id: m.offerId,
        support_server_click: m.tracking!.support_server_click,
      })),
      run.job.platform.clock.now(),
    );
    run.job.save();
  }
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
    rememberTrackingVerdict(book, m.offerId, trackingKey(m.tracking!));
    log(
      'ERROR',
      `Offer ${m.offerId} exists (offer_id filled in), but the API refused its tracking: ${outcome.error.message}. Change tracking_method, click_url or support_server_click, then run Create new offers again: only the tracking is sent, and not before it changes.`,
    );
  } else if (outcome.error instanceof OutcomeUnknownError) {
    log(
      'UNKNOWN',
      `Offer ${m.offerId} exists (offer_id filled in), but the answer to setting its tracking was lost (${outcome.error.message}): it may or may not be set. Run Create new offers again to send the tracking only, once more (a new offer's click-URL test starts again).`,
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
