/**
 * The campaign update rules of API 4.7 (and the limits of part 8), checked before a campaign
 * edit is sent. Only the fields being sent are checked; min_version is checked against the
 * promotion type the campaign will have.
 */
import type {FieldMessages} from './maintain';

/** The fields being sent, as read from the row (text trimmed, null for an empty cell). */
export type CampaignChanges = Partial<Record<CampaignField, unknown>>;

export type CampaignField =
  | 'campaign_name'
  | 'promotion_type'
  | 'is_coppa'
  | 'icon'
  | 'product_name'
  | 'package_name'
  | 'app_size'
  | 'category'
  | 'min_version'
  | 'description';

export const MAX_LENGTH = {
  campaign_name: 100,
  product_name: 100,
  description: 4000,
};
export const MIN_VERSION = /^\d+(\.\d+){0,3}$/;
export const MD5 = /^[0-9a-f]{32}$/i;

export const CAMPAIGN_MESSAGES = {
  empty: (field: string) => `${field} is empty: it cannot be removed`,
  tooLong: (field: string, max: number, length: number) =>
    `${field} may have ${max} characters at most (it has ${length})`,
  promotionType: 'promotion_type must be APP or WEBSITE',
  isCoppa: 'is_coppa must be YES or NO',
  icon: 'icon must be the md5 of an uploaded image: 32 characters 0-9 and a-f',
  appSizeEmpty: 'app_size is empty: give the package size in MB',
  appSizeNumber: 'app_size must be a number of MB',
  appSizeNegative: 'app_size cannot be below 0',
  appSizeDecimals: 'app_size may have two decimals at most',
  minVersionForm:
    'min_version must have the form x, x.x, x.x.x or x.x.x.x, with x digits (e.g. 5.0)',
  minVersionWebsite: 'min_version must be empty for a WEBSITE campaign',
  minVersionApp:
    'min_version is empty: an APP campaign needs one (x, x.x, x.x.x or x.x.x.x)',
};

const text = (value: unknown) =>
  value === null || value === undefined ? '' : String(value);

/**
 * The problems of a campaign edit: `row` holds the campaign's editable fields as the row has
 * them, `changed` the fields being sent. min_version is checked whenever it or promotion_type
 * changes, against the promotion type the campaign will have.
 */
export function checkCampaign(
  row: CampaignChanges,
  changed: readonly CampaignField[],
): FieldMessages {
  const out: FieldMessages = {};
  const sent = (field: CampaignField) => changed.includes(field);
  for (const field of ['campaign_name', 'product_name'] as const) {
    if (sent(field) && text(row[field]) === '')
      out[field] = CAMPAIGN_MESSAGES.empty(field);
  }
  for (const field of [
    'campaign_name',
    'product_name',
    'description',
  ] as const) {
    const length = text(row[field]).length;
    if (sent(field) && length > MAX_LENGTH[field]) {
      out[field] = CAMPAIGN_MESSAGES.tooLong(field, MAX_LENGTH[field], length);
    }
  }
  if (
    sent('promotion_type') &&
    !['APP', 'WEBSITE'].includes(text(row.promotion_type))
  ) {
    out.promotion_type = CAMPAIGN_MESSAGES.promotionType;
  }
  if (sent('is_coppa') && !['YES', 'NO', ''].includes(text(row.is_coppa))) {
    out.is_coppa = CAMPAIGN_MESSAGES.isCoppa;
  }
  if (sent('icon') && text(row.icon) !== '' && !MD5.test(text(row.icon))) {
    out.icon = CAMPAIGN_MESSAGES.icon;
  }
  if (sent('app_size')) {
    const problem = appSizeProblem(row.app_size);
    if (problem) out.app_size = problem;
  }
  if (sent('min_version') || sent('promotion_type')) {
    const problem = minVersionProblem(
      text(row.min_version),
      text(row.promotion_type),
    );
    if (problem) out.min_version = problem;
  }
  return out;
}

function appSizeProblem(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '')
    return CAMPAIGN_MESSAGES.appSizeEmpty;
  if (typeof value !== 'number' || !Number.isFinite(value))
    return CAMPAIGN_MESSAGES.appSizeNumber;
  if (value < 0) return CAMPAIGN_MESSAGES.appSizeNegative;
  const fraction = /\.(\d+)$/.exec(String(value));
  if (fraction && fraction[1].length > 2)
    return CAMPAIGN_MESSAGES.appSizeDecimals;
  return undefined;
}

function minVersionProblem(
  version: string,
  promotionType: string,
): string | undefined {
  if (promotionType === 'WEBSITE') {
    return version === '' ? undefined : CAMPAIGN_MESSAGES.minVersionWebsite;
  }
  if (version === '') return CAMPAIGN_MESSAGES.minVersionApp;
  return MIN_VERSION.test(version)
    ? undefined
    : CAMPAIGN_MESSAGES.minVersionForm;
}
