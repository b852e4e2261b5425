/**
 * Offers looked up by name. offer_name is unique in an account (4.2), so a name answers both
 * "may this name be used?" and "did the create whose answer was lost happen?". The list's
 * offer_name filter matches fuzzily (4.3): only exact matches count.
 */
import type {ApiClient} from '../../api/client';
import {MAX_LIMIT, OPERATIONS} from '../../api/operations';
import {listAllEach} from '../../api/paging';
import type {Offer} from '../../api/types';

export interface NamedOffers {
  /** Name -> the offers of that exact name (usually none or one). */
  byName: Map<string, Offer[]>;
  requests: number;
}

/** One lookup per distinct name, all in the same batches; throws when any fails. */
export function offersNamed(
  client: ApiClient,
  names: readonly string[],
): NamedOffers {
  const distinct = [...new Set(names)];
  const results = listAllEach<Offer>(
    client,
    OPERATIONS.listOffers,
    distinct.map(name => ({offer_name: name})),
    MAX_LIMIT.offers,
    offer => offer.offer_id,
  );
  const byName = new Map<string, Offer[]>();
  distinct.forEach((name, i) => {
    byName.set(
      name,
      results[i].items.filter(offer => offer.offer_name === name),
    );
  });
  return {byName, requests: results.reduce((n, r) => n + r.requests, 0)};
}
