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
import {COMPARED, watchedFacts} from './alerts';
import type {Refresher} from './refresher';
import {refreshSheet} from './refresh-sheet';
import {pulledRecords} from './sheet-refresher';

/** What a push needs to know of an offer: who maintains it, where it delivers. */
function offerFacts(offer: Offer): Record<string, string> {
  return {
    maintain_by: String(offer.maintain_by ?? ''),
    target_geo: String(offer.target_geo ?? ''),
  };
}

/** One offers listing fills both Offers and Budgets. */
export const offersRefresher: Refresher<Offer> = {
  what: noun('offer'),
  cost: {sheets: [OFFERS.name, BUDGETS.name], pageSize: MAX_LIMIT.offers},
  listing: ({client}) => offersListing(client),
  pulled: listed => ({
    records: listed.reduce((n, l) => n + l.items.length, 0),
    requests: listed.reduce((n, l) => n + l.requests, 0),
    write: context => {
      const sent = sentServerClicks(context.state);
      // The alerts are decided on what the server answered, before any sheet is written, and
      // recorded with the Offers state they compare against: a run failing after it (at
      // Budgets, say) leaves them to the next refresh, which would not find them again.
      context.watch?.check(context, context.state.get(OFFERS.name), listed);
      const offers = refreshSheet(
        context,
        OFFERS,
        pulledRecords(listed, offer => ({
          sources: [withServerClick(offer, sent)],
          // Only what a later run reads of the last pull (issue 37: the state is no copy).
          facts: {
            ...offerFacts(offer),
            ...watchedFacts(offer, COMPARED),
            bid_rate: textOf(offer.bid_rate),
          },
        })),
      );
      context.watch?.commit(context.state);
      const budgets = refreshSheet(
        context,
        BUDGETS,
        pulledRecords(listed, offer => ({
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
      return [offers, budgets];
    },
  }),
};
