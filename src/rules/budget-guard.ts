/**
 * The budget guard (issue 21): which budget changes wait for a yes before they are sent. A
 * fat-finger fill-down (a daily cap of 500 become 50,000, a cap set to OPEN) is legal for the
 * API, so no rule of rules/budget.ts refuses it; the guard holds it instead, per the user's
 * settings:
 * - a daily_cap or total_budget raised to more than `factor` times its last pulled value;
 * - a number replaced with OPEN (no limit);
 * - a money daily cap (daily_cap_type BUDGET) past the ceiling set for the offer's currency.
 *
 * Groups are matched by country_code. A group that was not there before (a split, a new geo)
 * is compared with the groups that went away (their sum): splitting ALL 500 into US 500 and
 * GB 500 raises nothing; adding a group beside unchanged ones has no before, so only OPEN
 * and the ceiling can hold it.
 */
import type {BudgetAmount, BudgetGroupInput} from './budget';

export interface GuardSettings {
  /** false: nothing is held. */
  holding: boolean;
  /** A raise to more than this many times the value on the server is held. */
  factor: number;
  /** Currency code (upper case) -> the largest money daily cap sent without a yes. */
  ceilings: Record<string, number>;
}

export const DEFAULT_GUARD: GuardSettings = {
  holding: true,
  factor: 3,
  ceilings: {},
};

export const FACTOR_MIN = 1.1;
export const FACTOR_MAX = 1000;

/** A budget group as the guard compares it: its cells as request values. */
export type GuardGroup = Pick<
  BudgetGroupInput,
  'country_code' | 'daily_cap_type' | 'daily_cap' | 'total_budget'
>;

const FIELDS = ['daily_cap', 'total_budget'] as const;
type CapField = (typeof FIELDS)[number];

/** One held field of one group, and why. */
export interface Hold {
  /** `daily_cap [US,CA]`, as History names it. */
  field: string;
  before: string;
  after: string;
  /** after / before, when both are numbers. */
  factor?: number;
  why: string;
}

const isNumber = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v);

/** A group's key: its geos, sorted, upper case. */
function keyOf(group: GuardGroup): string {
  return String(group.country_code ?? '')
    .split(',')
    .map(g => g.trim().toUpperCase())
    .filter(Boolean)
    .sort()
    .join(',');
}

export function amountText(value: BudgetAmount | null | undefined): string {
  if (value === null || value === undefined) return '';
  return isNumber(value) ? formatAmount(value) : String(value);
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

/**
 * What a group had before: the group of the same geos, or for a new group the sum of the
 * groups that went away (OPEN when one of them was; undefined when none went away).
 */
function beforeOf(
  key: string,
  field: CapField,
  before: ReadonlyMap<string, GuardGroup>,
  gone: readonly GuardGroup[],
): BudgetAmount | null | undefined {
  const same = before.get(key);
  if (same) return same[field];
  const values = gone.map(g => g[field]);
  if (values.some(v => v === 'OPEN')) return 'OPEN';
  const numbers = values.filter(isNumber);
  return numbers.length > 0 ? numbers.reduce((a, b) => a + b, 0) : undefined;
}

/** The held fields of one offer's budget change; [] when nothing is held. */
export function holdsOf(
  before: readonly GuardGroup[],
  after: readonly GuardGroup[],
  currency: string,
  settings: GuardSettings,
): Hold[] {
  if (!settings.holding) return [];
  const byKey = new Map(before.map(g => [keyOf(g), g]));
  const afterKeys = new Set(after.map(keyOf));
  const gone = before.filter(g => !afterKeys.has(keyOf(g)));
  const ceiling = settings.ceilings[currency.trim().toUpperCase()];
  const holds: Hold[] = [];
  for (const group of after) {
    const key = keyOf(group);
    for (const field of FIELDS) {
      const now = group[field];
      const was = beforeOf(key, field, byKey, gone);
      const hold = (why: string, factor?: number) =>
        holds.push({
          field: `${field} [${key || '(none)'}]`,
          before: amountText(was),
          after: amountText(now),
          ...(factor === undefined ? {} : {factor}),
          why,
        });
      if (now === was) continue;
      if (now === 'OPEN' && isNumber(was)) {
        hold('OPEN (no limit) replaces a number');
      } else if (
        isNumber(now) &&
        isNumber(was) &&
        now > was * settings.factor
      ) {
        const factor = was > 0 ? now / was : Infinity;
        hold(
          `${factorText(factor)} the value on the server (the guard holds more than ${factorText(settings.factor)})`,
          factor,
        );
      } else if (
        field === 'daily_cap' &&
        group.daily_cap_type === 'BUDGET' &&
        ceiling !== undefined &&
        (now === 'OPEN' || (isNumber(now) && now > ceiling))
      ) {
        hold(
          `past your ${currency.toUpperCase()} ceiling of ${formatAmount(ceiling)}`,
        );
      }
    }
  }
  return holds;
}

/**
 * How the daily caps of one kind change by one push: the money caps of one currency, or the
 * conversion caps (`currency` CONVERSIONS), which count conversions whatever the currency.
 */
export interface CapTotal {
  currency: string;
  /** The sum of (after - before) over the daily caps that are numbers on both sides. */
  added: number;
  /** Groups whose daily cap becomes OPEN. */
  opened: number;
}

/** The key of the conversion caps' total: a count, not money. */
const CONVERSIONS = 'CONVERSIONS';

/**
 * The daily caps of one daily_cap_type one offer's change adds: as a number, and as groups
 * that become OPEN (their number before is not counted as taken away).
 */
export function dailyCapAdded(
  before: readonly GuardGroup[],
  after: readonly GuardGroup[],
  type: 'BUDGET' | 'CONVERSION' = 'BUDGET',
): {added: number; opened: number} {
  const money = (groups: readonly GuardGroup[]) =>
    groups.filter(g => g.daily_cap_type === type);
  const opened = new Set(
    money(after)
      .filter(g => g.daily_cap === 'OPEN')
      .map(keyOf),
  );
  const sum = (groups: readonly GuardGroup[]) =>
    money(groups)
      .filter(g => !opened.has(keyOf(g)))
      .map(g => g.daily_cap)
      .filter(isNumber)
      .reduce((a, b) => a + b, 0);
  const wasOpen = new Set(
    money(before)
      .filter(g => g.daily_cap === 'OPEN')
      .map(keyOf),
  );
  return {
    added: sum(after) - sum(before),
    opened: [...opened].filter(k => !wasOpen.has(k)).length,
  };
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

/** "USD +14,500, EUR -200 and OPEN on 1 group, +4,527 conversions" */
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
          ? `${amount ? ' and ' : ''}OPEN on ${t.opened} ${conversions ? 'conversion cap' : 'group'}${t.opened === 1 ? '' : 's'}`
          : '';
      return `${name}${amount}${open}`;
    })
    .join(', ');
}

/** What the sidebar sends for the guard; omitted parts keep what is stored. */
export interface GuardInput {
  holding?: boolean;
  factor?: number | string;
  /** "USD 1000, EUR 800", or the map. */
  ceilings?: string | Record<string, number | string>;
}

/** The settings the input gives, or the problem of each field. */
export function readGuard(
  input: GuardInput,
  stored: GuardSettings,
):
  | {ok: true; settings: GuardSettings}
  | {ok: false; problems: Record<string, string>} {
  const problems: Record<string, string> = {};
  let factor = stored.factor;
  if (input.factor !== undefined && String(input.factor).trim() !== '') {
    factor = Number(String(input.factor).trim());
    if (
      !Number.isFinite(factor) ||
      factor < FACTOR_MIN ||
      factor > FACTOR_MAX
    ) {
      problems.factor = `must be a number from ${FACTOR_MIN} to ${FACTOR_MAX} (hold a raise to more than this many times the value on the server), not "${String(input.factor)}"`;
    }
  }
  let ceilings = stored.ceilings;
  if (input.ceilings !== undefined) {
    const read = readCeilings(input.ceilings);
    if (typeof read === 'string') problems.ceilings = read;
    else ceilings = read;
  }
  if (Object.keys(problems).length > 0) return {ok: false, problems};
  return {
    ok: true,
    settings: {
      holding: input.holding ?? stored.holding,
      factor,
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
