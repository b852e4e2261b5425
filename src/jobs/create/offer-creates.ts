/**
 * Sending the creates (step 2 of the chain), batch by batch, and what a refusal leaves behind.
 * Each create is posted to the outbox (its row saying `Create sent`) and saved before its batch
 * goes out, and each batch's offer_ids are saved before the next request: a create is never
 * sent twice for a row. A row
 * the API refused with a verdict is remembered by the print of what it sent, and not sent
 * again until the row changes (notRefusedBefore).
 */
import {ApiError, OutcomeUnknownError} from '../../api/errors';
import {createOffers as sendCreates} from '../../api/operations';
import {hasVerdict} from '../../api/retry';
import {SYNC_STATUS} from '../../sheets/schema';
import {cellOf} from '../../sheets/table';
import {accountLabel} from '../connect';
import type {CreateRun} from './context';
import {
  refusedCreates,
  rememberCreateVerdict,
} from '../../state/created-offers';
import {OfferPlan} from './new-offer-plan';
import {createSentAs} from './sent-creates';
import {resolveLost} from './offer-names';
import type {Ready} from './offer-materials';
import {ExistingOffer, RERUN, later, logOffer, made} from './offer-outcomes';

const RESEND_REFUSED =
  'Change the row, or clear its sync_status, to send it again: unchanged, it is not sent again.';

/** Sends the creates batch by batch; each batch's offer_ids are saved before the next step. */
export function create(run: CreateRun, ready: Ready[]): ExistingOffer[] {
  const offers: ExistingOffer[] = [];
  const size = run.batchSize;
  for (let start = 0; start < ready.length; start += size) {
    const chunk = ready.slice(start, start + size);
    const sentAt = new Date(run.job.platform.clock.now()).toISOString();
    const outcomes = run.job.budget.batch(() => {
      for (const {plan} of chunk) {
        run.offers.status(
          plan.index,
          'ERROR',
          `${createSentAs(plan.name, plan.account)} at ${sentAt}, but its answer was never recorded: ${RERUN}; it looks the offer up by name before sending anything.`,
        );
        // Looked up before this create: the one sent under the row's old name made nothing.
        if (plan.sentAs !== undefined && plan.sentAs !== plan.name) {
          run.job.outbox.settle({
            kind: 'offer create',
            account: plan.account!,
            record: plan.sentAs,
          });
        }
      }
      run.job.outbox.post(
        chunk.map(({plan}) => ({
          kind: 'offer create',
          job: run.job.name,
          account: plan.account!,
          record: plan.name,
          request: {campaign_id: plan.body!.campaign_id},
          time: sentAt,
        })),
      );
      run.job.save();
      return sendCreates(
        chunk.map(r => ({
          client: run.clientFor(r.plan.account!),
          body: r.request,
        })),
      );
    });
    if (!outcomes) {
      for (const {plan} of ready.slice(start)) later(run, plan);
      break;
    }
    run.counts.requests += chunk.length;
    const lost = answered(run, chunk, outcomes, offers);
    run.job.save();
    offers.push(...resolveLost(run, lost));
    run.job.save();
  }
  return offers;
}

/**
 * Each create's answer: an offer made (pushed onto `offers`), or a refusal said on its row;
 * answers that prove nothing are returned, to be settled by name.
 */
function answered(
  run: CreateRun,
  chunk: Ready[],
  outcomes: ReturnType<typeof sendCreates>,
  offers: ExistingOffer[],
): Array<{plan: OfferPlan; error: Error}> {
  const lost: Array<{plan: OfferPlan; error: Error}> = [];
  chunk.forEach(({plan, request}, i) => {
    const outcome = outcomes[i];
    const offerId = outcome.ok ? Number(outcome.data?.offer_id) : NaN;
    if (outcome.ok && Number.isSafeInteger(offerId) && offerId > 0) {
      offers.push(made(run, plan, offerId, 'created'));
    } else if (outcome.ok) {
      // A success without an offer id proves the create, not which offer it made.
      lost.push({plan, error: new Error('the answer named no offer_id')});
    } else if (outcome.error instanceof OutcomeUnknownError) {
      lost.push({plan, error: outcome.error.cause});
    } else {
      run.job.outbox.settle({
        kind: 'offer create',
        account: plan.account!,
        record: plan.name,
      });
      const refusal = refusalOf(plan, outcome.error);
      run.offers.status(plan.index, 'ERROR', refusal);
      logOffer(run, plan.name, plan.name, 'ERROR', refusal);
      if (hasVerdict(outcome.error)) {
        rememberCreateVerdict(
          run.job.book,
          plan.name,
          printOf(run, plan, request.creative_sets),
        );
      }
    }
  });
  return lost;
}

/** A refused create's status: why, and what sends it again. */
function refusalOf(plan: OfferPlan, error: Error): string {
  const next = hasVerdict(error)
    ? ` ${RESEND_REFUSED}`
    : ' The next run sends it again.';
  if (error instanceof ApiError && /permission denied/i.test(error.msg)) {
    return `billing_type: the ${accountLabel(plan.account!)} lacks the permission to create ${plan.body!.billing_type} offers (the API answered "Permission denied"). Nothing was created.${next}`;
  }
  return `${error.message}. Nothing was created.${next}`;
}

/**
 * What a row's create sends, and to which account, as a print: the same print, the same
 * request. `creativeSets` name each material as the request does (creative_name and
 * creative_md5), so a row whose Creatives row now holds another material, or a file still to
 * upload, prints otherwise; and a row refused as one account is sent again as another.
 */
function printOf(
  run: CreateRun,
  c: OfferPlan,
  creativeSets: readonly unknown[],
): string {
  return run.job.platform.digest.md5Hex(
    JSON.stringify({
      account: c.account,
      request: {...c.body!, creative_sets: creativeSets},
      tracking: c.tracking ?? null,
    }),
  );
}

/** A row's creative sets as its create would send them, a file not uploaded yet by its file. */
function plannedSets(c: OfferPlan): unknown[] {
  return c.sets.map(set => ({
    ...set.draft!,
    creatives: set.materials.map(({material: m}) =>
      m.creative_md5
        ? {creative_name: m.creative_name, creative_md5: m.creative_md5}
        : {file: m.file},
    ),
  }));
}

/**
 * The rows to send. A row the API refused with a verdict at an earlier run, unchanged since
 * and still showing that ERROR, keeps it and is not sent (counted as skipped): the same
 * request would only be refused again. Changing the row, or clearing its sync_status, sends it;
 * and the refusal is forgotten then, since whatever the row says next (a failed lookup, the
 * time running out) is no longer that refusal, and asks for a run that sends it.
 */
export function notRefusedBefore(
  run: CreateRun,
  candidates: OfferPlan[],
): OfferPlan[] {
  const {book, dryRun} = run.job;
  const refused = refusedCreates(book);
  return candidates.filter(c => {
    const before = refused[c.name];
    if (!before) return true;
    const shown = String(cellOf(run.offers.table, c.index, SYNC_STATUS));
    if (shown !== 'ERROR' || before !== printOf(run, c, plannedSets(c))) {
      if (!dryRun) rememberCreateVerdict(book, c.name, undefined);
      return true;
    }
    // Its row already says why, as a push leaves a refused row unchanged.
    run.counts.refusedAgain++;
    return false;
  });
}
