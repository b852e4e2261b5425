/**
 * The budget guard (issues 21, 26): which budget changes wait for a yes before they are sent.
 * A fat-finger fill-down (a daily cap of 500 become 50,000, a cap set to OPEN) is legal for the
 * API, so no rule of rules/budget.ts refuses it; the guard holds it instead, per the user's
 * settings.
 *
 * It judges what the offer gets, not its groups: each group has a cap of its own, so an offer
 * gets the sum of its groups. Per offer (one currency) it sums, before and after, the daily
 * caps of each daily_cap_type (BUDGET is money, CONVERSION counts conversions: never added
 * together) and the total_budgets; OPEN anywhere in a sum makes it unlimited. A change is held
 * where one of these totals
 * - rises to more than `factor` times what it was (splitting ALL 100 into four copies of 100
 *   is 4×; regrouping four groups of 50 into two of 500 is 5×);
 * - becomes OPEN (unlimited) from a number;
 * - falls below its value divided by `cutFactor`, or to 0 (issue 36: "500.000" typed in an
 *   en-US sheet is 500, a 60% cut; a cut that starves delivery costs as much as an overspend);
 * - rises past the ceiling of the offer's currency, for the BUDGET daily cap. A total the offer
 *   did not have before (no group of that daily_cap_type: a CONVERSION cap of 5,000 retyped
 *   BUDGET) has nothing to be compared with but the ceiling: a number whose meaning changed is
 *   a new number.
 */
import type {BudgetAmount, BudgetGroupInput} from './budget';

export interface GuardSettings {
  /** false: nothing is held. */
  holding: boolean;
  /** A raise to more than this many times the value on the server is held. */
  factor: number;
  /** A cut to less than the value on the server divided by this is held; a cut to 0 always. */
  cutFactor: number;
  /** Currency code (upper case) -> the largest money daily cap sent without a yes. */
  ceilings: Record<string, number>;
}

export const DEFAULT_GUARD: GuardSettings = {
  holding: true,
  factor: 3,
  cutFactor: 3,
  ceilings: {},
};

export const FACTOR_MIN = 1.1;
export const FACTOR_MAX = 1000;

/** A budget group as the guard compares it: its cells as request values. */
export type GuardGroup = Pick<
  BudgetGroupInput,
  'country_code' | 'daily_cap_type' | 'daily_cap' | 'total_budget'
>;

/** One held total of one offer, and why. */
export interface Hold {
  /** `daily_cap (BUDGET, all groups)`: which of the offer's totals. */
  field: string;
  /** `200 in 4 groups`; '' when the offer had no such total. */
  before: string;
  after: string;
  /** after / before, when both are numbers. */
  factor?: number;
  why: string;
}

const isNumber = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v);

/** What an offer gets of one cap: the sum over its groups, OPEN when one is unlimited. */
interface Total {
  amount: number | 'OPEN';
  groups: number;
}

/** The daily_cap_type a group's daily cap counts in ('' when the cell gives none). */
const capType = (group: GuardGroup) =>
  String(group.daily_cap_type ?? '')
    .trim()
    .toUpperCase();

function totalOf(
  values: ReadonlyArray<BudgetAmount | null | undefined>,
): Total | undefined {
  if (values.length === 0) return undefined;
  // Amounts have at most three decimals (4.2): their sum is rounded to them, not to a float's.
  const sum = values.filter(isNumber).reduce((a, b) => a + b, 0);
  const amount = values.some(v => v === 'OPEN')
    ? 'OPEN'
    : Math.round(sum * 1000) / 1000;
  return {amount, groups: values.length};
}

/** An offer's totals by name: the daily cap per daily_cap_type, and total_budget. */
function totalsOf(groups: readonly GuardGroup[]): Map<string, Total> {
  const totals = new Map<string, Total>();
  const types = [...new Set(groups.map(capType))].sort();
  for (const type of types) {
    const caps = groups.filter(g => capType(g) === type).map(g => g.daily_cap);
    totals.set(
      `daily_cap (${type || 'no daily_cap_type'}, all groups)`,
      totalOf(caps)!,
    );
  }
  const budgets = totalOf(groups.map(g => g.total_budget));
  if (budgets) totals.set('total_budget (all groups)', budgets);
  return totals;
}

const BUDGET_CAP = 'daily_cap (BUDGET, all groups)';

export function amountText(value: BudgetAmount | null | undefined): string {
  if (value === null || value === undefined) return '';
  return isNumber(value) ? formatAmount(value) : String(value);
}

/** "100", "400 in 4 groups". */
function totalText(total: Total | undefined): string {
  if (!total) return '';
  const amount = amountText(total.amount);
  return total.groups === 1 ? amount : `${amount} in ${total.groups} groups`;
}

/** 50000 -> 50,000; 1.5 -> 1.5. */
export function formatAmount(value: number): string {
  const [whole, fraction] = String(Math.abs(value)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** 10 -> "10×", 3.333 -> "3.3×". */
export function factorText(factor: number): string {
  return `${Math.round(factor * 10) / 10}×`;
}

/** Whether the offer gets more of a cap after than before (a total it had not: yes). */
function rises(was: Total | undefined, now: Total): boolean {
  if (!was) return true;
  if (now.amount === 'OPEN') return was.amount !== 'OPEN';
  return was.amount !== 'OPEN' && now.amount > was.amount;
}

/** Why a cut of one total is held, or undefined: to 0, or past the cut factor. */
function whyCutHeld(
  was: Total,
  now: Total,
  settings: GuardSettings,
): Pick<Hold, 'why' | 'factor'> | undefined {
  if (!isNumber(now.amount) || was.amount === now.amount) return undefined;
  if (now.amount === 0) {
    return {why: 'a cut to 0 (the offer stops delivering)'};
  }
  if (!isNumber(was.amount)) return undefined;
  const factor = now.amount / was.amount;
  if (now.amount * settings.cutFactor >= was.amount) return undefined;
  return {
    why: `a cut to ${factorText(factor)} the value on the server (the guard holds less than 1/${settings.cutFactor} of it)`,
    factor,
  };
}

/** Why one total is held, or undefined. */
function whyHeld(
  name: string,
  was: Total | undefined,
  now: Total,
  currency: string,
  settings: GuardSettings,
): Pick<Hold, 'why' | 'factor'> | undefined {
  if (!rises(was, now)) return was ? whyCutHeld(was, now, settings) : undefined;
  if (now.amount === 'OPEN' && was) {
    return {why: 'OPEN (no limit) replaces a number'};
  }
  if (isNumber(now.amount) && was && isNumber(was.amount)) {
    const factor = was.amount > 0 ? now.amount / was.amount : Infinity;
    if (now.amount > was.amount * settings.factor) {
      return {
        why: `${factorText(factor)} the value on the server (the guard holds more than ${factorText(settings.factor)})`,
        factor,
      };
    }
  }
  const ceiling = settings.ceilings[currency.trim().toUpperCase()];
  if (
    name === BUDGET_CAP &&
    ceiling !== undefined &&
    (now.amount === 'OPEN' || now.amount > ceiling)
  ) {
    return {
      why: `past your ${currency.toUpperCase()} ceiling of ${formatAmount(ceiling)}`,
    };
  }
  return undefined;
}

/** The held totals of one offer's budget change; [] when nothing is held. */
export function holdsOf(
  before: readonly GuardGroup[],
  after: readonly GuardGroup[],
  currency: string,
  settings: GuardSettings,
): Hold[] {
  if (!settings.holding) return [];
  const was = totalsOf(before);
  return [...totalsOf(after)].flatMap(([name, now]) => {
    const held = whyHeld(name, was.get(name), now, currency, settings);
    return held
      ? [
          {
            field: name,
            before: totalText(was.get(name)),
            after: totalText(now),
            ...held,
          },
        ]
      : [];
  });
}

/**
 * How the daily caps of one kind change by one push: the money caps of one currency, or the
 * conversion caps (`currency` CONVERSIONS), which count conversions whatever the currency.
 */
export interface CapTotal {
  currency: string;
  /** The sum of (after - before) over the offers whose daily cap of the kind is a number after. */
  added: number;
  /** Offers whose daily cap of the kind becomes OPEN. */
  opened: number;
}

/** The key of the conversion caps' total: a count, not money. */
const CONVERSIONS = 'CONVERSIONS';

/**
 * The daily cap of one daily_cap_type one offer's change adds: as a number (none before
 * counts 0; an OPEN before adds nothing), or as an offer that becomes OPEN.
 */
export function dailyCapAdded(
  before: readonly GuardGroup[],
  after: readonly GuardGroup[],
  type: 'BUDGET' | 'CONVERSION' = 'BUDGET',
): {added: number; opened: number} {
  const cap = `daily_cap (${type}, all groups)`;
  const was = totalsOf(before).get(cap)?.amount ?? 0;
  const now = totalsOf(after).get(cap)?.amount ?? 0;
  if (now === 'OPEN') return {added: 0, opened: was === 'OPEN' ? 0 : 1};
  return {added: was === 'OPEN' ? 0 : now - was, opened: 0};
}

/**
 * Per-currency totals of many offers' money caps, sorted by currency ('' last: not known),
 * then the conversion caps' total.
 */
export function capTotals(
  changes: ReadonlyArray<{
    currency: string;
    before: readonly GuardGroup[];
    after: readonly GuardGroup[];
  }>,
): CapTotal[] {
  const totals = new Map<string, CapTotal>();
  const add = (
    currency: string,
    {added, opened}: Omit<CapTotal, 'currency'>,
  ) => {
    const total = totals.get(currency) ?? {currency, added: 0, opened: 0};
    total.added += added;
    total.opened += opened;
    totals.set(currency, total);
  };
  for (const change of changes) {
    add(
      change.currency.trim().toUpperCase(),
      dailyCapAdded(change.before, change.after),
    );
    add(CONVERSIONS, dailyCapAdded(change.before, change.after, 'CONVERSION'));
  }
  const order = (t: CapTotal) =>
    t.currency === CONVERSIONS ? 2 : t.currency === '' ? 1 : 0;
  return [...totals.values()]
    .filter(t => t.added !== 0 || t.opened > 0)
    .sort(
      (a, b) => order(a) - order(b) || a.currency.localeCompare(b.currency),
    );
}

/** "USD +14,500, EUR -200 and OPEN on 1 offer, +4,527 conversions" */
export function totalsText(totals: readonly CapTotal[]): string {
  if (totals.length === 0) return 'nothing';
  return totals
    .map(t => {
      const conversions = t.currency === CONVERSIONS;
      const name = conversions
        ? ''
        : `${t.currency || '(currency not known: refresh offers)'} `;
      const sign = t.added >= 0 ? '+' : '-';
      const amount =
        t.added !== 0 || t.opened === 0
          ? `${sign}${formatAmount(Math.abs(Math.round(t.added * 1000) / 1000))}${conversions ? ' conversions' : ''}`
          : '';
      const open =
        t.opened > 0
          ? `${amount ? ' and ' : ''}OPEN ${conversions ? 'conversion caps ' : ''}on ${t.opened} ${t.opened === 1 ? 'offer' : 'offers'}`
          : '';
      return `${name}${amount}${open}`;
    })
    .join(', ');
}

/** What the sidebar sends for the guard; omitted parts keep what is stored. */
export interface GuardInput {
  holding?: boolean;
  factor?: number | string;
  cutFactor?: number | string;
  /** "USD 1000, EUR 800", or the map. */
  ceilings?: string | Record<string, number | string>;
}

const FACTOR_MEANING = {
  factor: 'hold a raise to more than this many times the value on the server',
  cutFactor: 'hold a cut to less than the value on the server divided by this',
} as const;

/** A factor the input gives (the stored one when omitted), or its problem. */
function readFactor(
  field: keyof typeof FACTOR_MEANING,
  input: GuardInput,
  stored: number,
): number | {problem: string} {
  const given = input[field];
  if (given === undefined || String(given).trim() === '') return stored;
  const factor = Number(String(given).trim());
  if (!Number.isFinite(factor) || factor < FACTOR_MIN || factor > FACTOR_MAX) {
    return {
      problem: `must be a number from ${FACTOR_MIN} to ${FACTOR_MAX} (${FACTOR_MEANING[field]}), not "${String(given)}"`,
    };
  }
  return factor;
}

/** The settings the input gives, or the problem of each field. */
export function readGuard(
  input: GuardInput,
  stored: GuardSettings,
):
  | {ok: true; settings: GuardSettings}
  | {ok: false; problems: Record<string, string>} {
  const problems: Record<string, string> = {};
  const factor = readFactor('factor', input, stored.factor);
  if (typeof factor !== 'number') problems.factor = factor.problem;
  const cutFactor = readFactor('cutFactor', input, stored.cutFactor);
  if (typeof cutFactor !== 'number') problems.cutFactor = cutFactor.problem;
  let ceilings = stored.ceilings;
  if (input.ceilings !== undefined) {
    const read = readCeilings(input.ceilings);
    if (typeof read === 'string') problems.ceilings = read;
    else ceilings = read;
  }
  if (
    Object.keys(problems).length > 0 ||
    typeof factor !== 'number' ||
    typeof cutFactor !== 'number'
  ) {
    return {ok: false, problems};
  }
  return {
    ok: true,
    settings: {
      holding: input.holding ?? stored.holding,
      factor,
      cutFactor,
      ceilings,
    },
  };
}

/** "USD 1000, EUR 800" (or a map) as ceilings, or why not. */
export function readCeilings(
  input: string | Record<string, number | string>,
): Record<string, number> | string {
  const pairs: Array<[string, string]> =
    typeof input === 'string'
      ? input
          // A comma before a currency code separates; one inside "1,000" does not.
          .split(/[;\n]|,(?=\s*[A-Za-z])/)
          .map(p => p.trim())
          .filter(Boolean)
          .map(p => {
            const m = /^([^\s:=]+)\s*[:=]?\s*(.*)$/.exec(p)!;
            return [m[1], m[2]];
          })
      : Object.entries(input).map(([c, v]) => [c, String(v)]);
  const ceilings: Record<string, number> = {};
  for (const [code, amount] of pairs) {
    const currency = code.toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      return `must be a currency code of three letters and an amount, such as "USD 1000, EUR 800" (not "${code}")`;
    }
    const value = Number(amount.replace(/,/g, ''));
    if (amount.trim() === '' || !Number.isFinite(value) || value <= 0) {
      return `${currency} needs an amount above 0, such as "${currency} 1000" (not "${amount}")`;
    }
    ceilings[currency] = value;
  }
  return ceilings;
}

/** "USD 1000, EUR 800": how the sidebar shows the ceilings. */
export function ceilingsText(ceilings: Record<string, number>): string {
  return Object.keys(ceilings)
    .sort()
    .map(c => `${c} ${ceilings[c]}`)
    .join(', ');
}
