/**
 * Vendor values the API document does not list (section 1: the enumerations of network type,
 * ad display type and tracking method are "not shown"): the values known from the vendor's
 * public appendix (shared/TOOLING.md). They are offered as a column's `suggests`, a dropdown
 * that warns but keeps any other value: the list may be incomplete, so a value outside it is
 * sent as typed and the API decides. local/emulator/enums.ts holds the same values on purpose:
 * the emulator stands in for the vendor and shares no code with the add-on.
 */

/** Ad display types, image then video. */
export const AD_TYPES = [
  'BANNER',
  'DISPLAY_INTERSTITIAL',
  'DISPLAY_NATIVE',
  'APPWALL',
  'MORE_OFFER',
  'SPLASH_AD',
  'INTERSTITIAL_VIDEO',
  'NATIVE_VIDEO',
  'INSTREAM_VIDEO',
  'REWARDED_VIDEO',
] as const;

export const NETWORKS = ['2G', '3G', '4G', '5G', 'WIFI'] as const;

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
