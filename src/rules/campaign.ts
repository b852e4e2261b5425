/**
 * The campaign update rules of API 4.7 (and the limits of part 8), checked before a campaign
 * edit is sent. Only the fields being sent are checked; min_version is checked against the
 * promotion type the campaign will have.
 *
 * Two rules need what the sheets know of the account (KnownAccount): campaign_name is unique
 * (compared ignoring case, as the stricter reading: the document does not say whether case
 * counts), and icon is the md5 of an uploaded 512x512 image of at most 5 MB. A material the
 * Creatives sheet does not list is refused only when that sheet was refreshed as this account:
 * before any refresh the add-on does not know the account's materials, and the API judges.
 */
import type {FieldMessages} from './maintain';
import {excerpt, lengthProblem} from './values';

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
/** 4.7: an icon is 512x512, at most 5 MB (sizes are listed in KB). */
export const ICON_RESOLUTION = '512x512';
export const ICON_MAX_KB = 5 * 1024;

/** Another campaign of the account, as the Campaigns sheet and the last refresh know it. */
export interface OtherCampaign {
  id: string;
  /** Its name as last refreshed ('' when unknown). */
  pulled: string;
  /** Its name as its row has it now. */
  typed: string;
  /** Its sheet row. */
  row: number;
}

/** A material as the Creatives sheet lists it ('' or null where a column is empty). */
export interface KnownMaterial {
  creative_type: string;
  resolution: string;
  size: number | null;
}

export interface KnownAccount {
  others: readonly OtherCampaign[];
  /** By lower-case md5; undefined when Creatives was never refreshed as this account. */
  materials?: ReadonlyMap<string, KnownMaterial>;
}

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
  packageNameApp:
    'package_name is empty: an APP campaign needs its Android bundle id or iOS store id',
  packageNameSpace:
    'package_name cannot hold spaces: it is an Android bundle id (com.example.app) or an iOS store id (123456789)',
  nameTaken: (name: string, id: string) =>
    `campaign_name ${excerpt(name)} is already used by campaign ${id}: campaign names are unique in the account (ignoring case)`,
  nameTwice: (name: string, id: string, row: number) =>
    `campaign_name ${excerpt(name)} is also given to campaign ${id} (Campaigns row ${row}) in this push: campaign names are unique in the account (ignoring case)`,
  iconUnknown:
    'icon is not among your materials (Creatives, as last refreshed): refresh Creatives, or upload the image first',
  iconType: (type: string) =>
    `icon must be an IMAGE material (Creatives lists it as ${excerpt(type, false)})`,
  iconResolution: (resolution: string) =>
    `icon must be a ${ICON_RESOLUTION} image (Creatives lists it as ${excerpt(resolution, false)})`,
  iconSize: (kb: number) =>
    `icon must be at most 5 MB (Creatives lists it as ${kb} KB)`,
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
  known: KnownAccount = {others: []},
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
  if (sent('icon') && text(row.icon) !== '') {
    const problem = MD5.test(text(row.icon))
      ? iconProblem(text(row.icon), known.materials)
      : CAMPAIGN_MESSAGES.icon;
    if (problem) out.icon = problem;
  }
  if (sent('campaign_name') && !out.campaign_name) {
    const problem = nameProblem(text(row.campaign_name), known.others);
    if (problem) out.campaign_name = problem;
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
  if (sent('package_name') || sent('promotion_type')) {
    const problem = packageNameProblem(
      text(row.package_name),
      text(row.promotion_type),
      sent('package_name'),
    );
    if (problem) out.package_name = problem;
  }
  for (const field of changed) {
    const problem = out[field] ? undefined : lengthProblem(field, row[field]);
    if (problem) out[field] = problem;
  }
  return out;
}

/** Another campaign holding the name, as last refreshed or as typed in its row. */
function nameProblem(
  name: string,
  others: readonly OtherCampaign[],
): string | undefined {
  const same = (other: string) =>
    other !== '' && other.toLowerCase() === name.toLowerCase();
  const twice = others.find(o => same(o.typed) && o.typed !== o.pulled);
  if (twice) return CAMPAIGN_MESSAGES.nameTwice(name, twice.id, twice.row);
  const taken = others.find(o => same(o.pulled) || same(o.typed));
  return taken ? CAMPAIGN_MESSAGES.nameTaken(name, taken.id) : undefined;
}

/**
 * What the Creatives sheet says against an icon md5. A column it leaves empty (a material
 * uploaded here and not refreshed since) is not held against it.
 */
function iconProblem(
  md5: string,
  materials: KnownAccount['materials'],
): string | undefined {
  if (!materials) return undefined;
  const material = materials.get(md5.toLowerCase());
  if (!material) return CAMPAIGN_MESSAGES.iconUnknown;
  const {creative_type: type, resolution, size} = material;
  if (type !== '' && type.toUpperCase() !== 'IMAGE')
    return CAMPAIGN_MESSAGES.iconType(type);
  if (resolution !== '' && resolution !== ICON_RESOLUTION)
    return CAMPAIGN_MESSAGES.iconResolution(resolution);
  if (size !== null && size > ICON_MAX_KB)
    return CAMPAIGN_MESSAGES.iconSize(size);
  return undefined;
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

/**
 * 2.2: the package of an app product. Its form is not shown, but an id never holds spaces
 * (judged only where it is sent: the server's own value is not held against a type change).
 */
function packageNameProblem(
  name: string,
  promotionType: string,
  typed: boolean,
): string | undefined {
  if (typed && /\s/.test(name)) return CAMPAIGN_MESSAGES.packageNameSpace;
  if (name === '' && promotionType === 'APP')
    return CAMPAIGN_MESSAGES.packageNameApp;
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
