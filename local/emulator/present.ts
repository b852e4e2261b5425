/** Records as the API shows them: the field sets and types of sections 2.2 to 2.6. */
import type {Account, Campaign, CreativeAd, Material, Offer} from './model';
import type {Store} from './store';

/** A campaign as PUT campaign answers it (4.7). */
export function presentCampaignUpdate(campaign: Campaign) {
  return {
    campaign_id: campaign.campaign_id,
    campaign_name: campaign.campaign_name,
    is_coppa: campaign.is_coppa,
    promotion_type: campaign.promotion_type,
    alive_in_store: campaign.alive_in_store,
    preview_url: campaign.preview_url,
    product_name: campaign.product_name,
    package_name: campaign.package_name,
    description: campaign.description,
    icon: campaign.icon,
    platform: campaign.platform,
    category: campaign.category,
    app_size: campaign.app_size.toFixed(2),
    min_version: campaign.min_version,
  };
}

/** A campaign as the campaign list shows it (2.2), with maintain_by and status. */
export function presentCampaign(campaign: Campaign) {
  return {
    ...presentCampaignUpdate(campaign),
    maintain_by: campaign.maintain_by,
    status: campaign.status,
  };
}

/**
 * A campaign or offer in the shapes the vendor's public clients read (assumption 45b):
 * target_geo named country_code, in the offer and in its budget items, and campaign_id as
 * text. Field order is kept.
 */
export function inClientShape(
  record: Record<string, unknown>,
): Record<string, unknown> {
  const renamed = Object.entries(record).map(
    ([field, value]): [string, unknown] => {
      if (field === 'target_geo') return ['country_code', value];
      if (field === 'campaign_id') return [field, String(value)];
      if (field === 'budget' && Array.isArray(value)) {
        return [
          field,
          value.map(item => inClientShape(item as Record<string, unknown>)),
        ];
      }
      return [field, value];
    },
  );
  return Object.fromEntries(renamed);
}

/** An offer as the offers list shows it (2.3). */
export function presentOffer(store: Store, offer: Offer) {
  const campaign = store.campaign(offer.campaign_id);
  const account = store.account(offer.accountId);
  const optimised =
    offer.bid_goal === 'Target-ROAS' || offer.bid_goal === 'Target-CPE';
  return {
    campaign_id: offer.campaign_id,
    campaign_name: campaign?.campaign_name ?? '',
    offer_id: offer.offer_id,
    uuid: offer.uuid,
    offer_name: offer.offer_name,
    promote_timezone: offer.promote_timezone,
    start_time: offer.start_time,
    end_time: offer.end_time,
    status: offer.status,
    target_geo: offer.target_geo,
    stage: offer.stage,
    bid_type: offer.bid_type,
    bid_rate: offer.bid_rate,
    bid_rate_by_location: offer.bid_rate_by_location.map(item => ({...item})),
    budget: offer.budget.map(group => ({...group})),
    offer_stop_reason: offer.offer_stop_reason,
    settlement_event: offer.settlement_event,
    tracking_method: offer.tracking_method,
    click_url: offer.click_url,
    impression_url: offer.impression_url,
    os_version_min: offer.os_version_min,
    custom_ad_schedule: JSON.stringify(offer.custom_ad_schedule),
    network: offer.network,
    target_ad_type: offer.target_ad_type,
    currency: account?.currency ?? 'USD',
    target_device: offer.target_device,
    click_url_status: offer.click_url_status,
    target_app: {
      switch: offer.target_app.switch,
      agg_id: [...offer.target_app.agg_id],
      package: [...offer.target_app.package],
    },
    maintain_by: offer.maintain_by,
    include_ta_id: [...offer.include_ta_id],
    exclude_ta_id: [...offer.exclude_ta_id],
    ...(optimised ? {target_agg_event: [...offer.target_agg_event]} : {}),
    ...(offer.bid_goal === 'Target-CPE'
      ? {target_original_event: offer.target_original_event}
      : {}),
    target_goal_window: offer.target_goal_window,
    target_goal: offer.target_goal,
    target_goal_by_geo: offer.target_goal_by_geo.map(item => ({...item})),
  };
}

/** A material as the creatives source list shows it (2.5). */
export function presentMaterial(material: Material) {
  return {
    creative_type: material.creative_type,
    creative_md5: material.creative_md5,
    creative_name: material.creative_name,
    resolution: material.resolution,
    size: material.size,
    language: material.language,
    platform: material.platform,
  };
}

/** A creative ad as the creative-ad list shows it (2.6). */
export function presentCreativeAd(account: Account, ad: CreativeAd) {
  return {
    ad_id: ad.ad_id,
    ad_name: ad.ad_name,
    offer_id: ad.offer_id,
    offer_uuid: account.offers.get(ad.offer_id)?.uuid ?? '',
    creative_set_id: ad.creative_set_id,
    combination_method: ad.combination_method,
    ad_output: ad.ad_output,
    creatives: ad.creatives.flatMap(({creative_md5}) => {
      const material = account.materials.get(creative_md5);
      if (!material) return [];
      return [
        {
          creative_id: material.creativeId,
          creative_name: material.creative_name,
          creative_md5: material.creative_md5,
          creative_type: material.creative_type,
          creative_url: creativeUrl(material),
        },
      ];
    }),
  };
}

/** The host creative_url names: the emulator serves each material's bytes there. */
export const CDN_HOST = 'cdn.emulator.invalid';

function creativeUrl(material: Material): string {
  return `https://${CDN_HOST}/creatives/${material.creative_md5}.${material.extension}`;
}
