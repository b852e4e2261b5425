/** Delivery fields of an offer creation: targeting, display types, schedule, budget (4.2). */
import {
  FieldErrors,
  isBlank,
  isPlainObject,
  message,
  readCommaList,
  readDecimal,
  readInteger,
  readString,
  type Params,
} from '../checks';
import {
  AD_TYPES,
  DAILY_CAP_TYPES,
  NETWORKS,
  TARGET_DEVICES,
  type BillingType,
  type DailyCapType,
} from '../enums';
import type {Campaign} from '../model';

/** "One digit followed by up to two groups of a dot and one digit", read as one or two digits
 * a group, so that the document's own '99.0.0' and real versions such as '14.2' pass and a
 * three-digit group ('1.100') is refused (see README 39). */
const OS_VERSION = /^\d{1,2}(\.\d{1,2}){0,2}$/;

/**
 * Targeting and display fields, with their defaults: the campaign's min_version (else
 * '0.0.0'), '99.0.0', every device, every network, all hours. target_ad_type is required for
 * the priced billing types; for OCPI the service fills in every display type.
 */
export function readTargeting(
  errors: FieldErrors,
  params: Params,
  billing: BillingType | undefined,
  campaign: Campaign | undefined,
) {
  const osVersion = (field: string) =>
    readString(errors, field, params[field], {pattern: OS_VERSION});
  const choices = (field: string, allowed: readonly string[]) =>
    readCommaList(errors, field, params[field], {
      item: item => allowed.includes(item),
      distinct: true,
    });
  const targeting = {
    os_version_min:
      osVersion('os_version_min') ?? (campaign?.min_version || '0.0.0'),
    os_version_max: osVersion('os_version_max') ?? '99.0.0',
    custom_ad_schedule: readSchedule(errors, params.custom_ad_schedule) ?? {},
    network: choices('network', NETWORKS)?.join(',') ?? '',
    target_ad_type:
      billing === 'OCPI'
        ? AD_TYPES.join(',')
        : // Not required without a known type (an extra one, assumption 34a): blank is ''.
          !billing && isBlank(params.target_ad_type)
          ? ''
          : readAdTypes(errors, params, billing)?.join(','),
    target_device: (
      choices('target_device', TARGET_DEVICES) ?? TARGET_DEVICES
    ).join(','),
  };
  return targeting.target_ad_type === undefined
    ? undefined
    : {...targeting, target_ad_type: targeting.target_ad_type};
}

function readAdTypes(
  errors: FieldErrors,
  params: Params,
  billing: BillingType | undefined,
): string[] | undefined {
  return readCommaList(errors, 'target_ad_type', params.target_ad_type, {
    required:
      billing && message.requiredIf('target_ad_type', 'billing_type', billing),
    item: item => AD_TYPES.includes(item),
    distinct: true,
  });
}

/**
 * daily_cap: BUDGET three decimals and at least 50, CONVERSION an integer of at least 10;
 * total_budget: three decimals, at least 10 with BUDGET (and above 0 with CONVERSION).
 */
export function readBudget(errors: FieldErrors, params: Params) {
  const capType = (readString(errors, 'daily_cap_type', params.daily_cap_type, {
    oneOf: DAILY_CAP_TYPES,
  }) ?? 'BUDGET') as DailyCapType;
  const conversion = capType === 'CONVERSION';
  const dailyCap = conversion
    ? readInteger(errors, 'daily_cap', params.daily_cap, {min: 10})
    : readDecimal(errors, 'daily_cap', params.daily_cap, {
        decimals: 3,
        min: 50,
      });
  const totalBudget = readDecimal(
    errors,
    'total_budget',
    params.total_budget,
    conversion ? {decimals: 3, greaterThan: 0} : {decimals: 3, min: 10},
  );
  return {
    daily_cap_type: capType,
    daily_cap: dailyCap,
    total_budget: totalBudget,
  };
}

/** Keys '1' to '7' (Monday to Sunday); values distinct hours 0-23 separated by commas. It may
 * come as an object or as the JSON text of one (the list returns it as text). */
function readSchedule(
  errors: FieldErrors,
  value: unknown,
): Record<string, string> | undefined {
  if (isBlank(value)) return undefined;
  let schedule = value;
  if (typeof value === 'string') {
    try {
      schedule = JSON.parse(value);
    } catch {
      schedule = undefined;
    }
  }
  if (!isPlainObject(schedule)) {
    return errors.add(
      'custom_ad_schedule',
      message.object('custom_ad_schedule'),
    );
  }
  const result: Record<string, string> = {};
  for (const [day, hours] of Object.entries(schedule)) {
    const field = `custom_ad_schedule.${day}`;
    if (!/^[1-7]$/.test(day)) {
      errors.add(field, `The ${field} key must be a day from 1 to 7.`);
      continue;
    }
    const list = readCommaList(errors, field, hours, {
      required: true,
      item: item => /^(1?\d|2[0-3])$/.test(item),
      distinct: true,
    });
    if (list) result[day] = list.join(',');
  }
  return result;
}
