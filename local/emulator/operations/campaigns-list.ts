/** GET /api/open/v3/campaign (4.6). */
import {FieldErrors, readIdSet, readInteger, readString} from '../checks';
import {fuzzyMatch, pageOf, readPaging} from '../listing';
import type {Campaign, Offer} from '../model';
import {inClientShape, presentCampaign} from '../present';
import type {OperationContext} from './context';

/**
 * Name filters match as the offers list does (case-insensitive substring); the offer filters
 * keep the campaigns that own a matching offer.
 */
export function listCampaigns({account, params, settings}: OperationContext) {
  const errors = new FieldErrors();
  const campaignIds = readIdSet(errors, 'campaign_id', params.campaign_id, 50);
  const campaignName = readString(
    errors,
    'campaign_name',
    params.campaign_name,
  );
  const packageName = readString(errors, 'package_name', params.package_name);
  const offerId = readInteger(errors, 'offer_id', params.offer_id, {min: 1});
  const offerName = readString(errors, 'offer_name', params.offer_name);
  const offerUuid = readString(errors, 'offer_uuid', params.offer_uuid);
  const paging = readPaging(errors, params, {
    defaultLimit: 10,
    maxLimit: 50,
    clamp: true,
  });
  errors.throwIfAny();

  const offerFilter =
    offerId !== undefined || offerName !== undefined || offerUuid !== undefined;
  const offerMatches = (offer: Offer) =>
    (offerId === undefined || offer.offer_id === offerId) &&
    (offerUuid === undefined || offer.uuid === offerUuid) &&
    fuzzyMatch(offer.offer_name, offerName);
  const owning = offerFilter
    ? new Set(
        [...account.offers.values()]
          .filter(offerMatches)
          .map(offer => offer.campaign_id),
      )
    : undefined;

  const matches = (campaign: Campaign) =>
    (!campaignIds || campaignIds.has(campaign.campaign_id)) &&
    (!owning || owning.has(campaign.campaign_id)) &&
    fuzzyMatch(campaign.campaign_name, campaignName) &&
    fuzzyMatch(campaign.package_name, packageName);
  return pageOf(
    account.campaigns,
    paging,
    campaign =>
      settings.clientShapes
        ? inClientShape(presentCampaign(campaign))
        : presentCampaign(campaign),
    matches,
  );
}
