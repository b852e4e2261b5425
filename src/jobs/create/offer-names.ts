/**
 * Looking names up in the account, before and after a create. offer_name is unique in an
 * account (4.2): a name taken refuses the row before anything is sent, and a create whose
 * answer proved nothing (lost, garbled, a 5xx) is settled by finding its offer by name.
 */
import {ConfigError} from '../../api/errors';
import type {Offer} from '../../api/types';
import {takenNameProblem} from '../../rules/offer';
import type {CreateRun} from './context';
import {OfferPlan, createSentAs} from './new-offer-rows';
import {offersNamed} from './offer-lookup';
import {
  Made,
  NOT_SENT,
  RERUN,
  later,
  logOffer,
  made,
  unsettled,
} from './offer-outcomes';

/**
 * The offer of the row's name that its create made: in the row's campaign. An offer listed
 * without a campaign_id is taken on its name alone (offer names are unique in an account).
 */
function madeBy(named: readonly Offer[], plan: OfferPlan): Offer | undefined {
  return named.find(
    o =>
      o.campaign_id === undefined ||
      o.campaign_id === null ||
      Number(o.campaign_id) === plan.body!.campaign_id,
  );
}

/**
 * The offers of these names, in one batch within the time budget: undefined when the time
 * ran out before it. Throws when a lookup fails.
 */
function lookUp(
  run: CreateRun,
  names: string[],
): Map<string, Offer[]> | undefined {
  const named = run.job.budget.batch(() => offersNamed(run.client, names));
  if (!named) return undefined;
  run.counts.requests += named.requests;
  return named.byName;
}

/**
 * Rows whose name the account does not use yet, and the offers found for rows whose
 * earlier create was never answered.
 */
export function unused(
  run: CreateRun,
  candidates: OfferPlan[],
): {free: OfferPlan[]; found: Made[]} {
  if (candidates.length === 0) return {free: [], found: []};
  let byName: Map<string, Offer[]> | undefined;
  try {
    byName = lookUp(
      run,
      candidates.flatMap(c => (c.sentAs ? [c.name, c.sentAs] : [c.name])),
    );
  } catch (e) {
    // Settings at fault (an unknown sub-account) concern the whole job, not these rows.
    if (e instanceof ConfigError) throw e;
    const reason = (e as Error).message;
    for (const c of candidates) {
      run.offers.status(
        c.index,
        'ERROR',
        c.sent
          ? unsettled(c, `looking the offer up failed (${reason})`)
          : `Could not check that offer_name ${c.name} is not taken (${reason}). ${NOT_SENT} Run Create new offers again.`,
      );
    }
    return {free: [], found: []};
  }
  if (!byName) {
    for (const c of candidates) later(run, c);
    return {free: [], found: []};
  }
  return sortByName(run, candidates, byName);
}

/** Each row by what its name found: free, its own offer, renamed since, or taken. */
function sortByName(
  run: CreateRun,
  candidates: OfferPlan[],
  byName: Map<string, Offer[]>,
): {free: OfferPlan[]; found: Made[]} {
  const free: OfferPlan[] = [];
  const found: Made[] = [];
  for (const c of candidates) {
    const same = byName.get(c.name) ?? [];
    const mine = madeBy(same, c);
    const renamed =
      c.sentAs !== undefined && c.sentAs !== c.name
        ? madeBy(byName.get(c.sentAs) ?? [], c)
        : undefined;
    if (renamed && !mine) {
      // Offer names cannot be changed through the API: the row must name its offer again.
      run.offers.status(
        c.index,
        'ERROR',
        `${createSentAs(c.sentAs!)} by an earlier run made offer ${renamed.offer_id}, but this row now says offer_name ${c.name}: put ${c.sentAs} back in offer_name and ${RERUN} to resume that offer (the API cannot rename it). ${NOT_SENT}`,
      );
    } else if (same.length === 0) {
      free.push(c);
    } else if (c.sent && mine) {
      found.push(made(run, c, Number(mine.offer_id), 'found'));
    } else {
      run.offers.status(
        c.index,
        'INVALID',
        `${takenNameProblem(same[0].offer_id)}. ${NOT_SENT}`,
      );
    }
  }
  return {free, found};
}

/**
 * Creates whose answer proves nothing: the account is asked whether they happened. A create
 * not found is left for the next run, which looks it up again before sending it.
 */
export function resolveLost(
  run: CreateRun,
  lost: Array<{plan: OfferPlan; error: Error}>,
): Made[] {
  if (lost.length === 0) return [];
  const answered = (plan: OfferPlan, error: Error) =>
    `${createSentAs(plan.name)}, but its outcome is unknown (${error.message})`;
  let byName: Map<string, Offer[]> | undefined;
  let failure = '';
  try {
    byName = lookUp(
      run,
      lost.map(l => l.plan.name),
    );
    if (!byName)
      failure = 'the time ran out before the offer could be looked up';
  } catch (e) {
    failure = `looking the offer up failed too (${(e as Error).message})`;
  }
  const found: Made[] = [];
  for (const {plan, error} of lost) {
    const offer = madeBy(byName?.get(plan.name) ?? [], plan);
    if (offer) {
      found.push(made(run, plan, Number(offer.offer_id), 'found'));
    } else {
      const message = byName
        ? `${answered(plan, error)}, and no offer named ${plan.name} is listed: ${RERUN}; it looks the offer up by name first and sends it only if it still does not exist.`
        : `${answered(plan, error)}, and ${failure}: ${RERUN}; it looks the offer up by name before sending anything.`;
      run.offers.status(plan.index, 'ERROR', message);
      // A list may lag behind a create: not listed is no proof that it was not made.
      logOffer(run, plan.name, plan.name, 'UNKNOWN', message);
    }
  }
  return found;
}
