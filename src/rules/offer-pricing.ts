/**
 * The pricing rules of 4.2: billing_type and what each type takes: bid_goal and the OCPI
 * targets, bid_rate, target_ad_type and settlement_event. Fields the document says the API
 * ignores or fills for the type (settlement_event outside CPE, bid_rate and target_ad_type for
 * OCPI) are left out with a note; the OCPI targets elsewhere are refused.
 *
 * The document names five billing types but says they "appear" in an enumeration it does not
 * show: a type outside the five is sent as typed (the API decides), provided it looks like a
 * code. For such a type the add-on cannot know what the API requires, so nothing is required
 * beyond billing_type: the pricing fields the row fills are sent, each checked by its own
 * format rule, and the row's message says the type is unknown to the document.
 */
import {readGeoList} from './geo';
import {Check, OfferBody} from './offer-check';
import {
  excerpt,
  isPlainObject,
  parseJson,
  parseList,
  parseNumber,
} from './values';

/** The billing types the document names; the full enumeration is not shown. */
export const BILLING_TYPES = ['CPI', 'CPE', 'CPM', 'CPC', 'OCPI'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];
/**
 * What a billing type outside the five must look like to be sent: the document shows no
 * shape, the five are short upper-case codes, so a code of letters, digits and underscores,
 * strict enough that a typo with a space or a sentence is refused before anything is sent.
 */
const BILLING_CODE = /^[A-Za-z0-9_]{2,20}$/;
const BILLING_CODE_TEXT = '2 to 20 letters, digits or underscores';
/** The types priced by bid_rate and shown as target_ad_type (4.2). */
const PRICED: readonly string[] = ['CPI', 'CPE', 'CPM', 'CPC'];
export const OCPI_BID_GOALS = ['Target-ROAS', 'Target-CPE'] as const;
/** bid_goal set by the service (4.2 mapping table); CPC has no mapping there. */
const AUTOMATIC_BID_GOAL: Readonly<Record<string, string>> = {
  CPI: 'Install',
  CPM: 'Impression',
  CPE: 'Event',
};
export const TARGET_GOAL_WINDOWS = ['D0', 'D7'] as const;
export const SETTLEMENT_EVENT_LENGTH = [3, 50] as const;

/** billing_type and every field it decides, into the body. */
export function pricing(c: Check, body: Partial<OfferBody>): void {
  const type = billingType(c);
  if (type === undefined) return;
  body.billing_type = type;
  if (!isKnown(type)) return unknownType(c, type, body);
  bidGoal(c, type, body);
  bidRate(c, type, body);
  adType(c, type, body);
  settlementEvent(c, type, body);
}

function isKnown(type: string): type is BillingType {
  return (BILLING_TYPES as readonly string[]).includes(type);
}

/** One of the five in their spelling (cpi -> CPI), else the code as typed (trimmed). */
function billingType(c: Check): string | undefined {
  const choices = `${BILLING_TYPES.join(', ')} or another billing-type code of ${BILLING_CODE_TEXT}`;
  const value = c.present('billing_type', `is required: ${choices}`);
  if (value === undefined) return undefined;
  const typed = c.text('billing_type');
  const known = BILLING_TYPES.find(t => t === typed.toUpperCase());
  if (known) return known;
  if (!BILLING_CODE.test(typed)) {
    return c.fail('billing_type', `must be ${choices} (got ${excerpt(value)})`);
  }
  return typed;
}

/**
 * A type the document does not name: the fields it needs are not shown, so none is required
 * and each one filled is sent, checked by its own format rule (bid_rate's minimum is per known
 * type: here only above 0). bid_goal Target-ROAS or Target-CPE brings its targets, which the
 * document requires "when bid_goal is" one of them whatever the type.
 */
function unknownType(c: Check, type: string, body: Partial<OfferBody>): void {
  c.notes.push(
    `billing_type ${type} is not one the API document names (${BILLING_TYPES.join(', ')}): sent as typed; the API decides which fields it needs`,
  );
  const goals: readonly string[] = OCPI_BID_GOALS;
  const goal = c.text('bid_goal');
  if (goals.includes(goal)) {
    body.bid_goal = goal;
    targets(c, goal as (typeof OCPI_BID_GOALS)[number], body);
  } else {
    if (goal !== '') body.bid_goal = goal;
    targetsUnused(c, 'bid_goal is Target-ROAS or Target-CPE');
  }
  if (!c.blank('bid_rate')) {
    const rate = positiveRate(c);
    if (rate !== undefined) body.bid_rate = rate;
  }
  if (!c.blank('target_ad_type')) {
    const types = c.words('target_ad_type', 'ad display types');
    if (types !== undefined) body.target_ad_type = types;
  }
  if (!c.blank('settlement_event')) {
    const event = c.word('settlement_event', SETTLEMENT_EVENT_LENGTH);
    if (event !== undefined) body.settlement_event = event;
  }
}

function bidGoal(c: Check, type: BillingType, body: Partial<OfferBody>): void {
  if (type !== 'OCPI') {
    const automatic = AUTOMATIC_BID_GOAL[type];
    if (!c.blank('bid_goal') && c.text('bid_goal') !== automatic) {
      c.unused(
        'bid_goal',
        `is set by the API for ${type}${automatic ? ` (${automatic})` : ''}`,
      );
    } else
      c.leftOut('bid_goal', `the API sets ${automatic} for ${type} itself`);
    targetsUnused(c, 'billing_type is OCPI');
    return;
  }
  const goals: readonly string[] = OCPI_BID_GOALS;
  const value = c.present(
    'bid_goal',
    'is required when billing_type is OCPI: Target-ROAS or Target-CPE',
  );
  // With bid_goal missing or wrong the targets typed are not judged: they are likely meant.
  if (value === undefined) return;
  const goal = c.text('bid_goal');
  if (!goals.includes(goal)) {
    c.fail(
      'bid_goal',
      `must be Target-ROAS or Target-CPE when billing_type is OCPI (got ${excerpt(goal)})`,
    );
    return;
  }
  body.bid_goal = goal;
  targets(c, goal as (typeof OCPI_BID_GOALS)[number], body);
}

const TARGET_FIELDS = [
  'target_agg_event',
  'target_original_event',
  'target_goal_window',
  'target_goal',
  'target_goal_by_geo',
];

function targetsUnused(c: Check, when: string): void {
  for (const field of TARGET_FIELDS)
    c.unused(field, `is used only when ${when}`);
}

/**
 * A goal typed with a percent sign ("150%"), or a percent-formatted cell as the job reads it
 * (new-offer-rows.ts gives it the same form): the number before the sign; undefined otherwise.
 */
export function percentTyped(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*%\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** Range and precision of target_goal per bid_goal (4.2). */
const GOAL_LIMITS = {
  'Target-ROAS': {min: 1, max: 1000, decimals: 2, unit: ' (a percentage)'},
  'Target-CPE': {min: 0.1, max: 2000, decimals: 3, unit: ''},
} as const;

function targets(
  c: Check,
  goal: (typeof OCPI_BID_GOALS)[number],
  body: Partial<OfferBody>,
): void {
  const when = `when bid_goal is ${goal}`;
  if (c.present('target_agg_event', `is required ${when}`) !== undefined) {
    const events = parseList(c.cells.target_agg_event);
    if (events.includes(''))
      c.fail('target_agg_event', 'has an empty item between commas');
    else body.target_agg_event = events;
  }
  if (goal === 'Target-CPE') {
    if (
      c.present('target_original_event', `is required ${when}`) !== undefined
    ) {
      body.target_original_event = c.text('target_original_event');
    }
  } else {
    c.unused(
      'target_original_event',
      'is used only when bid_goal is Target-CPE',
    );
  }
  if (
    c.present('target_goal_window', `is required ${when}: D0 or D7`) !==
    undefined
  ) {
    const window = c.text('target_goal_window').toUpperCase();
    const windows: readonly string[] = TARGET_GOAL_WINDOWS;
    if (windows.includes(window)) body.target_goal_window = window;
    else
      c.fail(
        'target_goal_window',
        `must be D0 or D7 (got ${excerpt(c.cells.target_goal_window)})`,
      );
  }
  const limits = GOAL_LIMITS[goal];
  const goalProblem = (value: unknown): string | number => {
    const percent = percentTyped(value);
    if (percent !== undefined) {
      if (goal !== 'Target-ROAS') {
        return `is a cost for ${goal}, not a percentage: type the number without % (got ${excerpt(value)})`;
      }
      // Target-ROAS is a percentage already: 150% means 150.
      c.notes.push(
        `target_goal ${excerpt(value, false)} is read as ${percent} (Target-ROAS is a percentage)`,
      );
      value = percent;
    }
    const parsed = parseNumber(value);
    if (!parsed) return `must be a number (got ${excerpt(value)})`;
    if (parsed.value < limits.min || parsed.value > limits.max) {
      return `must be from ${limits.min} to ${limits.max} for ${goal}${limits.unit} (got ${parsed.value})`;
    }
    if (parsed.decimals > limits.decimals) {
      return `may have at most ${limits.decimals} decimals for ${goal} (got ${excerpt(value, false)})`;
    }
    return parsed.value;
  };
  const value = c.present('target_goal', `is required ${when}`);
  if (value !== undefined) {
    const checked = goalProblem(value);
    if (typeof checked === 'string') c.fail('target_goal', checked);
    else body.target_goal = checked;
  }
  if (!c.blank('target_goal_by_geo')) goalsByGeo(c, goalProblem, body);
}

const BY_GEO_FORM =
  'must be a JSON list such as [{"geo":"US","target_goal":120}]';

function goalsByGeo(
  c: Check,
  goalProblem: (value: unknown) => string | number,
  body: Partial<OfferBody>,
): void {
  const json = parseJson(c.cells.target_goal_by_geo);
  if (!json.ok || !Array.isArray(json.value) || json.value.length === 0) {
    c.fail('target_goal_by_geo', BY_GEO_FORM);
    return;
  }
  const items: Array<{geo: string; target_goal: number}> = [];
  for (const [i, item] of json.value.entries()) {
    const at = `item ${i + 1}`;
    if (!isPlainObject(item))
      return void c.fail('target_goal_by_geo', `${at}: ${BY_GEO_FORM}`);
    const geo = readGeoList(item.geo);
    if (
      typeof item.geo !== 'string' ||
      'problem' in geo ||
      geo.geos.length !== 1
    ) {
      return void c.fail(
        'target_goal_by_geo',
        `${at}: geo must be one two-letter country code`,
      );
    }
    const goal = goalProblem(item.target_goal);
    if (typeof goal === 'string')
      return void c.fail('target_goal_by_geo', `${at}: target_goal ${goal}`);
    items.push({geo: geo.geos[0], target_goal: goal});
  }
  body.target_goal_by_geo = items;
}

/** Smallest bid_rate per billing type (4.2, part 8). */
const MIN_BID_RATE: Readonly<Record<string, number>> = {
  CPI: 0.01,
  CPE: 0.01,
  CPM: 0.01,
  CPC: 0.001,
};

function bidRate(c: Check, type: BillingType, body: Partial<OfferBody>): void {
  if (!PRICED.includes(type)) {
    c.leftOut(
      'bid_rate',
      'OCPI offers are not sent one (the bid follows target_goal)',
    );
    return;
  }
  if (
    c.present('bid_rate', `is required when billing_type is ${type}`) ===
    undefined
  )
    return;
  const rate = positiveRate(c);
  if (rate === undefined) return;
  const min = MIN_BID_RATE[type];
  if (rate < min)
    return void c.fail(
      'bid_rate',
      `must be at least ${min} for ${type} (got ${rate})`,
    );
  body.bid_rate = rate;
}

/** bid_rate (filled) as a number above 0 with at most three decimals. */
function positiveRate(c: Check): number | undefined {
  const rate = c.number('bid_rate', c.cells.bid_rate, 3);
  if (rate === undefined) return undefined;
  if (rate <= 0)
    return c.fail('bid_rate', `must be greater than 0 (got ${rate})`);
  return rate;
}

function adType(c: Check, type: BillingType, body: Partial<OfferBody>): void {
  if (!PRICED.includes(type)) {
    c.leftOut('target_ad_type', 'the API fills it for OCPI');
    return;
  }
  if (
    c.present('target_ad_type', `is required when billing_type is ${type}`) ===
    undefined
  )
    return;
  const types = c.words('target_ad_type', 'ad display types');
  if (types !== undefined) body.target_ad_type = types;
}

function settlementEvent(
  c: Check,
  type: BillingType,
  body: Partial<OfferBody>,
): void {
  if (type !== 'CPE') {
    c.leftOut('settlement_event', 'only CPE offers use it');
    return;
  }
  if (
    c.present('settlement_event', 'is required when billing_type is CPE') ===
    undefined
  )
    return;
  const event = c.word('settlement_event', SETTLEMENT_EVENT_LENGTH);
  if (event !== undefined) body.settlement_event = event;
}
