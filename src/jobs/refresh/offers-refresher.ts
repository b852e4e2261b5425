/**
 * The refresher of Offers and Budgets: one offers listing fills both, the alerts decided
 * between them (offer-watch.ts) on what the server answered.
 */
import {MAX_LIMIT, offersListing} from '../../api/operations';
import type {Offer} from '../../api/types';
import {textOf} from '../../rules/values';
import {BUDGETS, budgetRows} from '../../sheets/schemas/budgets';
import {OFFERS} from '../../sheets/schemas/offers';
import {
  sentServerClicks,
  withServerClick,
} from '../../state/server-click-memory';
import {noun} from '../../text/wording';
import {COMPARED, WatchInput, watchedFacts} from './alerts';
import {watchedOffers} from './offer-watch';
import type {RefreshContext, Refresher} from './refresher';
import {refreshSheet} from './refresh-sheet';
import {listedCounts, once, pulledRecords} from './sheet-refresher';

/** What a push needs to know of an offer: who maintains it, where it delivers. */
function offerFacts(offer: Offer): Record<string, string> {
  return {
    maintain_by: String(offer.maintain_by ?? ''),
    target_geo: String(offer.target_geo ?? ''),
  };
}

/**
 * The fields of an offer the Budgets sheet reads: Budgets keeps these, not the whole offer,
 * while Offers is written (issue 37).
 */
const BUDGET_FIELDS = [
  'offer_id',
  'offer_name',
  'target_geo',
  'currency',
  'maintain_by',
  'budget',
] as const;

/** An offer with only the fields the Budgets sheet reads (those it has). */
export function budgetOffer(offer: Offer): Offer {
  const fields = offer as unknown as Record<string, unknown>;
  return Object.fromEntries(
    BUDGET_FIELDS.filter(k => k in fields).map(k => [k, fields[k]]),
  ) as unknown as Offer;
}

/**
 * One offers listing fills both Offers and Budgets. What each needs (and the alerts) is made
 * from the listing at once: Offers' records are then the only ones holding whole offers, and
 * they go when Offers has encoded them, before its write.
 */
export const offersRefresher: Refresher<Offer> = {
  what: noun('offer'),
  cost: {sheets: [OFFERS.name, BUDGETS.name], pageSize: MAX_LIMIT.offers},
  listing: ({client}) => offersListing(client),
  pulled: listed => {
    const watched = once(watchedOffers(listed));
    const offers = once(
      pulledRecords(listed, offer => ({
        sources: [offer],
        // Only what a later run reads of the last pull (issue 37: the state is no copy).
        facts: {
          ...offerFacts(offer),
          ...watchedFacts(offer, COMPARED),
          bid_rate: textOf(offer.bid_rate),
        },
      })),
    );
    const budgets = once(
      listed.map(({account, items}) => ({
        account,
        items: items.map(budgetOffer),
      })),
    );
    return {
      ...listedCounts(listed),
      write: context => {
        decideAlerts(context, watched);
        const sent = sentServerClicks(context.state);
        const offersReport = refreshSheet(context, OFFERS, () =>
          offers().map(r => ({
            ...r,
            sources: r.sources.map(o => withServerClick(o, sent)),
          })),
        );
        context.watch?.commit(context.state);
        const budgetsReport = refreshSheet(context, BUDGETS, () =>
          pulledRecords(budgets(), offer => ({
            sources: budgetRows(offer),
            // The budget guard names the offer and its currency.
            facts: {
              ...offerFacts(offer),
              currency: String(offer.currency ?? ''),
              offer_name: String(offer.offer_name ?? ''),
            },
          })),
        );
        context.watch?.write(context);
        return [offersReport, budgetsReport];
      },
    };
  },
};

/**
 * The alerts are decided on what the server answered, before any sheet is written, and
 * recorded with the Offers state they compare against: a run failing after it (at Budgets,
 * say) leaves them to the next refresh, which would not find them again. What they compare is
 * taken here, so the sheets' writes do not hold it.
 */
function decideAlerts(
  context: RefreshContext,
  watched: () => WatchInput['current'],
): void {
  context.watch?.check(context, context.state.get(OFFERS.name), watched());
}
