/**
 * Looking names up in each row's account (with its keys), before and after a create. offer_name is unique in an
 * account (4.2): a name taken refuses the row before anything is sent, and a create whose
 * answer proved nothing (lost, garbled, a 5xx) is settled by finding its offer by name.
 */
import type {Offer} from '../../api/types';
import {takenNameProblem} from '../../rules/offer';
import {recordKey} from '../../sheets/accounts';
import type {CreateRun} from './context';
import {OfferPlan} from './new-offer-plan';
import {createSentAs} from './sent-creates';
import {NameInAccount, offersNamed} from './offer-lookup';
import {
  ExistingOffer,
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

/** What the lookups answered: recordKey(account, name) -> its offers, or why it failed. */
type ByName = Map<string, Offer[] | Error>;

/**
 * The offers of these names in their accounts, in one batch within the time budget:
 * undefined when the time ran out before it.
 */
function lookUp(run: CreateRun, names: NameInAccount[]): ByName | undefined {
  const named = run.job.budget.batch(() => offersNamed(run.clientFor, names));
  if (!named) return undefined;
  run.counts.requests += named.requests;
  return named.byName;
}

/** The names a row's lookup asks in its account: its own, and the one its marker names. */
function namesOf(c: OfferPlan): NameInAccount[] {
  const account = c.account!;
  return (c.sentAs ? [c.name, c.sentAs] : [c.name]).map(name => ({
    account,
    name,
  }));
}

/** The offers a row's name found in its account, or why its lookup failed. */
function foundFor(byName: ByName, c: OfferPlan, name: string): Offer[] | Error {
  return byName.get(recordKey(c.account!, name)) ?? [];
}

/**
 * Rows whose name the account does not use yet, and the offers found for rows whose
 * earlier create was never answered.
 */
export function unused(
  run: CreateRun,
  candidates: OfferPlan[],
): {free: OfferPlan[]; found: ExistingOffer[]} {
  if (candidates.length === 0) return {free: [], found: []};
  const byName = lookUp(run, candidates.flatMap(namesOf));
  if (!byName) {
    for (const c of candidates) later(run, c);
    return {free: [], found: []};
  }
  // One account's failed lookup (its keys refused or not to be had, a 5xx) fails its rows.
  const looked = candidates.filter(c => {
    const failure = namesOf(c)
      .map(n => foundFor(byName, c, n.name))
      .find((f): f is Error => f instanceof Error);
    if (!failure) return true;
    const reason = failure.message;
    run.offers.status(
      c.index,
      'ERROR',
      c.sent
        ? unsettled(c, `looking the offer up failed (${reason})`)
        : `Could not check that offer_name ${c.name} is not taken (${reason}). ${NOT_SENT} Run Create new offers again.`,
    );
    return false;
  });
  return sortByName(run, looked, byName);
}

/** The offers a row's name found, its lookup having answered. */
function listed(byName: ByName, c: OfferPlan, name: string): Offer[] {
  const found = foundFor(byName, c, name);
  return found instanceof Error ? [] : found;
}

/** Each row by what its name found: free, its own offer, renamed since, or taken. */
function sortByName(
  run: CreateRun,
  candidates: OfferPlan[],
  byName: ByName,
): {free: OfferPlan[]; found: ExistingOffer[]} {
  const free: OfferPlan[] = [];
  const found: ExistingOffer[] = [];
  for (const c of candidates) {
    const same = listed(byName, c, c.name);
    const mine = madeBy(same, c);
    const renamed =
      c.sentAs !== undefined && c.sentAs !== c.name
        ? madeBy(listed(byName, c, c.sentAs), c)
        : undefined;
    if (renamed && !mine) {
      // Offer names cannot be changed through the API: the row must name its offer again.
      run.offers.status(
        c.index,
        'ERROR',
        `${createSentAs(c.sentAs!, c.account)} by an earlier run made offer ${renamed.offer_id}, but this row now says offer_name ${c.name}: put ${c.sentAs} back in offer_name and ${RERUN} to resume that offer (the API cannot rename it). ${NOT_SENT}`,
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
): ExistingOffer[] {
  if (lost.length === 0) return [];
  const answered = (plan: OfferPlan, error: Error) =>
    `${createSentAs(plan.name, plan.account)}, but its outcome is unknown (${error.message})`;
  const byName = lookUp(
    run,
    lost.map(l => ({account: l.plan.account!, name: l.plan.name})),
  );
  const found: ExistingOffer[] = [];
  for (const {plan, error} of lost) {
    const named = byName ? foundFor(byName, plan, plan.name) : undefined;
    const offer = Array.isArray(named) ? madeBy(named, plan) : undefined;
    if (offer) {
      found.push(made(run, plan, Number(offer.offer_id), 'found'));
    } else {
      const failure =
        named === undefined
          ? 'the time ran out before the offer could be looked up'
          : `looking the offer up failed too (${(named as Error).message})`;
      const message = Array.isArray(named)
        ? `${answered(plan, error)}, and no offer named ${plan.name} is listed: ${RERUN}; it looks the offer up by name first and sends it only if it still does not exist.`
        : `${answered(plan, error)}, and ${failure}: ${RERUN}; it looks the offer up by name before sending anything.`;
      run.offers.status(plan.index, 'ERROR', message);
      // A list may lag behind a create: not listed is no proof that it was not made.
      logOffer(run, plan.name, plan.name, 'UNKNOWN', message);
    }
  }
  return found;
}
