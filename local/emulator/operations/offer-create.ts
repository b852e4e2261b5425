/** POST /api/open/v3/offer (4.2): a created offer is PENDING, with no click URL yet. */
import type {Offer} from '../model';
import {addCreativeAds, newCreativeSet, offerUuid} from '../records';
import type {OperationContext} from './context';
import {readOfferDraft} from './offer-rules';

export function createOffer({
  store,
  account,
  params,
  settings,
}: OperationContext) {
  const draft = readOfferDraft(
    store,
    account,
    params,
    settings.extraBillingTypes,
  );
  const offerId = store.nextId('offer');
  const budget = {
    target_geo: 'ALL',
    daily_cap_type: draft.daily_cap_type,
    daily_cap: amountText(draft.daily_cap),
    total_budget: amountText(draft.total_budget),
  };
  const offer: Offer = {
    accountId: account.accountId,
    offer_id: offerId,
    campaign_id: draft.campaign.campaign_id,
    uuid: offerUuid(store, offerId),
    offer_name: draft.offer_name,
    promote_timezone: draft.promote_timezone,
    start_time: draft.start_time,
    end_time: draft.end_time,
    status: 'PENDING',
    target_geo: draft.target_geo,
    stage: 'COLD_START',
    bid_type: draft.bid_type,
    bid_goal: draft.bid_goal,
    bid_rate: draft.bid_rate,
    bid_rate_by_location: [],
    budget: [budget],
    offer_stop_reason: '',
    settlement_event: draft.settlement_event,
    tracking_method: '',
    click_url: '',
    impression_url: '',
    support_server_click: 'NO',
    os_version_min: draft.os_version_min,
    os_version_max: draft.os_version_max,
    custom_ad_schedule: draft.custom_ad_schedule,
    network: draft.network,
    target_ad_type: draft.target_ad_type,
    target_device: draft.target_device,
    click_url_status: 'NOT_EXIST',
    target_app: {switch: 0, agg_id: [], package: []},
    maintain_by: 'ADV',
    include_ta_id: [],
    exclude_ta_id: [],
    target_agg_event: draft.target_agg_event,
    target_original_event: draft.target_original_event,
    target_goal_window: draft.target_goal_window,
    target_goal: draft.target_goal,
    target_goal_by_geo: draft.target_goal_by_geo,
    creative_sets: draft.creative_sets.map(set => newCreativeSet(store, set)),
    clickTestPassAt: null,
  };
  store.addOffer(offer);
  addCreativeAds(store, offer, () => 1);
  return {
    campaign_id: offer.campaign_id,
    offer_id: offer.offer_id,
    offer_name: offer.offer_name,
    promote_timezone: offer.promote_timezone,
    start_time: offer.start_time,
    end_time: offer.end_time,
    target_geo: offer.target_geo,
    bid_type: offer.bid_type,
    bid_rate: String(offer.bid_rate),
    daily_cap_type: budget.daily_cap_type,
    daily_cap: budget.daily_cap,
    total_budget: budget.total_budget,
    settlement_event: offer.settlement_event,
    os_version_min: offer.os_version_min,
    os_version_max: offer.os_version_max,
    custom_ad_schedule: {...offer.custom_ad_schedule},
    network: offer.network,
    target_ad_type: offer.target_ad_type,
    creative_sets: draft.creative_sets,
    target_device: offer.target_device,
  };
}

/** Budget amounts are text; no limit is 'OPEN', as in the budget list. */
function amountText(amount: number | undefined): string {
  return amount === undefined ? 'OPEN' : String(amount);
}
