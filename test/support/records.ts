/** API records for unit tests: complete, as the API document describes them (2.2, 2.3). */
import type {Campaign, Offer} from '../../src/api/types';

export function campaign(id: number, fields: Partial<Campaign> = {}): Campaign {
  return {
    campaign_id: id,
    campaign_name: `Campaign ${id}`,
    promotion_type: 'APP',
    is_coppa: 'NO',
    alive_in_store: 'YES',
    preview_url: `https://play.example.test/app${id}`,
    product_name: `Product ${id}`,
    package_name: `com.example.app${id}`,
    description: `About app ${id}`,
    icon: '',
    platform: 'ANDROID',
    category: 'GAME',
    app_size: '12.50',
    min_version: '5.0',
    maintain_by: 'ADV',
    status: 'RUNNING',
    ...fields,
  };
}

export function offer(id: number, fields: Partial<Offer> = {}): Offer {
  return {
    campaign_id: 1,
    campaign_name: 'Campaign 1',
    offer_id: id,
    uuid: `uuid_${id}`,
    offer_name: `offer_${id}`,
    promote_timezone: 8,
    start_time: 1767225600,
    end_time: 0,
    status: 'RUNNING',
    target_geo: 'US,GB',
    stage: 'COLD_START',
    bid_type: 'CPI',
    bid_rate: 1.5,
    bid_rate_by_location: [{country_code: 'US', bid_rate: '2.000'}],
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1000',
        daily_cap_type: 'BUDGET',
        daily_cap: '100',
      },
    ],
    offer_stop_reason: '',
    settlement_event: '',
    tracking_method: 'S2S',
    click_url: `https://track.example.test/click?o=${id}`,
    impression_url: '',
    os_version_min: '5.0',
    custom_ad_schedule: '{"1":"0,1,2"}',
    network: 'WIFI',
    target_ad_type: 'IMAGE',
    currency: 'USD',
    target_device: 'PHONE',
    click_url_status: 'PASS',
    target_app: {switch: 0, agg_id: [], package: []},
    maintain_by: 'ADV',
    include_ta_id: [],
    exclude_ta_id: [],
    target_agg_event: [],
    target_original_event: '',
    target_goal_window: 'D0',
    target_goal: 0,
    target_goal_by_geo: [],
    ...fields,
  };
}
