/**
 * Create new offers: the chain of API part 1 for every New Offers row without an offer_id.
 * This module is the job, the order of its phases; each phase is a module of this folder.
 *
 * 1. Check every row locally (new-offer-rows.ts: rules of 4.2, its Creative Sets rows, their
 *    materials): an INVALID row sends nothing at all, not even its materials.
 * 2. The budget guard asks once before creating offers with no daily cap or no total budget
 *    (offer-budget-hold.ts): held rows stay EDITED and send nothing.
 * 3. Look the names up in the account (offer-names.ts; offer names are unique): a taken name
 *    is INVALID.
 * 4. Upload the materials those rows use that have no md5 yet (offer-materials.ts).
 * 5. Post the creates to the outbox (state/outbox.ts; the rows say `Create sent`), send them
 *    (offer-creates.ts, fetchAll batches), and save every offer_id the moment the batch
 *    answers, before anything else is sent.
 * 6. Set the tracking of the offers whose tracking columns are filled (offer-tracking.ts).
 *
 * Never a duplicate offer: a name is looked up before every create; a create whose answer
 * proves nothing (lost, garbled, a 5xx, a busy service: see provesCreateFailed in the API
 * client) is looked up by name before anything is sent again, in this run and in the next; a
 * row with an offer_id is never created again, and a re-run only retries what is left of it
 * (its tracking), and only for an offer the add-on made from that very row (state/created-offers.ts).
 *
 * Never a mark lost: the creates' outbox entries, the offer_ids, the memory of the offers made
 * and History reach the spreadsheet (Job.save) before the next request goes out, since Apps
 * Script drops the queued writes of an execution it kills. And no batch starts that the
 * slowest batch of this run says would end past the retry budget.
 *
 * A preview ({dryRun: true}, create-preview.ts) checks every row with the same rules and says
 * per row what a run would do, sending nothing and recording nothing: no outbox entry, no
 * offer_id, no memo. A row whose earlier create is unsettled says so at the start of its
 * preview message; its entry stays in the outbox, so the run after the preview still adopts
 * its offer.
 */
import type {RunOptions} from '../kernel';
import type {Platform} from '../../platform/ports';
import {CREATIVES} from '../../sheets/schemas/creatives';
import {CREATIVE_SETS} from '../../sheets/schemas/creative-sets';
import {ACCOUNT, accountOfCell} from '../../sheets/accounts';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {Table, cellOf} from '../../sheets/table';
import {Job, JobFacts, withJob} from '../kernel';
import type {JobSummary} from '../run';
import type {CreateRun} from './context';
import {preview} from './create-preview';
import {
  createdOffers,
  earlierTrackings,
  rememberCreated,
} from '../../state/created-offers';
import {knownSubAccounts} from '../known-accounts';
import type {OfferPlan, Plan} from './new-offer-plan';
import {readPlan} from './new-offer-rows';
import {NO_NAME} from './row-account';
import {createSentAs, earlierCreates} from './sent-creates';
import {create, notRefusedBefore} from './offer-creates';
import {guardCreates} from './offer-budget-hold';
import {withMaterials} from './offer-materials';
import {unused} from './offer-names';
import {ExistingOffer, NOT_SENT, markSets} from './offer-outcomes';
import {track, trackable} from './offer-tracking';

const JOB = 'createOffers';

export function createOffers(
  platform: Platform,
  options: RunOptions = {},
): JobSummary {
  return withJob(platform, JOB, options, job => {
    const run = openRun(job);
    const acting = job.connected.account;
    job.outbox.upgrade('offer create', () =>
      earlierCreates(run.offers.table, acting),
    );
    const made = createdOffers(job.book, job.workbook);
    job.outbox.upgrade('tracking', () => earlierTrackings(job.book, made));
    const plan = readPlan(
      {
        offers: run.offers.table,
        sets: run.sets.table,
        creatives: run.creatives.table,
      },
      job.workbook,
      {
        made,
        sent: job.outbox.entries('offer create'),
        tracking: new Set(job.outbox.entries('tracking').map(e => e.record)),
      },
      {
        acting,
        known: knownSubAccounts(
          job.connected,
          job.workbook,
          typedAccounts(run.offers.table),
        ),
      },
    );
    if (!job.dryRun) {
      rememberCreated(job.book, plan.legacy);
      // Their rows are gone: nothing would send them again, nor adopt what they made.
      for (const e of plan.unclaimed) job.outbox.settle(e);
    }
    refuse(run, plan);
    const looked =
      plan.candidates.length + plan.created.length + plan.refused.length;
    const sendable = notRefusedBefore(
      run,
      plan.candidates.filter(c => c.problems.length === 0),
    );
    if (job.dryRun) {
      const would = preview(run, plan, sendable);
      markSets(run, plan.candidates);
      return job.summary({...facts(run, plan, looked), ...would});
    }
    const note = send(run, plan, sendable);
    const summary = job.summary(facts(run, plan, looked));
    return {...summary, message: summary.message + note};
  });
}

/** The sub-account names the New Offers rows' `account` cells hold (what can be one). */
function typedAccounts(offers: Table<never>): string[] {
  return offers.values.flatMap((_, i) => {
    const account = accountOfCell(cellOf(offers, i, ACCOUNT));
    return account && !NO_NAME.test(account) ? [account] : [];
  });
}

/** The run's writers (New Offers, Creative Sets, Creatives, saved with the job) and counts. */
function openRun(job: Job): CreateRun {
  return {
    job,
    clientFor: account => job.connected.clientFor(account),
    batchSize: job.connected.mainClient.batchSize,
    offers: job.rows(NEW_OFFERS),
    sets: job.rows(CREATIVE_SETS),
    creatives: job.rows(CREATIVES),
    counts: {requests: 0, remaining: 0, refusedAgain: 0},
  };
}

/** The rows refused before anything is sent, each with its problems. */
function refuse(run: CreateRun, plan: Plan): void {
  for (const refused of plan.refused) {
    const writes = refused.table === 'offers' ? run.offers : run.sets;
    writes.status(refused.index, 'INVALID', refused.message);
  }
  for (const candidate of plan.candidates) {
    if (candidate.problems.length > 0) {
      // A row whose earlier create is unsettled says so first: once fixed, its offer is
      // looked up under the name that create carried before anything is sent.
      const marker = candidate.sent
        ? `${createSentAs(candidate.sentAs ?? candidate.name, candidate.account)} by an earlier run, its outcome unknown; this row cannot go on: `
        : '';
      run.offers.status(
        candidate.index,
        'INVALID',
        `${marker}${candidate.problems.join('; ')}. ${NOT_SENT}`,
      );
    }
  }
}

/**
 * The phases that send: the guard's question, names, materials, creates, tracking; saved
 * between them. Answers what the summary adds of the guard.
 */
function send(run: CreateRun, plan: Plan, sendable: OfferPlan[]): string {
  const {job} = run;
  const total = plan.candidates.length + plan.created.length;
  job.platform.progress.report(JOB, 0, total);
  const guarded = guardCreates(run, sendable);
  const valid = unused(run, guarded.send);
  const made: ExistingOffer[] = [
    ...valid.found,
    ...plan.created
      .filter(c => trackable(run, c))
      .map(c => ({...c, origin: 'exists' as const, notes: []})),
  ];
  job.save();
  const ready = withMaterials(run, valid.free);
  made.push(...create(run, ready));
  job.save();
  track(run, made);
  markSets(run, plan.candidates);
  job.platform.progress.report(JOB, total, total);
  return guarded.note;
}

/**
 * What the summary says: New Offers rows by status, and Creative Sets rows that belong to no
 * offer as invalid too; every sheet's problems.
 */
function facts(run: CreateRun, plan: Plan, looked: number): JobFacts {
  const strays = plan.refused.filter(r => r.table === 'sets').length;
  const accountOf = new Map<number, string>();
  for (const row of [...plan.candidates, ...plan.created])
    if (row.account !== undefined) accountOf.set(row.index, row.account);
  return {
    sheet: NEW_OFFERS.name,
    accounts: run.offers.countByAccount('OK', i => accountOf.get(i)),
    ok: run.offers.count('OK'),
    invalid: run.offers.count('INVALID') + strays,
    error: run.offers.count('ERROR'),
    skipped: plan.done + run.counts.refusedAgain,
    remaining: run.counts.remaining,
    requests: run.counts.requests,
    problems: [
      ...run.offers.problems(),
      ...run.sets.problems(),
      ...run.creatives.problems(),
    ],
    message:
      looked === 0
        ? `Nothing to create (${run.job.account}): write offers in New Offers (one row each, offer_id empty) and their creative sets in Creative Sets.`
        : undefined,
  };
}
