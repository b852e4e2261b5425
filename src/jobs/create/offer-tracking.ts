/**
 * Setting the tracking of the offers made (step 3 of the chain), batch by batch within the
 * time budget, each batch's outcomes saved before the next; each offer's tracking is sent and
 * read back with the keys of the account that made it, whichever account acts. An offer made
 * by an earlier run is resumed here only when its row is still the one it was made from
 * (state/created-offers.ts). A tracking whose answer an earlier run lost is settled by the
 * read-back protocol a push uses (jobs/read-back.ts), in the same words.
 */
import {OutcomeUnknownError} from '../../api/errors';
import {readOffersBack, setTracking} from '../../api/operations';
import {hasVerdict} from '../../api/retry';
import {
  ReadBackStep,
  ReadBackVerdict,
  changedFields,
  historyOutcomeOf,
  marksAfter,
  stepAfter,
} from '../../rules/read-back';
import {recordKey} from '../../sheets/accounts';
import type {HistoryOutcome} from '../../sheets/history';
import {EMPTY} from '../../sheets/rows';
import {editableOf} from '../../sheets/schema';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {OFFERS} from '../../sheets/schemas/offers';
import {
  LostWrite,
  NO_TIME_TO_READ,
  readBack,
  readBackSays,
  sentAgain,
  verdictOn,
} from '../read-back';
import type {OutboxEntry} from '../../state/outbox';
import {rememberServerClicks} from '../../state/server-click-memory';
import type {CreateRun} from './context';
import {
  CreatedOffers,
  TrackingMarks,
  createdOffers,
  rememberTracking,
  trackingContent,
} from '../../state/created-offers';
import type {CreatedRow, Tracking} from './new-offer-plan';
import {
  ExistingOffer,
  RERUN,
  WHAT,
  notes,
  trackingLeft,
} from './offer-outcomes';

/** An offer whose tracking is to send; `again`: reading back showed it was not applied. */
type Sending = ExistingOffer & {again?: boolean};

/** How a row names an answer to setting its tracking that was lost. */
const LOST = 'the answer to setting its tracking was lost';
const LOST_IT = 'the answer to setting it was lost';

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

const what = (m: ExistingOffer) => WHAT[m.origin](m.offerId);

/** Sets the tracking of the offers that have it filled; every such row gets its status. */
export function track(run: CreateRun, made: ExistingOffer[]): void {
  for (const m of made) {
    if (!m.tracking) run.offers.status(m.index, 'OK', `${what(m)}.${notes(m)}`);
  }
  const memo = createdOffers(run.job.book, run.job.workbook);
  const withTracking = settleLost(
    run,
    memo,
    made.filter(m => m.tracking),
  );
  const size = run.batchSize;
  for (let start = 0; start < withTracking.length; start += size) {
    const chunk = withTracking.slice(start, start + size);
    const outcomes = run.job.budget.batch(() => {
      outForSending(run, memo, chunk);
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
    const accepted = chunk.filter((m, i) => tracked(run, memo, m, outcomes[i]));
    trackingTaken(run, accepted);
    run.job.save();
  }
}

/**
 * Records a batch's trackings as sent with their answer lost, and saves, before the batch
 * leaves: should Apps Script stop the run while it is out (the server setting them), the next
 * run reads them back instead of sending them twice. Each answer settles its outbox entry.
 */
function outForSending(
  run: CreateRun,
  memo: CreatedOffers | undefined,
  chunk: readonly ExistingOffer[],
): void {
  const sentAt = new Date(run.job.platform.clock.now()).toISOString();
  for (const m of chunk) {
    const {sent, before} = writeOf(run, memo, m);
    mark(run, m, {rows: before, unknown: sent}, sentAt);
    run.offers.status(
      m.index,
      'ERROR',
      `Offer ${m.offerId} exists (offer_id filled in); its tracking was sent at ${sentAt}, but the answer was never recorded: it may or may not be set. Run Create new offers again: it reads the tracking back and sends it only if it is not set.`,
    );
  }
  run.job.save();
}

/**
 * The tracking's write to the offer: what it sends, and what the offer is taken to hold
 * before it (what the add-on set, or, never set, no tracking: an offer the add-on made has
 * none but what it sent), as an Offers record's contents.
 */
function writeOf(
  run: CreateRun,
  memo: CreatedOffers | undefined,
  m: ExistingOffer,
): LostWrite {
  const sent = trackingContent(m.tracking!, run.job.workbook);
  const before = memo?.[String(m.offerId)]?.rows ?? [];
  return {
    key: recordKey(m.account, String(m.offerId)),
    sent,
    before,
    changed: changedFields(
      editableOf(OFFERS).map(c => c.header),
      EMPTY,
      sent,
      before,
    ),
  };
}

/**
 * The tracking of an offer still out, in the outbox: found by offer_id alone (offer ids are
 * unique across accounts; an entry of the release before names no account).
 */
export function trackingOut(
  run: CreateRun,
  offerId: number,
): OutboxEntry<'tracking'> | undefined {
  return run.job.outbox
    .entries('tracking')
    .find(e => e.record === String(offerId));
}

/** Whether an earlier run sent this tracking of the offer and its answer was lost. */
export function answerLost(
  run: CreateRun,
  offerId: number,
  tracking: Tracking,
): boolean {
  return (
    JSON.stringify(trackingOut(run, offerId)?.request.sent) ===
    JSON.stringify(trackingContent(tracking, run.job.workbook))
  );
}

/**
 * The marks of an offer's tracking: what the offer is taken to hold and what the API refused,
 * in the memo of offers made; what was sent with its outcome unknown, in the outbox (posted
 * at `time`, or settled when there is none).
 */
function mark(
  run: CreateRun,
  m: ExistingOffer,
  marks: TrackingMarks,
  time = new Date(run.job.platform.clock.now()).toISOString(),
): void {
  const {unknown, ...kept} = marks;
  rememberTracking(run.job.book, m.offerId, kept);
  const {outbox} = run.job;
  const standing = trackingOut(run, m.offerId);
  if (standing) outbox.settle(standing);
  if (!unknown) return;
  outbox.post([
    {
      kind: 'tracking',
      job: run.job.name,
      account: m.account,
      record: String(m.offerId),
      request: {sent: unknown},
      time: standing?.time || time,
    },
  ]);
}

/**
 * The offers whose tracking an earlier run sent and got no answer for, unchanged since, read
 * back first (jobs/read-back.ts) and settled by the verdict: sending it twice would restart
 * the offer's click-URL test. Answers what to send: the others, and those read back not set.
 */
function settleLost(
  run: CreateRun,
  memo: CreatedOffers | undefined,
  withTracking: ExistingOffer[],
): Sending[] {
  const isLost = (m: ExistingOffer) => answerLost(run, m.offerId, m.tracking!);
  const lost = withTracking.filter(isLost);
  if (lost.length === 0) return withTracking;
  const server = readBack(
    {schema: OFFERS, readBack: readOffersBack},
    lost.map(m => ({account: m.account, id: String(m.offerId)})),
    {
      clientFor: run.clientFor,
      context: run.job.workbook,
      budget: run.job.budget,
    },
  );
  run.counts.requests += server.requests;
  if ('failed' in server && server.failed === NO_TIME_TO_READ) {
    run.counts.remaining += lost.length;
  }
  const send: Sending[] = withTracking.filter(m => !isLost(m));
  const confirmed: ExistingOffer[] = [];
  for (const m of lost) {
    const write = writeOf(run, memo, m);
    const verdict = verdictOn(OFFERS, server, write);
    // Read back at the start of a run, it was not sent again yet.
    const step = stepAfter(verdict, false);
    mark(run, m, marksAfter(step, write));
    if (step === 'send again') {
      send.push({...m, again: true});
      continue;
    }
    if (step === 'confirm') confirmed.push(m);
    settled(run, m, step, verdict);
  }
  trackingTaken(run, confirmed);
  return send;
}

/** A row whose lost tracking reading back settled: its status, and History. */
function settled(
  run: CreateRun,
  m: ExistingOffer,
  step: Exclude<ReadBackStep, 'send again'>,
  verdict: ReadBackVerdict,
): void {
  const says = readBackSays(verdict, `offer ${m.offerId}`);
  const exists = `Offer ${m.offerId} exists (offer_id filled in)`;
  const words: Record<typeof step, string> = {
    confirm: `${what(m)}; tracking set (${LOST_IT}; ${says}).${notes(m)}`,
    'keep as sent': `Unknown outcome: ${exists}; ${LOST}, and ${says}: not sent again. Refresh offers to see what the server has; change the row's tracking to send it again.`,
    'send next time': `${exists}; ${LOST}, and ${says}: ${RERUN} to send it again.`,
    'read next time': `${exists}; ${LOST}, and ${says}: nothing was sent. Run Create new offers again: it reads the tracking back before sending it.`,
  };
  const outcome = historyOutcomeOf(step, verdict);
  run.offers.status(m.index, outcome === 'OK' ? 'OK' : 'ERROR', words[step]);
  logTracking(run, m, outcome, words[step]);
}

/** The server took these offers' tracking: its support_server_click is known now. */
function trackingTaken(run: CreateRun, taken: readonly ExistingOffer[]): void {
  rememberServerClicks(
    run.job.book,
    taken.map(m => ({
      offer_id: m.offerId,
      support_server_click: m.tracking!.support_server_click,
    })),
    run.job.platform.clock.now(),
  );
}

/** One offer's tracking answer, on its row, in History and in the marks: true if set. */
function tracked(
  run: CreateRun,
  memo: CreatedOffers | undefined,
  m: Sending,
  outcome: ReturnType<typeof setTracking>[number],
): boolean {
  const log = (outcome: HistoryOutcome, message: string) => {
    run.offers.status(m.index, outcome === 'OK' ? 'OK' : 'ERROR', message);
    logTracking(run, m, outcome, message);
  };
  const {sent, before} = writeOf(run, memo, m);
  const remember = (marks: TrackingMarks) =>
    mark(run, m, {rows: before, ...marks});
  if (outcome.ok) {
    remember({rows: sent});
    const again = m.again ? ` (${sentAgain(LOST_IT)})` : '';
    log('OK', `${what(m)}; tracking set${again}.${notes(m)}`);
    return true;
  }
  if (hasVerdict(outcome.error)) {
    remember({refused: sent});
    log(
      'ERROR',
      `Offer ${m.offerId} exists (offer_id filled in), but the API refused its tracking: ${outcome.error.message}. Change tracking_method, click_url or support_server_click, then run Create new offers again: only the tracking is sent, and not before it changes.`,
    );
  } else if (outcome.error instanceof OutcomeUnknownError) {
    remember({unknown: sent});
    log(
      'UNKNOWN',
      `Offer ${m.offerId} exists (offer_id filled in), but ${LOST} (${outcome.error.message}): it may or may not be set. Run Create new offers again: it reads the tracking back and sends it only if it is not set.`,
    );
  } else {
    remember({});
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
  m: ExistingOffer,
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
