/** Record builders shared by the seed and the operations, so both make records one way. */
import {md5Hex} from './digest';
import type {CreativeRef, CreativeSet, Offer} from './model';
import type {Store} from './store';

/** The system-generated offer name: unique by its id, stable for a seed. */
export function offerUuid(store: Store, offerId: number): string {
  return `ofr_${offerId}_${md5Hex(`uuid:${store.seed}:${offerId}`).slice(0, 8)}`;
}

/** Keys of a sub-account, derived from the seed and its name so reruns reproduce them. */
export function subAccountKeys(
  store: Store,
  name: string,
): {access_key: string; api_key: string} {
  return {
    access_key: `sub-${md5Hex(`access:${store.seed}:${name}`).slice(0, 16)}`,
    api_key: md5Hex(`api:${store.seed}:${name}`),
  };
}

export function newCreativeSet(
  store: Store,
  fields: {
    creative_set_name: string;
    geos: string[];
    ad_outputs: number[];
    creatives: CreativeRef[];
  },
): CreativeSet {
  return {creative_set_id: store.nextId('creativeSet'), ...fields};
}

/** One creative ad per creative set and output type, as the service assembles them. */
export function addCreativeAds(
  store: Store,
  offer: Offer,
  combinationMethod: (set: CreativeSet) => 1 | 2,
): void {
  for (const set of offer.creative_sets) {
    for (const output of set.ad_outputs) {
      const adId = store.nextId('creativeAd');
      store.addCreativeAd({
        accountId: offer.accountId,
        ad_id: adId,
        ad_name: `${offer.offer_name}_${set.creative_set_name}_${output}`,
        offer_id: offer.offer_id,
        creative_set_id: set.creative_set_id,
        combination_method: combinationMethod(set),
        ad_output: output,
        creatives: set.creatives,
      });
    }
  }
}
