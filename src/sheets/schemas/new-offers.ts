/**
 * The New Offers sheet: one row per offer to create (API 4.2). The user writes the request
 * fields (all but creative_sets, which come from the Creative Sets sheet) and, optionally, the
 * tracking of 2.8; createOffers fills offer_id the moment the offer exists, which is also what
 * keeps a row from ever being created twice.
 */
import {
  BILLING_TYPES,
  DAILY_CAP_TYPES,
  OCPI_BID_GOALS,
  TARGET_GOAL_WINDOWS,
} from '../../rules/offer';
import {MONEY_FORMAT, TEXT_FORMAT, defineSchema} from '../schema';
import {YES_NO} from './campaigns';
import {AD_TYPES, NETWORKS, TRACKING_METHODS} from './vendor-values';

/** Rows are written by the user and never pulled: there is no API record behind a row. */
export const NEW_OFFERS = defineSchema<never>({
  name: 'New Offers',
  account: 'typed',
  id: 'offer_id',
  // A row is written before it has an offer_id; offer names are unique in an account (4.2).
  identity: ['offer_name'],
  sync: true,
  sends:
    'Create offers sends the row as a new offer while its offer_id is empty; once it has one, nothing here is sent again.',
  columns: [
    {
      header: 'campaign_id',
      type: 'integer',
      editable: true,
      note: 'Existing, deliverable campaign the offer belongs to (see the Campaigns sheet).',
    },
    {
      header: 'offer_name',
      type: 'text',
      editable: true,
      note: 'Unique name: letters, digits and underscore, 3 to 95 characters. Creative Sets rows name their offer by it.',
    },
    {
      header: 'promote_timezone',
      type: 'decimal',
      editable: true,
      note: 'Time zone of the delivery times, as hours from UTC (for example -5 or 8).',
    },
    {
      header: 'start_time',
      type: 'timestamp',
      editable: true,
      // Plain text: in a date-formatted cell Sheets reads Unix seconds as days (a date no
      // calendar holds); as text they are sent as typed, and a typed date reads the same.
      format: TEXT_FORMAT,
      note: 'Start of delivery: a date (yyyy-mm-dd), a date and time (yyyy-mm-dd hh:mm, spreadsheet time zone) or Unix seconds, sent as typed; not before 946656000.',
    },
    {
      header: 'end_time',
      type: 'timestamp',
      editable: true,
      format: TEXT_FORMAT,
      note: 'End of delivery, in the same forms as start_time and later than it; empty or 0 for none.',
    },
    {
      header: 'target_geo',
      type: 'list',
      joined: true,
      upper: true,
      editable: true,
      note: "'ALL' or comma-separated geo codes (US,GB).",
    },
    {
      header: 'billing_type',
      type: 'text',
      editable: true,
      suggests: BILLING_TYPES,
      note: 'Billing type. OCPI needs bid_goal; CPI, CPE, CPM and CPC need bid_rate and target_ad_type; CPE needs settlement_event. A known type typed in other case is sent in its spelling (cpi as CPI); another type (2 to 20 letters, digits or underscores) is sent as typed with the pricing fields the row fills, none required: the API decides.',
    },
    {
      header: 'bid_goal',
      type: 'text',
      editable: true,
      values: OCPI_BID_GOALS,
      note: 'Optimisation goal, for OCPI only: Target-ROAS or Target-CPE (other billing types get theirs automatically).',
    },
    {
      header: 'target_agg_event',
      type: 'list',
      editable: true,
      note: 'Optimisation targets, comma-separated; required for Target-ROAS and Target-CPE.',
    },
    {
      header: 'target_original_event',
      type: 'text',
      editable: true,
      note: 'Original optimisation target; required for Target-CPE.',
    },
    {
      header: 'target_goal_window',
      type: 'text',
      editable: true,
      values: TARGET_GOAL_WINDOWS,
      note: 'D0 or D7; required for Target-ROAS and Target-CPE.',
    },
    {
      header: 'target_goal',
      type: 'decimal',
      // Plain text, so "150%" stays as typed instead of becoming 1.5.
      format: TEXT_FORMAT,
      editable: true,
      note: 'Offer-level goal. Target-ROAS: 1 to 1000 percent, two decimals (150 and 150% both mean 150%). Target-CPE: 0.1 to 2000, three decimals, no %.',
    },
    {
      header: 'target_goal_by_geo',
      type: 'json',
      editable: true,
      note: 'Optional goals per geo, JSON: [{"geo":"US","target_goal":120}].',
    },
    {
      header: 'bid_rate',
      type: 'decimal',
      format: MONEY_FORMAT,
      editable: true,
      note: 'Price for all geos, three decimals; at least 0.01 (CPI, CPE, CPM) or 0.001 (CPC); left out of the request for OCPI (the row says so).',
    },
    {
      header: 'daily_cap_type',
      type: 'text',
      editable: true,
      values: DAILY_CAP_TYPES,
      note: 'BUDGET (the default) or CONVERSION.',
    },
    {
      header: 'daily_cap',
      type: 'decimal',
      open: true,
      editable: true,
      note: 'Daily cap; empty or OPEN for no limit. BUDGET: three decimals, at least 50. CONVERSION: a whole number, at least 10.',
    },
    {
      header: 'total_budget',
      type: 'decimal',
      format: MONEY_FORMAT,
      open: true,
      editable: true,
      note: 'Total budget, three decimals; empty or OPEN for no limit; at least 10 with BUDGET.',
    },
    {
      header: 'settlement_event',
      type: 'text',
      editable: true,
      note: 'For CPE only (required there): letters, digits and underscore, 3 to 50 characters. Left out of the request for other billing types (the row says so).',
    },
    {
      header: 'os_version_min',
      type: 'text',
      editable: true,
      note: "Minimum OS version: a number, then up to two groups of a dot and a number (9, 14.5, 12.0.0); '0.0.0' means no minimum; empty for the campaign's.",
    },
    {
      header: 'os_version_max',
      type: 'text',
      editable: true,
      note: "Maximum OS version, same form; '99.0.0' means no maximum; empty for the campaign's.",
    },
    {
      header: 'custom_ad_schedule',
      type: 'json',
      editable: true,
      note: 'Delivery hours per weekday, JSON: keys 1 (Monday) to 7 (Sunday), values comma-separated hours 0 to 23, e.g. {"1":"9,10,11"}. Empty: all the time.',
    },
    {
      header: 'network',
      type: 'list',
      joined: true,
      editable: true,
      suggests: NETWORKS,
      note: 'Network types, comma-separated; empty for all.',
    },
    {
      header: 'target_ad_type',
      type: 'list',
      joined: true,
      editable: true,
      suggests: AD_TYPES,
      note: 'Ad display types, comma-separated; required for CPI, CPE, CPM and CPC; for OCPI the API sets it: a value typed there is left out of the request (the row says so).',
    },
    {
      header: 'target_device',
      type: 'list',
      joined: true,
      upper: true,
      editable: true,
      values: ['PHONE', 'TABLET', 'PHONE,TABLET'],
      note: 'PHONE, TABLET or both (comma-separated); empty for all.',
    },
    {
      header: 'tracking_method',
      type: 'text',
      editable: true,
      suggests: TRACKING_METHODS,
      note: 'Tracking method, set once the offer exists (PUT tracking). Leave the three tracking columns empty to set tracking later.',
    },
    {
      header: 'click_url',
      type: 'text',
      editable: true,
      note: 'Click tracking link (http:// or https://), sent with tracking_method.',
    },
    {
      header: 'support_server_click',
      type: 'yesno',
      editable: true,
      values: YES_NO,
      note: 'Whether server-side click is supported: YES or NO; sent with tracking_method.',
    },
    {
      header: 'offer_id',
      type: 'integer',
      note: 'Filled by Create new offers as soon as the offer exists: a row with an offer_id is never created again.',
    },
  ],
});
