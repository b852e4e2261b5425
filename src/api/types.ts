/**
 * Request and record shapes of the Open API v3, named after the API document's own fields.
 * Records are typed as the document describes them; values that arrive as null or in the
 * other form the document admits (numbers as strings and back) are handled by the codecs
 * that read them, not trusted here.
 */

/** A list answer (2.1). */
export interface Page<T> {
  page: number;
  limit: number;
  /** Undefined when the answer told none (the document says it does: paging.ts walks on). */
  total: number | undefined;
  list: T[];
}

/** 2.2 */
export interface Campaign {
  campaign_id: number;
  campaign_name: string;
  promotion_type: string;
  is_coppa: string;
  alive_in_store: string;
  preview_url: string;
  product_name: string;
  package_name: string;
  description: string;
  icon: string;
  platform: string;
  category: string;
  app_size: string;
  min_version: string;
  maintain_by: string;
  status: string;
}

/** An item of an offer's `budget` (2.3): each value may be the word OPEN. */
export interface OfferBudget {
  target_geo: string;
  total_budget: string | number;
  daily_cap_type: string;
  daily_cap: string | number;
}

export interface TargetApp {
  switch: number;
  agg_id: string[];
  package: string[];
}

/** 2.3, as the offers list returns it. */
export interface Offer {
  campaign_id: number;
  campaign_name: string;
  offer_id: number;
  uuid: string;
  offer_name: string;
  promote_timezone: number;
  start_time: string | number;
  end_time: string | number;
  status: string;
  target_geo: string;
  stage: string;
  bid_type: string;
  bid_rate: number;
  bid_rate_by_location: Array<{country_code: string; bid_rate: string}>;
  budget: OfferBudget[];
  offer_stop_reason: string;
  settlement_event: string;
  tracking_method: string;
  click_url: string;
  impression_url: string;
  os_version_min: string;
  custom_ad_schedule: string;
  network: string;
  target_ad_type: string;
  currency: string;
  target_device: string;
  click_url_status: string;
  target_app: TargetApp;
  maintain_by: string;
  include_ta_id: number[];
  exclude_ta_id: number[];
  target_agg_event: string[];
  target_original_event: string;
  target_goal_window: string;
  target_goal: number;
  target_goal_by_geo: Array<{geo: string; target_goal: number}>;
}

/** 2.4 */
export interface CreativeRef {
  creative_name: string;
  creative_md5: string;
}

export interface CreativeSet {
  creative_set_name: string;
  geos: string[];
  ad_outputs: number[];
  creatives: CreativeRef[];
}

/** 2.5 */
export interface Material {
  creative_type: string;
  creative_md5: string;
  creative_name: string;
  resolution: string;
  size: number;
  language: string | null;
  platform: string | null;
}

/** 2.6 */
export interface CreativeAd {
  ad_id: number;
  ad_name: string;
  offer_id: number;
  offer_uuid: string;
  creative_set_id: number;
  combination_method: number;
  ad_output: number;
  creatives: Array<{
    creative_id: number;
    creative_name: string;
    creative_md5: string;
    creative_type: string;
    creative_url: string;
  }>;
}

/** 2.7 (types of the credit fields are not shown: kept as they arrive). */
export interface SubAccount {
  sub_adv_user_name: string;
  access_key: string;
  api_key: string;
  is_unlimited_credit?: unknown;
  credit?: unknown;
}

/** 4.2 */
export interface CreateOfferRequest {
  campaign_id: number;
  offer_name: string;
  promote_timezone: number;
  start_time: number;
  end_time?: number;
  target_geo: string;
  billing_type?: string;
  bid_type?: string;
  bid_goal?: string;
  target_agg_event?: string[];
  target_original_event?: string;
  target_goal_window?: string;
  target_goal?: number;
  target_goal_by_geo?: Array<{geo: string; target_goal: number}>;
  bid_rate?: number;
  daily_cap_type?: string;
  daily_cap?: number;
  total_budget?: number;
  settlement_event?: string;
  os_version_min?: string;
  os_version_max?: string;
  custom_ad_schedule?: Record<string, string>;
  network?: string;
  target_ad_type?: string;
  target_device?: string;
  creative_sets: CreativeSet[];
}

/** The creation answer (2.3, second table); only what the add-on reads is named. */
export interface CreatedOffer {
  offer_id: number;
  offer_name: string;
  campaign_id: number;
  [field: string]: unknown;
}

/** 4.5: a budget group. */
export interface BudgetGroup {
  country_code: string;
  daily_cap_type: string;
  daily_cap: number | string;
  total_budget: number | string;
}

export interface BudgetUpdate {
  offer_id: number;
  budget: BudgetGroup[];
}

/** 2.8 / 4.4 */
export interface TrackingUpdate {
  offer_id: number;
  tracking_method: string;
  click_url: string;
  support_server_click: string;
}

/** 4.7: only campaign_id is required; the rest are the fields being changed. */
export interface CampaignUpdate {
  campaign_id: number;
  campaign_name?: string;
  promotion_type?: string;
  is_coppa?: string;
  icon?: string;
  product_name?: string;
  package_name?: string;
  app_size?: number;
  category?: string;
  min_version?: string;
  description?: string;
}

/** 4.1: the upload answer, or the material the duplicate answer names. */
export interface UploadedMaterial {
  /** Absent when the answer (`already existed`, or a success) named no md5 that could be read. */
  creative_md5?: string;
  /** Absent when the answer named no single name that could be read. */
  creative_name?: string;
  /** True when the API answered `already existed` and md5 and name came from that answer. */
  alreadyExisted: boolean;
  /** The API's text for an `already existed` answer; a success short of md5 or name, quoted. */
  message?: string;
}

/** 4.3 */
export interface OfferFilter {
  campaign_id?: Array<number | string>;
  campaign_name?: string;
  offer_id?: Array<number | string>;
  offer_name?: string;
  offer_uuid?: string;
  package_name?: string;
  status?: string[];
}

/** 4.6 */
export interface CampaignFilter {
  campaign_id?: Array<number | string>;
  campaign_name?: string;
  package_name?: string;
  offer_id?: number;
  offer_name?: string;
  offer_uuid?: string;
}

/** 4.9 */
export interface MaterialFilter {
  creative_md5?: string[];
  creative_name?: string;
  creative_type?: string;
  resolution?: string[];
}

/** 4.8 */
export interface CreativeAdFilter {
  ad_ids?: Array<number | string>;
  demand_package_name?: string;
}

/** 4.10 */
export interface SubAccountCreate {
  sub_adv_user_name: string;
  password: string;
}
