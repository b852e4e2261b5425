/**
 * Value lists. The API document quotes some values and says the full enumerations are "not
 * shown"; the lists marked ASSUMED are this emulator's choice (see README.md) and are enforced
 * strictly, so a client that passes here sends only values the document names or implies.
 */

export const BILLING_TYPES = ['CPI', 'CPE', 'CPM', 'CPC', 'OCPI'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

export const OCPI_BID_GOALS = ['Target-ROAS', 'Target-CPE'] as const;
/** bid_goal that the service sets for the other billing types (CPC: ASSUMED). */
export const AUTOMATIC_BID_GOAL: Record<
  Exclude<BillingType, 'OCPI'>,
  string
> = {CPI: 'Install', CPM: 'Impression', CPE: 'Event', CPC: 'Click'};

/**
 * Offer statuses: PENDING and RUNNING are quoted; the others are the vendor's public (v1) list
 * (shared/TOOLING.md).
 */
export const OFFER_STATUSES = [
  'PENDING',
  'RUNNING',
  'STOPPED',
  'OVER_CAP',
  'OVER_DAILY_CAP',
  'INSUFFICIENT_ACCOUNT_BALANCE',
  'PARTIALLY_OVER_CAP',
] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const CLICK_URL_STATUSES = ['PENDDING', 'PASS', 'NOT_EXIST'] as const;
export type ClickUrlStatus = (typeof CLICK_URL_STATUSES)[number];

/**
 * Campaign statuses: the vendor's public (v1) list (shared/TOOLING.md); only RUNNING campaigns
 * are deliverable (ASSUMED).
 */
export const CAMPAIGN_STATUSES = [
  'RUNNING',
  'STOPPED',
  'OVER_DAILY_CAP',
  'INSUFFICIENT_ACCOUNT_BALANCE',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const DELIVERABLE_CAMPAIGN_STATUS: CampaignStatus = 'RUNNING';

export const PROMOTION_TYPES = ['APP', 'WEBSITE'] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];
export const YES_NO = ['YES', 'NO'] as const;
export type YesNo = (typeof YES_NO)[number];
export const MAINTAINERS = ['AM', 'ADV'] as const;
export type MaintainBy = (typeof MAINTAINERS)[number];
export const DAILY_CAP_TYPES = ['BUDGET', 'CONVERSION'] as const;
export type DailyCapType = (typeof DAILY_CAP_TYPES)[number];
export const TARGET_GOAL_WINDOWS = ['D0', 'D7'] as const;
export const TARGET_DEVICES = ['PHONE', 'TABLET'] as const;
export const CREATIVE_TYPES = ['IMAGE', 'VIDEO', 'PLAYABLE'] as const;
export type CreativeType = (typeof CREATIVE_TYPES)[number];
export const CURRENCIES = ['USD', 'CNY'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Ad display types, image then video (ASSUMED, from the vendor's public appendix). */
export const IMAGE_AD_TYPES = [
  'BANNER',
  'DISPLAY_INTERSTITIAL',
  'DISPLAY_NATIVE',
  'APPWALL',
  'MORE_OFFER',
  'SPLASH_AD',
] as const;
export const VIDEO_AD_TYPES = [
  'INTERSTITIAL_VIDEO',
  'NATIVE_VIDEO',
  'INSTREAM_VIDEO',
  'REWARDED_VIDEO',
] as const;
export const AD_TYPES: readonly string[] = [
  ...IMAGE_AD_TYPES,
  ...VIDEO_AD_TYPES,
];

/** Network types (ASSUMED). */
export const NETWORKS = ['2G', '3G', '4G', '5G', 'WIFI'] as const;

/** Tracking methods (ASSUMED, from the vendor's public appendix). */
export const TRACKING_METHODS = [
  'ADJUST',
  'APPSFLYER',
  'KOCHAVA',
  'SINGULAR',
  'MAT',
  'TENJIN',
  'REYUN',
  'TALKING_DATA',
  'S2S',
  'UMENG',
  'ADMASTER',
  'DATAEYE',
  'FOX',
  'PARTYTRACK',
  'ADBRIX',
  'APSALAR',
  'AIRBRIDGE',
  'BRANCH',
] as const;

/** Creative output codes by the kind of creative they show (ASSUMED). */
export const AD_OUTPUTS_BY_TYPE: Record<CreativeType, readonly number[]> = {
  IMAGE: [111, 121, 122, 131, 132],
  VIDEO: [211, 212, 213, 221, 231],
  PLAYABLE: [311],
};
export const AD_OUTPUTS: readonly number[] =
  Object.values(AD_OUTPUTS_BY_TYPE).flat();

/** Delivery time zones: whole and half hours from -12 to +14, plus the :45 zones (ASSUMED). */
export function isTimezone(value: number): boolean {
  if (value < -12 || value > 14) return false;
  return Number.isInteger(value * 2) || [5.75, 8.75, 12.75].includes(value);
}

/** App categories; the iOS and Android lists differ (ASSUMED, after the two stores). */
export const CATEGORIES = {
  ANDROID: [
    'ART_AND_DESIGN',
    'BOOKS_AND_REFERENCE',
    'BUSINESS',
    'COMMUNICATION',
    'EDUCATION',
    'ENTERTAINMENT',
    'FINANCE',
    'GAME_ACTION',
    'GAME_CASUAL',
    'GAME_PUZZLE',
    'GAME_STRATEGY',
    'HEALTH_AND_FITNESS',
    'LIFESTYLE',
    'MUSIC_AND_AUDIO',
    'PHOTOGRAPHY',
    'PRODUCTIVITY',
    'SHOPPING',
    'SOCIAL',
    'TOOLS',
    'TRAVEL_AND_LOCAL',
  ],
  IOS: [
    'Books',
    'Business',
    'Education',
    'Entertainment',
    'Finance',
    'Games',
    'Health & Fitness',
    'Lifestyle',
    'Music',
    'News',
    'Photo & Video',
    'Productivity',
    'Shopping',
    'Social Networking',
    'Travel',
    'Utilities',
  ],
} as const;
export type AppPlatform = keyof typeof CATEGORIES;

/** ISO 3166-1 alpha-2 codes: the geo codes that target_geo and budgets accept. */
export const GEO_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO ' +
    'BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ ' +
    'DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP ' +
    'GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG ' +
    'KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML ' +
    'MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE ' +
    'PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL ' +
    'SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM ' +
    'US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);
