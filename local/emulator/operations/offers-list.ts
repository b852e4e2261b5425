/** GET /api/open/v3/offers (4.3). */
import {FieldErrors, readCommaList, readIdSet, readString} from '../checks';
import {OFFER_STATUSES} from '../enums';
import {fuzzyMatch, pageOf, readPaging} from '../listing';
import type {Offer} from '../model';
import {inClientShape, presentOffer} from '../present';
import type {OperationContext} from './context';

/** A status of the comma-separated list (4.3), spaces around it allowed ('RUNNING, PENDING'). */
const isStatus = (item: string) =>
  (OFFER_STATUSES as readonly string[]).includes(item.trim());

/** ext_fields is named by the document without a shape: it is accepted and ignored. */
export function listOffers({
  store,
  account,
  params,
  settings,
}: OperationContext) {
  const errors = new FieldErrors();
  const campaignIds = readIdSet(errors, 'campaign_id', params.campaign_id);
  const offerIds = readIdSet(errors, 'offer_id', params.offer_id);
  const statuses = readCommaList(errors, 'status', params.status, {
    item: isStatus,
  });
  const campaignName = readString(
    errors,
    'campaign_name',
    params.campaign_name,
  );
  const offerName = readString(errors, 'offer_name', params.offer_name);
  const offerUuid = readString(errors, 'offer_uuid', params.offer_uuid);
  const packageName = readString(errors, 'package_name', params.package_name);
  const paging = readPaging(errors, params, {
    defaultLimit: 10,
    maxLimit: 50,
    clamp: true,
  });
  errors.throwIfAny();

  const filtered =
    [campaignIds, offerIds, statuses].some(Boolean) ||
    [offerUuid, offerName, campaignName, packageName].some(
      text => text !== undefined,
    );
  // Every page request of a filtered list runs this on every offer of the account: the
  // campaign is looked up only for a filter on it.
  const campaignOf = (offer: Offer) => store.campaign(offer.campaign_id)!;
  const matches = (offer: Offer) =>
    (!campaignIds || campaignIds.has(offer.campaign_id)) &&
    (!offerIds || offerIds.has(offer.offer_id)) &&
    (!statuses || statuses.some(s => s.trim() === offer.status)) &&
    (offerUuid === undefined || offer.uuid === offerUuid) &&
    fuzzyMatch(offer.offer_name, offerName) &&
    (campaignName === undefined ||
      fuzzyMatch(campaignOf(offer).campaign_name, campaignName)) &&
    (packageName === undefined ||
      fuzzyMatch(campaignOf(offer).package_name, packageName));
  const present = (offer: Offer) => {
    const shown = {
      ...presentOffer(store, offer),
      ...(settings.listsTimesInMs
        ? {
            start_time: offer.start_time * 1000,
            end_time: offer.end_time * 1000,
          }
        : {}),
      ...(settings.listsServerClick
        ? {
            support_server_click:
              settings.listsServerClick === 'boolean'
                ? offer.support_server_click === 'YES'
                : offer.support_server_click,
          }
        : {}),
    };
    return settings.clientShapes ? inClientShape(shown) : shown;
  };
  return pageOf(
    account.offers,
    paging,
    present,
    filtered ? matches : undefined,
  );
}
