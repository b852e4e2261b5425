/**
 * The Offers sheet: one row per offer (API 2.3). Editable: tracking_method, click_url and
 * support_server_click, which a tracking push sends together (PUT tracking, 4.4).
 *
 * support_server_click is not among the fields the offers list returns (2.3): a refresh shows
 * the value the add-on last sent (state/server-click-memory.ts), else what the sheet had; an
 * empty cell means the add-on does not know it. Should the API return it, its value is shown.
 */
import type {Offer} from '../../api/types';
import {MONEY_FORMAT, defineSchema} from '../schema';
import {TRACKING_METHODS} from './vendor-values';
import {YES_NO} from './campaigns';

export const OFFERS = defineSchema<Offer>({
  name: 'Offers',
  about:
    'One row per offer (API 2.3). Edit tracking_method, click_url and support_server_click and push tracking: the three are sent together (PUT tracking, 4.4). support_server_click is not returned by the offers list: the column shows what the add-on last sent, and is empty where it does not know; fill it (a fill-down decides for every such offer, sending nothing by itself) or set its default in the sidebar. Budgets are edited in the Budgets sheet.',
  account: 'pulled',
  id: 'offer_id',
  sync: true,
  sends:
    "Push tracking sends the offer's tracking_method, click_url and support_server_click together when any of them changed.",
  columns: [
    {header: 'campaign_id', type: 'integer', note: 'Owning campaign.'},
    {header: 'campaign_name', type: 'text', note: 'Campaign name.'},
    {header: 'offer_id', type: 'integer', note: 'Offer identifier.'},
    {
      header: 'uuid',
      type: 'text',
      note: 'System-generated offer name, mainly used in tracking link configuration.',
    },
    {header: 'offer_name', type: 'text', note: 'Offer name.'},
    {
      header: 'promote_timezone',
      type: 'decimal',
      note: 'Delivery time zone, for example -5.',
    },
    {
      header: 'start_time',
      type: 'timestamp',
      note: 'Start of delivery (a Unix timestamp, shown in the spreadsheet time zone).',
    },
    {
      header: 'end_time',
      type: 'timestamp',
      note: 'End of delivery (a Unix timestamp, shown in the spreadsheet time zone); empty for none.',
    },
    {
      header: 'status',
      type: 'text',
      note: 'Offer status: RUNNING, STOPPED (see offer_stop_reason), PENDING (start time not reached, tracking link not passed, no balance or creatives under review), OVER_CAP, OVER_DAILY_CAP, INSUFFICIENT_ACCOUNT_BALANCE, PARTIALLY_OVER_CAP; others may appear.',
    },
    {
      header: 'target_geo',
      type: 'list',
      joined: true,
      note: 'Delivery geos, comma-separated.',
    },
    {header: 'stage', type: 'text', note: 'Offer-level cold-start stage.'},
    {header: 'bid_type', type: 'text', note: 'Billing type.'},
    {
      header: 'bid_rate',
      type: 'decimal',
      format: MONEY_FORMAT,
      note: 'Fallback price for geos without their own price.',
    },
    {
      header: 'bid_rate_by_location',
      type: 'json',
      note: 'Prices per geo: items with country_code and bid_rate (JSON).',
    },
    {
      header: 'budget',
      type: 'json',
      note: 'Per-geo budget: items with target_geo, total_budget, daily_cap_type, daily_cap; OPEN means no limit (JSON). Edit budgets in the Budgets sheet.',
    },
    {
      header: 'offer_stop_reason',
      type: 'text',
      note: 'Why the offer was stopped (for example insufficient balance, no usable creative, tracking link test failed); empty when not stopped.',
    },
    {
      header: 'settlement_event',
      type: 'text',
      note: 'Non-empty only for CPE offers.',
    },
    {
      header: 'tracking_method',
      type: 'text',
      editable: true,
      suggests: TRACKING_METHODS,
      note: 'Tracking method. A tracking push sends it with click_url and support_server_click.',
    },
    {
      header: 'click_url',
      type: 'text',
      editable: true,
      note: 'Click tracking link (http:// or https://). After a push the link is tested again: see click_url_status after the next refresh.',
    },
    {
      header: 'support_server_click',
      type: 'yesno',
      editable: true,
      unlisted: true,
      values: YES_NO,
      read: offer =>
        (offer as unknown as Record<string, unknown>).support_server_click,
      note: 'Whether server-side click is supported (YES or NO). The offers list does not return it: shows what the add-on last sent; empty: not known. Filling an empty cell sends nothing by itself: it is sent with the next click_url or tracking_method change.',
    },
    {
      header: 'impression_url',
      type: 'text',
      note: 'Impression tracking link; the system normalises it, so it may differ from what was sent.',
    },
    {
      header: 'os_version_min',
      type: 'text',
      note: 'Minimum device OS version.',
    },
    {
      header: 'custom_ad_schedule',
      type: 'json',
      note: 'Delivery schedule: keys 1 to 7 (Monday to Sunday), values comma-separated hours 0 to 23 (JSON).',
    },
    {
      header: 'network',
      type: 'list',
      joined: true,
      note: 'Network type targeting.',
    },
    {
      header: 'target_ad_type',
      type: 'list',
      joined: true,
      note: 'Ad display types, comma-separated.',
    },
    {header: 'currency', type: 'text', note: 'CNY or USD.'},
    {
      header: 'target_device',
      type: 'list',
      joined: true,
      note: 'Device targeting: PHONE, TABLET, comma-separated.',
    },
    {
      header: 'click_url_status',
      type: 'text',
      note: 'Click URL test: PENDDING (untested or not yet passed; testing continues), PASS (passed), NOT_EXIST (no link).',
    },
    {
      header: 'target_app',
      type: 'json',
      note: 'App targeting: switch (1 target the listed apps, 2 block them, 0 no restriction), agg_id and package lists (JSON).',
    },
    {
      header: 'maintain_by',
      type: 'text',
      note: 'AM: managed by the account manager, you may only view it (edits are refused); ADV: you may edit it.',
    },
    {
      header: 'include_ta_id',
      type: 'list',
      items: 'integer',
      note: 'Audience package ids targeted, comma-separated.',
    },
    {
      header: 'exclude_ta_id',
      type: 'list',
      items: 'integer',
      note: 'Audience package ids excluded, comma-separated.',
    },
    {
      header: 'target_agg_event',
      type: 'list',
      note: 'Optimisation targets; only for bid_goal Target-ROAS and Target-CPE.',
    },
    {
      header: 'target_original_event',
      type: 'text',
      note: 'Original optimisation target; only for Target-CPE.',
    },
    {header: 'target_goal_window', type: 'text', note: 'D0 or D7.'},
    {
      header: 'target_goal',
      type: 'decimal',
      // Assumption: the list answers 0 for an offer without a goal (a goal is at least 0.1,
      // 4.2), so 0 is shown as no goal rather than as a goal of 0.
      read: offer => (offer.target_goal === 0 ? null : offer.target_goal),
      note: 'Offer-level optimisation goal value; empty when the offer has none (the API answers 0 outside OCPI).',
    },
    {
      header: 'target_goal_by_geo',
      type: 'json',
      note: 'Goals per geo: items with geo and target_goal (JSON).',
    },
  ],
});
