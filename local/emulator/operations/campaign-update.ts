/** PUT /api/open/v3/campaign (4.7). */
import {FieldErrors, message, readDecimal, readString} from '../checks';
import {CATEGORIES, PROMOTION_TYPES, YES_NO} from '../enums';
import type {Account, Campaign} from '../model';
import {presentCampaignUpdate} from '../present';
import type {OperationContext} from './context';
import {assertEditable, readOwnCampaign} from './ownership';

const MD5 = /^[0-9a-f]{32}$/;
const MIN_VERSION = /^\d+(\.\d+){0,3}$/;
const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const IOS_STORE_ID = /^(id)?\d{6,12}$/;
const ICON_EXTENSIONS = ['jpg', 'png', 'jpeg', 'bmp'];
const ICON_MAX_KB = 5 * 1024;

/**
 * Only the fields sent change. Fields that may be blanked (is_coppa, icon, package_name,
 * category, min_version, description) take '' as a value; the others refuse ''.
 */
export function updateCampaign({account, params}: OperationContext) {
  const campaign = editableCampaign(account, params.campaign_id);
  const errors = new FieldErrors();
  const promotionType = readString(
    errors,
    'promotion_type',
    params.promotion_type,
    {empty: 'refuse', oneOf: PROMOTION_TYPES},
  ) as Campaign['promotion_type'] | undefined;
  const isWebsite = (promotionType ?? campaign.promotion_type) === 'WEBSITE';
  const changes: Partial<Campaign> = {
    campaign_name: readCampaignName(errors, account, campaign, params),
    promotion_type: promotionType,
    is_coppa: readString(errors, 'is_coppa', params.is_coppa, {
      empty: 'keep',
      oneOf: YES_NO,
    }) as Campaign['is_coppa'] | undefined,
    icon: readIcon(errors, account, params.icon),
    product_name: readString(errors, 'product_name', params.product_name, {
      empty: 'refuse',
      maxLength: 100,
    }),
    package_name: readPackageName(
      errors,
      campaign,
      params.package_name,
      isWebsite,
    ),
    app_size: readDecimal(errors, 'app_size', params.app_size, {
      min: 0,
      decimals: 2,
    }),
    category: readString(errors, 'category', params.category, {
      empty: 'keep',
      oneOf:
        campaign.platform === 'ANDROID' || campaign.platform === 'IOS'
          ? CATEGORIES[campaign.platform]
          : [...CATEGORIES.ANDROID, ...CATEGORIES.IOS],
    }),
    min_version: readMinVersion(errors, params.min_version, isWebsite),
    description: readString(errors, 'description', params.description, {
      empty: 'keep',
      maxLength: 4000,
    }),
  };
  errors.throwIfAny();
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined) Object.assign(campaign, {[field]: value});
  }
  return presentCampaignUpdate(campaign);
}

function editableCampaign(account: Account, value: unknown): Campaign {
  const errors = new FieldErrors();
  const campaign = readOwnCampaign(errors, account, value);
  errors.throwIfAny();
  assertEditable(campaign!);
  return campaign!;
}

function readCampaignName(
  errors: FieldErrors,
  account: Account,
  campaign: Campaign,
  params: OperationContext['params'],
): string | undefined {
  const name = readString(errors, 'campaign_name', params.campaign_name, {
    empty: 'refuse',
    maxLength: 100,
  });
  if (name === undefined) return undefined;
  const taken = [...account.campaigns.values()].some(
    other =>
      other !== campaign &&
      other.campaign_name.toLowerCase() === name.toLowerCase(),
  );
  return taken
    ? errors.add('campaign_name', message.unique('campaign_name'))
    : name;
}

/** The icon is an uploaded jpg/png/bmp material of 512x512 pixels, at most 5 MB. */
function readIcon(
  errors: FieldErrors,
  account: Account,
  value: unknown,
): string | undefined {
  const md5 = readString(errors, 'icon', value, {empty: 'keep', pattern: MD5});
  if (!md5) return md5;
  const material = account.materials.get(md5);
  if (!material) return errors.add('icon', message.invalid('icon'));
  if (
    material.creative_type !== 'IMAGE' ||
    !ICON_EXTENSIONS.includes(material.extension)
  ) {
    return errors.add(
      'icon',
      `The icon must be a file of type: ${ICON_EXTENSIONS.join(', ')}.`,
    );
  }
  if (material.resolution !== '512x512') {
    return errors.add('icon', 'The icon must be a 512x512 image.');
  }
  if (material.size > ICON_MAX_KB) {
    return errors.add(
      'icon',
      `The icon may not be greater than ${ICON_MAX_KB} kilobytes.`,
    );
  }
  return md5;
}

/** An Android bundle id or an iOS store id after the platform; required for an APP. */
function readPackageName(
  errors: FieldErrors,
  campaign: Campaign,
  value: unknown,
  isWebsite: boolean,
): string | undefined {
  const patterns = {ANDROID: [ANDROID_PACKAGE], IOS: [IOS_STORE_ID]};
  const allowed = patterns[campaign.platform as keyof typeof patterns] ?? [
    ANDROID_PACKAGE,
    IOS_STORE_ID,
  ];
  const name = readString(errors, 'package_name', value, {empty: 'keep'});
  if (name === undefined || (name === '' && isWebsite)) return name;
  if (name === '')
    return errors.add('package_name', message.filled('package_name'));
  return allowed.some(pattern => pattern.test(name))
    ? name
    : errors.add('package_name', message.format('package_name'));
}

/** x, x.x, x.x.x or x.x.x.x for an APP; empty for a WEBSITE. */
function readMinVersion(
  errors: FieldErrors,
  value: unknown,
  isWebsite: boolean,
): string | undefined {
  const version = readString(errors, 'min_version', value, {
    empty: 'keep',
    pattern: MIN_VERSION,
  });
  if (version === undefined) return undefined;
  if (isWebsite && version !== '') {
    return errors.add(
      'min_version',
      'The min_version must be empty for a WEBSITE campaign.',
    );
  }
  if (!isWebsite && version === '') {
    return errors.add('min_version', message.filled('min_version'));
  }
  return version;
}
