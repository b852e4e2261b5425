/** The rules of an offer creation (4.2 and part 8), turning a request into a checked draft. */
import {
  FieldErrors,
  isBlank,
  message,
  readCommaList,
  readDecimal,
  readInteger,
  readString,
  type Params,
} from '../checks';
import {permissionDenied} from '../envelope';
import {
  AUTOMATIC_BID_GOAL,
  BILLING_TYPES,
  DELIVERABLE_CAMPAIGN_STATUS,
  GEO_CODES,
  isTimezone,
  type BillingType,
} from '../enums';
import type {Account, Campaign} from '../model';
import type {Store} from '../store';
import {readCreativeSets, type CreativeSetDraft} from './creative-set-rules';
import {readBudget, readTargeting} from './delivery-rules';
import {readOptimisation} from './optimisation-rules';

type PricedBillingType = Exclude<BillingType, 'OCPI'>;

export type OfferDraft = {
  campaign: Campaign;
  offer_name: string;
  promote_timezone: number;
  start_time: number;
  end_time: number;
  target_geo: string;
  /** One of the five, or an extra type (assumption 34a). */
  bid_type: string;
  bid_goal: string;
  target_agg_event: string[];
  target_original_event: string;
  target_goal_window: string;
  target_goal: number;
  target_goal_by_geo: {geo: string; target_goal: number}[];
  /** 0 for OCPI, which takes no bid_rate, and for an extra type sent without one. */
  bid_rate: number;
  settlement_event: string;
  creative_sets: CreativeSetDraft[];
} & ReturnType<typeof readBudget> &
  NonNullable<ReturnType<typeof readTargeting>>;

const EARLIEST_START_TIME = 946656000;
/** Letters, digits and underscore: offer_name and settlement_event. */
const WORD = /^[A-Za-z0-9_]+$/;
const BID_RATE_MINIMUM: Record<PricedBillingType, number> = {
  CPI: 0.01,
  CPE: 0.01,
  CPM: 0.01,
  CPC: 0.001,
};

/**
 * Checks a creation request. A billing type the account lacks is refused first, with
 * 'Permission denied', whatever else is wrong; every other failure is collected into one 10000
 * answer that names each failing field. Unmarked fields of 4.2 are required. `extraTypes` are
 * billing types beyond the five: open to every account, with no pricing field required
 * (assumption 34a).
 */
export function readOfferDraft(
  store: Store,
  account: Account,
  params: Params,
  extraTypes: readonly string[] = [],
): OfferDraft {
  const errors = new FieldErrors();
  const read = readBillingType(errors, params, extraTypes);
  const extra = read !== undefined && extraTypes.includes(read);
  // Past here `billing` is one of the five or undefined: an extra type requires nothing.
  const billing = extra ? undefined : (read as BillingType | undefined);
  if (billing && !account.permissions.includes(billing)) {
    throw permissionDenied(
      'billing_type',
      `This account may not create ${billing} offers.`,
    );
  }
  const campaign = readCampaign(errors, account, params.campaign_id);
  const offerName = readOfferName(errors, store, account, params.offer_name);
  const timezone = readTimezone(errors, params.promote_timezone);
  const times = readTimes(errors, params);
  const geos = readTargetGeo(errors, params.target_geo);
  const goal =
    billing === 'OCPI' ? readOptimisation(errors, params, geos) : undefined;
  const bidRate = readBidRate(errors, params, billing);
  const budget = readBudget(errors, params);
  const settlementEvent =
    billing === 'CPE' ? readSettlementEvent(errors, params) : '';
  const targeting = readTargeting(errors, params, billing, campaign);
  const creativeSets = readCreativeSets(
    errors,
    account,
    params.creative_sets,
    geos,
  );
  errors.throwIfAny();
  return {
    campaign: campaign!,
    offer_name: offerName!,
    promote_timezone: timezone!,
    ...times!,
    target_geo: geos!.join(','),
    bid_type: read!,
    bid_goal: extra
      ? ''
      : (goal?.bid_goal ?? AUTOMATIC_BID_GOAL[billing as PricedBillingType]),
    target_agg_event: goal?.target_agg_event ?? [],
    target_original_event: goal?.target_original_event ?? '',
    target_goal_window: goal?.target_goal_window ?? '',
    target_goal: goal?.target_goal ?? 0,
    target_goal_by_geo: goal?.target_goal_by_geo ?? [],
    // Blank is accepted only for an extra type (assumption 34a): it shows as 0, like OCPI.
    bid_rate: bidRate ?? 0,
    ...budget,
    settlement_event: settlementEvent!,
    ...targeting!,
    creative_sets: creativeSets!,
  };
}

/** billing_type, else bid_type; when both are sent billing_type wins. */
function readBillingType(
  errors: FieldErrors,
  params: Params,
  extraTypes: readonly string[],
): string | undefined {
  const field =
    isBlank(params.billing_type) && !isBlank(params.bid_type)
      ? 'bid_type'
      : 'billing_type';
  if (isBlank(params[field])) {
    return errors.add(
      'billing_type',
      message.requiredWithout('billing_type', 'bid_type'),
    );
  }
  return readString(errors, field, params[field], {
    oneOf: [...BILLING_TYPES, ...extraTypes],
  });
}

/** The caller's own campaign, and a deliverable one (status RUNNING). */
function readCampaign(
  errors: FieldErrors,
  account: Account,
  value: unknown,
): Campaign | undefined {
  const campaignId = readInteger(errors, 'campaign_id', value, {
    required: true,
  });
  if (campaignId === undefined) return undefined;
  const campaign = account.campaigns.get(campaignId);
  if (!campaign) {
    return errors.add('campaign_id', message.invalid('campaign_id'));
  }
  if (campaign.status !== DELIVERABLE_CAMPAIGN_STATUS) {
    return errors.add(
      'campaign_id',
      `The campaign ${campaignId} is not deliverable (status ${campaign.status}).`,
    );
  }
  return campaign;
}

/** Unique within the account, ignoring case. */
function readOfferName(
  errors: FieldErrors,
  store: Store,
  account: Account,
  value: unknown,
): string | undefined {
  const name = readString(errors, 'offer_name', value, {
    required: true,
    length: [3, 95],
    pattern: WORD,
  });
  if (name === undefined) return undefined;
  return store.offerIdByName(account.accountId, name) === undefined
    ? name
    : errors.add('offer_name', message.unique('offer_name'));
}

function readTimezone(errors: FieldErrors, value: unknown) {
  const field = 'promote_timezone';
  const timezone = readDecimal(errors, field, value, {required: true});
  if (timezone === undefined || isTimezone(timezone)) return timezone;
  return errors.add(field, message.invalid(field));
}

/** start_time from 946656000; end_time 0 (none) or later than start_time. */
function readTimes(errors: FieldErrors, params: Params) {
  const start = readInteger(errors, 'start_time', params.start_time, {
    required: true,
    min: EARLIEST_START_TIME,
  });
  const end = readInteger(errors, 'end_time', params.end_time, {min: 0}) ?? 0;
  if (start !== undefined && end !== 0 && end <= start) {
    return errors.add(
      'end_time',
      message.greaterThan('end_time', 'start_time'),
    );
  }
  return start === undefined ? undefined : {start_time: start, end_time: end};
}

/** 'ALL', or distinct ISO country codes separated by commas without spaces. */
function readTargetGeo(
  errors: FieldErrors,
  value: unknown,
): string[] | undefined {
  if (value === 'ALL') return ['ALL'];
  return readCommaList(errors, 'target_geo', value, {
    required: true,
    item: item => GEO_CODES.has(item),
    distinct: true,
  });
}

/** Required for the priced billing types, three decimals, at least 0.01 (CPC 0.001); OCPI
 * must not send one. */
function readBidRate(
  errors: FieldErrors,
  params: Params,
  billing: BillingType | undefined,
): number | undefined {
  if (billing === 'OCPI') {
    if (isBlank(params.bid_rate)) return 0;
    return errors.add(
      'bid_rate',
      message.prohibited('bid_rate', 'billing_type', 'OCPI'),
    );
  }
  return readDecimal(errors, 'bid_rate', params.bid_rate, {
    required:
      billing && message.requiredIf('bid_rate', 'billing_type', billing),
    decimals: 3,
    min: billing ? BID_RATE_MINIMUM[billing] : 0.001,
  });
}

/** Required for CPE (ignored for the others): 3-50 letters, digits and underscores. */
function readSettlementEvent(errors: FieldErrors, params: Params) {
  return readString(errors, 'settlement_event', params.settlement_event, {
    required: message.requiredIf('settlement_event', 'billing_type', 'CPE'),
    length: [3, 50],
    pattern: WORD,
  });
}
