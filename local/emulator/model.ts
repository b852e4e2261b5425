/**
 * The records the emulator keeps. Fields that the API document names keep its snake_case names,
 * so presenting a record is mostly picking fields; bookkeeping the API never shows is camelCase.
 */
import type {
  BillingType,
  CampaignStatus,
  ClickUrlStatus,
  CreativeType,
  Currency,
  DailyCapType,
  MaintainBy,
  OfferStatus,
  PromotionType,
  YesNo,
} from './enums';

export type AccountKind = 'adv_user' | 'sub_adv_account';

export interface Account {
  readonly accountId: number;
  /** The user name; sub_adv_user_name for a sub-account. */
  readonly name: string;
  readonly kind: AccountKind;
  /** The adv_user that created a sub-account; null for an adv_user. */
  readonly parentId: number | null;
  readonly access_key: string;
  readonly api_key: string;
  readonly password: string;
  permissions: BillingType[];
  currency: Currency;
  is_unlimited_credit: YesNo;
  credit: number;
  readonly campaigns: Map<number, Campaign>;
  readonly offers: Map<number, Offer>;
  /** Keyed by creative_md5: one material per content within an account. */
  readonly materials: Map<string, Material>;
  readonly creativeAds: Map<number, CreativeAd>;
}

export interface Campaign {
  readonly accountId: number;
  readonly campaign_id: number;
  campaign_name: string;
  promotion_type: PromotionType;
  is_coppa: YesNo | '';
  alive_in_store: YesNo;
  preview_url: string;
  product_name: string;
  package_name: string;
  description: string;
  icon: string;
  platform: string;
  category: string;
  app_size: number;
  min_version: string;
  maintain_by: MaintainBy;
  status: CampaignStatus;
}

/** One budget group as the offers list shows it; amounts are text or 'OPEN'. */
export interface BudgetGroup {
  target_geo: string;
  total_budget: string;
  daily_cap_type: DailyCapType;
  daily_cap: string;
}

export interface CreativeRef {
  creative_name: string;
  creative_md5: string;
}

export interface CreativeSet {
  readonly creative_set_id: number;
  creative_set_name: string;
  geos: string[];
  ad_outputs: number[];
  creatives: CreativeRef[];
}

export interface TargetApp {
  switch: 0 | 1 | 2;
  agg_id: string[];
  package: string[];
}

export interface Offer {
  readonly accountId: number;
  readonly offer_id: number;
  campaign_id: number;
  readonly uuid: string;
  offer_name: string;
  promote_timezone: number;
  start_time: number;
  end_time: number;
  status: OfferStatus;
  target_geo: string;
  stage: string;
  /** One of the five, or a type of the `extraBillingTypes` option (README, assumption 34a). */
  bid_type: string;
  bid_goal: string;
  bid_rate: number;
  bid_rate_by_location: {country_code: string; bid_rate: string}[];
  budget: BudgetGroup[];
  offer_stop_reason: string;
  settlement_event: string;
  tracking_method: string;
  click_url: string;
  impression_url: string;
  support_server_click: YesNo;
  os_version_min: string;
  os_version_max: string;
  custom_ad_schedule: Record<string, string>;
  network: string;
  target_ad_type: string;
  target_device: string;
  click_url_status: ClickUrlStatus;
  target_app: TargetApp;
  maintain_by: MaintainBy;
  include_ta_id: number[];
  exclude_ta_id: number[];
  target_agg_event: string[];
  target_original_event: string;
  target_goal_window: string;
  target_goal: number;
  target_goal_by_geo: {geo: string; target_goal: number}[];
  creative_sets: CreativeSet[];
  /** Emulator-clock second at which a pending click URL test passes; null when none runs. */
  clickTestPassAt: number | null;
}

export interface Material {
  readonly accountId: number;
  /** The int64 creative_id that creative ads show for this material. */
  readonly creativeId: number;
  readonly creative_md5: string;
  creative_name: string;
  creative_type: CreativeType;
  resolution: string;
  /** Size in KB. */
  size: number;
  language: string | null;
  platform: string | null;
  /** File extension, which creative_url ends with. */
  extension: string;
  /** The file's bytes, whose md5 is creative_md5: what creative_url serves. */
  readonly bytes: Uint8Array;
}

export interface CreativeAd {
  readonly accountId: number;
  readonly ad_id: number;
  ad_name: string;
  readonly offer_id: number;
  readonly creative_set_id: number;
  combination_method: 1 | 2;
  ad_output: number;
  /** The creative set's own list: an ad shows the creatives of its set. */
  readonly creatives: readonly CreativeRef[];
}
