/**
 * What a clone of an offer takes where the source does not say it for the target (DESIGN 4.6):
 * its name, caps, price and bid goal. Pure: each answers the value and, where it had to choose,
 * the sentence its New Offers row says.
 */
import type {OfferBudget} from '../api/types';
import {excerpt} from './values';

/** 4.2: offer_name is letters, digits and underscore, 3 to 95 characters. */
export const OFFER_NAME_MAX = 95;
const OFFER_NAME = /^[A-Za-z0-9_]{3,95}$/;
export const DEFAULT_CLONE_NAME = '{offer_name}_{geo}';
const PLACEHOLDERS = ['offer_name', 'geo', 'account', 'offer_id'] as const;

/** What a name pattern fills its placeholders from. */
export interface NameParts {
  offer_name: string;
  /** The target's geos joined by '_' (US_GB), or ALL. */
  geo: string;
  /** The target's account, '' for the main account (then `main`). */
  account: string;
  offer_id: number;
}

/** Why a pattern cannot make offer names, or undefined. */
export function namePatternProblem(pattern: string): string | undefined {
  const unknown = [...pattern.matchAll(/\{([^}]*)\}/g)]
    .map(m => m[1])
    .find(p => !(PLACEHOLDERS as readonly string[]).includes(p));
  if (unknown !== undefined) {
    return `the name pattern ${excerpt(pattern)} has {${unknown}}, which is not one of ${PLACEHOLDERS.map(p => `{${p}}`).join(', ')}`;
  }
  const literal = pattern.replace(/\{[^}]*\}/g, '');
  if (!/^[A-Za-z0-9_]*$/.test(literal)) {
    return `the name pattern ${excerpt(pattern)} has characters other than letters, digits and underscores outside its placeholders: offer names may hold only those (4.2)`;
  }
  if (!pattern.includes('{')) {
    return `the name pattern ${excerpt(pattern)} has no placeholder: every clone would have the same name`;
  }
  return undefined;
}

/** The name a pattern gives; a problem where it is no offer name the API takes. */
export function cloneName(
  pattern: string,
  parts: NameParts,
): {name: string} | {problem: string} {
  const name = pattern.replace(/\{([a-z_]+)\}/g, (_, key: string) =>
    key === 'account'
      ? parts.account || 'main'
      : String(parts[key as keyof NameParts]),
  );
  if (OFFER_NAME.test(name)) return {name};
  return {
    problem: `the name pattern gives ${excerpt(name)}, which is no offer_name: letters, digits and underscores, 3 to ${OFFER_NAME_MAX} characters (4.2)`,
  };
}

/** `name`, or `name_2`, `name_3`… (cut to fit 95 characters): the first that is not taken. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  const free = (n: string) => !taken.has(n.toLowerCase());
  if (free(name)) return name;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = name.slice(0, OFFER_NAME_MAX - suffix.length) + suffix;
    if (free(candidate)) return candidate;
  }
}

/** The caps a clone takes, and the row's sentence on where they came from. */
export interface ClonedCaps {
  daily_cap_type: string | null;
  daily_cap: string | number | null;
  total_budget: string | number | null;
  note: string;
}

const geosOf = (group: OfferBudget) =>
  String(group.target_geo ?? '')
    .split(',')
    .map(g => g.trim().toUpperCase())
    .filter(Boolean);

/**
 * The source's budget group that covers every target geo, else its ALL group, else none (the
 * caps are then left empty, which the budget guard holds as no limit).
 */
export function capsFor(
  budget: readonly OfferBudget[],
  targetGeos: readonly string[],
): ClonedCaps {
  const covering = budget.find(group => {
    const geos = geosOf(group);
    return !geos.includes('ALL') && targetGeos.every(geo => geos.includes(geo));
  });
  const all = budget.find(group => geosOf(group).includes('ALL'));
  const group = covering ?? all;
  if (!group) {
    return {
      daily_cap_type: null,
      daily_cap: null,
      total_budget: null,
      note:
        budget.length === 0
          ? 'caps left empty: the source has no budget'
          : `caps left empty: no budget group of the source covers ${targetGeos.join(',')} and it has no ALL group (type daily_cap and total_budget)`,
    };
  }
  return {
    daily_cap_type: group.daily_cap_type || null,
    daily_cap: group.daily_cap ?? null,
    total_budget: group.total_budget ?? null,
    note: `caps from the source's budget group ${geosOf(group).join(',')}`,
  };
}

/** A price per geo (2.3 bid_rate_by_location). */
export interface GeoPrice {
  country_code: string;
  bid_rate: string | number;
}

/**
 * The target geos' own price where the source has one for each and they agree; else the
 * source's fallback bid_rate, said where some geo had its own.
 */
export function bidRateFor(
  fallback: number | null,
  byLocation: readonly GeoPrice[],
  targetGeos: readonly string[],
): {bid_rate: number | null; note?: string} {
  const prices = targetGeos.map(geo =>
    byLocation.find(p => String(p.country_code).toUpperCase() === geo),
  );
  const known = prices.filter((p): p is GeoPrice => p !== undefined);
  const values = [...new Set(known.map(p => Number(p.bid_rate)))];
  if (known.length === targetGeos.length && values.length === 1) {
    return {
      bid_rate: values[0],
      note: `bid_rate the source's price for ${targetGeos.join(',')}`,
    };
  }
  if (known.length === 0) return {bid_rate: fallback};
  return {
    bid_rate: fallback,
    note: `bid_rate the source's fallback price: its prices per geo differ for ${targetGeos.join(',')}, and a new offer has one price (4.2)`,
  };
}

/**
 * The bid_goal of an OCPI source, which the offers list does not return (2.3): Target-CPE
 * where it has an original event (returned only for Target-CPE), else Target-ROAS where it has
 * optimisation targets (returned only for Target-ROAS and Target-CPE).
 */
export function bidGoalOf(offer: {
  target_original_event?: unknown;
  target_agg_event?: unknown;
}): string | undefined {
  const filled = (v: unknown) =>
    Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== '';
  if (filled(offer.target_original_event)) return 'Target-CPE';
  if (filled(offer.target_agg_event)) return 'Target-ROAS';
  return undefined;
}
