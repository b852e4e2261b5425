/**
 * PUT /api/open/v3/offer/budget (4.5): the groups sent replace the offer's whole budget. The
 * request-shape failures are 10000 answers; budget rule failures are 11423 'budget is error!'
 * answers naming the first broken rule, with the texts of section 7.
 */
import {
  decimalPlaces,
  FieldErrors,
  isBlank,
  isPlainObject,
  toNumber,
} from '../checks';
import {ApiError, CODE} from '../envelope';
import {DAILY_CAP_TYPES, type DailyCapType} from '../enums';
import type {BudgetGroup, Offer} from '../model';
import type {OperationContext} from './context';
import {assertEditable, readOwnOffer} from './ownership';

export function updateBudget({account, params}: OperationContext) {
  const errors = new FieldErrors();
  const offer = readOwnOffer(errors, account, params.offer_id);
  const groups = readBudgetJson(errors, params.budget);
  errors.throwIfAny();
  assertEditable(offer!);
  offer!.budget = checkGroups(offer!, groups!);
  return {};
}

/** budget comes as an array of groups or as the JSON text of one. */
function readBudgetJson(
  errors: FieldErrors,
  value: unknown,
): unknown[] | undefined {
  if (isBlank(value))
    return errors.add('budget', 'The budget field is required.');
  let groups = value;
  if (typeof value === 'string') {
    try {
      groups = JSON.parse(value);
    } catch {
      groups = undefined;
    }
  }
  if (!Array.isArray(groups)) {
    return errors.add('budget', 'budget is not json string!');
  }
  return groups.length > 0
    ? groups
    : errors.add('budget', 'The budget field is required.');
}

function budgetError(field: string, text: string): ApiError {
  return new ApiError(CODE.BUDGET, 'budget is error!', {[field]: text});
}

function checkGroups(offer: Offer, groups: unknown[]): BudgetGroup[] {
  const codes = groups.map(group => {
    if (!isPlainObject(group)) {
      throw budgetError('budget', 'every budget group must be a JSON object!');
    }
    if (typeof group.country_code !== 'string' || group.country_code === '') {
      throw budgetError('country_code', 'country_code is empty!');
    }
    return group.country_code;
  });
  const allCount = codes.filter(code => code === 'ALL').length;
  if (allCount > 0 && allCount < codes.length) {
    throw budgetError(
      'country_code',
      'you can only set ALL budget or special budget!',
    );
  }
  if (allCount > 1) {
    throw budgetError('country_code', 'ALL budget can only be set once!');
  }
  const perGeo = allCount === 0;
  if (perGeo) checkGeos(offer, codes);
  const budget = groups.map((group, i) =>
    readGroup(group as Record<string, unknown>, codes[i]),
  );
  if (perGeo) checkCoverage(offer, codes);
  return budget;
}

/** Per-geo groups may only use the offer's delivery geos; an ALL offer takes an ALL budget. */
function checkGeos(offer: Offer, codes: string[]): void {
  const allowed = offer.target_geo.split(',');
  for (const geo of codes.flatMap(code => code.split(','))) {
    if (geo === 'ALL' || !allowed.includes(geo)) {
      throw budgetError(
        'country_code',
        `${geo || "''"} cannot set a budget on this offer; ` +
          `allowed geos: ${offer.target_geo}`,
      );
    }
  }
}

/** Every delivery geo is budgeted exactly once. */
function checkCoverage(offer: Offer, codes: string[]): void {
  const geos = codes.flatMap(code => code.split(','));
  const repeated = [
    ...new Set(geos.filter((geo, i) => geos.indexOf(geo) !== i)),
  ];
  if (repeated.length > 0) {
    throw budgetError(
      'budget',
      `each delivery geo takes one budget; set more than once: ${repeated.join(',')}`,
    );
  }
  const missing = offer.target_geo
    .split(',')
    .filter(geo => !geos.includes(geo));
  if (missing.length > 0) {
    throw budgetError(
      'budget',
      `every delivery geo needs a budget; missing: ${missing.join(',')}`,
    );
  }
}

function readGroup(group: Record<string, unknown>, code: string): BudgetGroup {
  const capType = group.daily_cap_type;
  if (!(DAILY_CAP_TYPES as readonly unknown[]).includes(capType)) {
    throw budgetError(
      'daily_cap_type',
      'daily_cap_type must be BUDGET or CONVERSION!',
    );
  }
  if (isBlank(group.daily_cap)) {
    throw budgetError('daily_cap', 'daily_cap is empty!');
  }
  if (isBlank(group.total_budget)) {
    throw budgetError('total_budget', 'total_budget is empty!');
  }
  return {
    target_geo: code,
    daily_cap_type: capType as DailyCapType,
    daily_cap: readDailyCap(group.daily_cap, capType === 'CONVERSION'),
    total_budget: readTotalBudget(group.total_budget),
  };
}

/** 'OPEN' or a number of at least 50 (an integer for CONVERSION, three decimals at most). */
function readDailyCap(value: unknown, conversion: boolean): string {
  if (value === 'OPEN') return value;
  const cap = toNumber(value);
  if (cap === undefined || cap < 50) {
    throw budgetError('daily_cap', 'daily_cap cannot less than 50!');
  }
  if (conversion && !Number.isInteger(cap)) {
    throw budgetError(
      'daily_cap',
      'daily_cap must be an integer when daily_cap_type is CONVERSION!',
    );
  }
  checkDecimals('daily_cap', value as number | string);
  return String(cap);
}

/** 'OPEN' or a number above 0 with three decimals at most. */
function readTotalBudget(value: unknown): string {
  if (value === 'OPEN') return value;
  const total = toNumber(value);
  if (total === undefined || total <= 0) {
    throw budgetError(
      'total_budget',
      'total_budget must be OPEN or a number greater than 0!',
    );
  }
  checkDecimals('total_budget', value as number | string);
  return String(total);
}

function checkDecimals(field: string, value: number | string): void {
  if (decimalPlaces(value) > 3) {
    throw budgetError(
      field,
      `${field} may not have more than 3 decimal places!`,
    );
  }
}
