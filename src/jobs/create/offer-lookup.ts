/**
 * Offers looked up by name, each in its own account. offer_name is unique in an account (4.2),
 * so a name answers both "may this name be used?" and "did the create whose answer was lost
 * happen?". The list's offer_name filter matches fuzzily (4.3): only exact matches count.
 */
import type {ApiClient} from '../../api/client';
import {offersListing} from '../../api/operations';
import {listEach} from '../../api/paging';
import type {Offer} from '../../api/types';
import {recordKey} from '../../sheets/accounts';

/** A name to look up, and the account whose offers it is looked up in. */
export interface NameInAccount {
  account: string;
  name: string;
}

export interface NamedOffers {
  /**
   * recordKey(account, name) -> the offers of that exact name in that account (usually none
   * or one), or why that account's lookup failed.
   */
  byName: Map<string, Offer[] | Error>;
  requests: number;
}

/**
 * One lookup per distinct name and account, signed by that account, all in the same batches.
 * A lookup fails alone (refused keys, keys that cannot be had, a 5xx): the others still answer.
 */
export function offersNamed(
  clientFor: (account: string) => ApiClient,
  names: readonly NameInAccount[],
): NamedOffers {
  const distinct = [
    ...new Map(names.map(n => [recordKey(n.account, n.name), n])).values(),
  ];
  const results = listEach<Offer>(
    distinct.map(({account, name}) => ({
      ...offersListing(clientFor(account), {offer_name: name}),
      isolated: true,
    })),
  );
  const byName = new Map<string, Offer[] | Error>();
  distinct.forEach(({account, name}, i) => {
    const {failed, items} = results[i];
    byName.set(
      recordKey(account, name),
      failed ?? items.filter(offer => offer.offer_name === name),
    );
  });
  return {byName, requests: results.reduce((n, r) => n + r.requests, 0)};
}
