/** GET /api/open/v3/creative-ad/list (4.8); its envelope names the text field `message`. */
import {
  FieldErrors,
  isBlank,
  message,
  readIdSet,
  readInteger,
  readString,
} from '../checks';
import {pageOf, readPaging} from '../listing';
import type {Account, CreativeAd} from '../model';
import {presentCreativeAd} from '../present';
import type {OperationContext} from './context';

/**
 * ad_ids is required (4.8 marks it Y), demand_package_name or not: a package alone is refused.
 * Both given: ads must match both. A limit above 100 is refused, not clamped.
 */
export function listCreativeAds({store, account, params}: OperationContext) {
  const errors = new FieldErrors();
  const packageName = readString(
    errors,
    'demand_package_name',
    params.demand_package_name,
  );
  if (isBlank(params.ad_ids)) errors.add('ad_ids', message.required('ad_ids'));
  const adIds = readAdIds(errors, params.ad_ids);
  const paging = readPaging(errors, params, {
    defaultLimit: 20,
    maxLimit: 100,
    clamp: false,
  });
  errors.throwIfAny();
  const matches = (ad: CreativeAd) =>
    (!adIds || adIds.has(ad.ad_id)) &&
    (packageName === undefined ||
      packageOf(store, account, ad.offer_id) === packageName);
  return pageOf(
    account.creativeAds,
    paging,
    ad => presentCreativeAd(account, ad),
    matches,
  );
}

/**
 * An array of ids (JSON body or repeated query key), the JSON text of one, or comma-separated
 * ids.
 */
function readAdIds(
  errors: FieldErrors,
  value: unknown,
): Set<number> | undefined {
  if (typeof value === 'string' && value.startsWith('[')) {
    try {
      value = JSON.parse(value);
    } catch {
      return errors.add('ad_ids', message.array('ad_ids'));
    }
  }
  if (!Array.isArray(value)) return readIdSet(errors, 'ad_ids', value);
  const ids = value.map((item, i) =>
    readInteger(errors, `ad_ids.${i}`, item, {required: true, min: 1}),
  );
  return new Set(ids.filter((id): id is number => id !== undefined));
}

function packageOf(
  store: OperationContext['store'],
  account: Account,
  offerId: number,
): string | undefined {
  const offer = account.offers.get(offerId);
  return offer && store.campaign(offer.campaign_id)?.package_name;
}
