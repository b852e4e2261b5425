/**
 * The budget rules of API 4.5 and 7, checked before a budget is sent. Each message is the
 * add-on's own plain English, never the API's wording (whose messages these checks spare the
 * user): a row shows it after its field's name (`daily_cap: at least 50`). A field whose cell
 * could not be read at all arrives as undefined: its problem is told by the reader, not again.
 */
import type {FieldMessages} from './maintain';
import {excerpt} from './values';

export type BudgetAmount = number | 'OPEN';

/** One budget group as a Budgets row gives it; null is an empty cell. */
export interface BudgetGroupInput {
  /** 'ALL' or comma-separated geo codes (upper case). */
  country_code: string | null | undefined;
  daily_cap_type: string | null | undefined;
  daily_cap: BudgetAmount | null | undefined;
  total_budget: BudgetAmount | null | undefined;
}

export interface BudgetVerdict {
  /** Problems of each group, in the order given ({} when it is fine). */
  groups: FieldMessages[];
  /** Problems of the budget as a whole. */
  budget: FieldMessages;
}

export const DAILY_CAP_MIN = 50;
export const MAX_DECIMALS = 3;

export const BUDGET_MESSAGES = {
  required: 'the offer needs at least one budget row',
  mixed: 'either one ALL budget or budgets per geo, not both',
  dailyCapType: 'must be BUDGET or CONVERSION',
  dailyCapEmpty: 'is empty: write a number of at least 50, or OPEN',
  totalBudgetEmpty: 'is empty: write a number, or OPEN',
  dailyCapMin: `at least ${DAILY_CAP_MIN}`,
  totalBudgetPositive: 'must be greater than 0, or OPEN for no limit',
  countryCodeEmpty: 'is empty: write ALL or geo codes of the offer',
  allTwice: 'ALL is in more than one group: an offer has a single ALL budget',
  conversionWhole:
    'daily_cap must be a whole number when daily_cap_type is CONVERSION',
  decimals: (field: string) =>
    `${field} may have ${MAX_DECIMALS} decimals at most`,
  notDelivered: (geo: string, allowed: string) =>
    `${excerpt(geo, false)} cannot take a budget: it is not a delivery geo of the offer (allowed geos: ${allowed})`,
  deliversAll: (geo: string) =>
    `${excerpt(geo, false)} cannot take a budget: the offer delivers to ALL geos, so its budget is one ALL group`,
  twice: (geos: string) =>
    `${excerpt(geos, false)} is in more than one group: each delivery geo takes one budget`,
  missing: (geos: string) =>
    `delivery geos without a budget: ${geos}: per-geo budgets must cover every delivery geo once`,
};

/** The problems of an offer's budget (its groups) for its delivery geos (target_geo). */
export function checkBudget(
  groups: readonly BudgetGroupInput[],
  deliveryGeos: string,
): BudgetVerdict {
  const verdict: BudgetVerdict = {groups: groups.map(() => ({})), budget: {}};
  if (groups.length === 0) {
    verdict.budget.budget = BUDGET_MESSAGES.required;
    return verdict;
  }
  groups.forEach((group, i) => checkGroup(group, verdict.groups[i]));
  checkGeos(groups, geoList(deliveryGeos), verdict);
  return verdict;
}

export function isRefused(verdict: BudgetVerdict): boolean {
  return (
    Object.keys(verdict.budget).length > 0 ||
    verdict.groups.some(g => Object.keys(g).length > 0)
  );
}

function checkGroup(group: BudgetGroupInput, out: FieldMessages): void {
  if (group.country_code === null)
    out.country_code = BUDGET_MESSAGES.countryCodeEmpty;
  const type = group.daily_cap_type;
  if (type !== undefined && type !== 'BUDGET' && type !== 'CONVERSION') {
    out.daily_cap_type = BUDGET_MESSAGES.dailyCapType;
  }
  const cap = group.daily_cap;
  if (cap === null) {
    out.daily_cap = BUDGET_MESSAGES.dailyCapEmpty;
  } else if (typeof cap === 'number') {
    if (cap < DAILY_CAP_MIN) out.daily_cap = BUDGET_MESSAGES.dailyCapMin;
    else if (type === 'CONVERSION' && !Number.isInteger(cap)) {
      out.daily_cap = BUDGET_MESSAGES.conversionWhole;
    } else if (decimals(cap) > MAX_DECIMALS) {
      out.daily_cap = BUDGET_MESSAGES.decimals('daily_cap');
    }
  }
  const total = group.total_budget;
  if (total === null) {
    out.total_budget = BUDGET_MESSAGES.totalBudgetEmpty;
  } else if (typeof total === 'number' && total <= 0) {
    // Not stated in 4.5, but a budget of nothing or less is no budget: 4.2 asks at least 10
    // (BUDGET) or more than 0 (CONVERSION, as the emulator reads it), and so does this.
    out.total_budget = BUDGET_MESSAGES.totalBudgetPositive;
  } else if (typeof total === 'number' && decimals(total) > MAX_DECIMALS) {
    out.total_budget = BUDGET_MESSAGES.decimals('total_budget');
  }
}

/** Rules 1 and 2 of 4.5: one kind of budget; per-geo groups partition the delivery geos. */
function checkGeos(
  groups: readonly BudgetGroupInput[],
  delivery: string[],
  verdict: BudgetVerdict,
): void {
  const codes = groups.map(g =>
    typeof g.country_code === 'string' ? geoList(g.country_code) : [],
  );
  const withAll = codes.filter(c => c.includes('ALL')).length;
  if (withAll > 0) {
    const message = codes.every(c => c.length === 1 && c[0] === 'ALL')
      ? BUDGET_MESSAGES.allTwice
      : BUDGET_MESSAGES.mixed;
    if (withAll === 1 && groups.length === 1 && codes[0].length === 1) return;
    verdict.groups.forEach((out, i) => {
      if (codes[i].length > 0) out.country_code ??= message;
    });
    return;
  }
  const everywhere = delivery.length === 1 && delivery[0] === 'ALL';
  const seen = new Map<string, number>();
  codes.forEach((geos, i) => {
    for (const geo of geos) {
      seen.set(geo, (seen.get(geo) ?? 0) + 1);
      if (everywhere)
        verdict.groups[i].country_code ??= BUDGET_MESSAGES.deliversAll(geo);
      else if (!delivery.includes(geo)) {
        verdict.groups[i].country_code ??= BUDGET_MESSAGES.notDelivered(
          geo,
          delivery.join(','),
        );
      }
    }
  });
  if (everywhere) return;
  codes.forEach((geos, i) => {
    const twice = geos.filter(geo => seen.get(geo)! > 1);
    if (twice.length > 0) {
      verdict.groups[i].country_code ??= BUDGET_MESSAGES.twice(
        [...new Set(twice)].join(','),
      );
    }
  });
  const missing = delivery.filter(geo => !seen.has(geo));
  if (
    missing.length > 0 &&
    groups.every(g => typeof g.country_code === 'string')
  ) {
    verdict.budget.budget = BUDGET_MESSAGES.missing(missing.join(','));
  }
}

function geoList(text: string): string[] {
  return text
    .split(',')
    .map(geo => geo.trim().toUpperCase())
    .filter(geo => geo !== '');
}

/** Decimal places of a number as JavaScript writes it: 50.125 has three. */
function decimals(value: number): number {
  const match = /^-?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(value));
  if (!match) return 0;
  return Math.max(0, (match[1]?.length ?? 0) - Number(match[2] ?? 0));
}
