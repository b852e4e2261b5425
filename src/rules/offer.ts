/**
 * The rules of 4.2 (create an offer) for a New Offers row, checked before anything is sent:
 * every problem is named by its field with the reason and what to do, and a row with none
 * becomes the request body (creative_sets aside: they come from the Creative Sets sheet).
 *
 * Where the document leaves a rule open the choice is stated beside the check. Fields the
 * document says the API ignores or fills itself for the row's billing type (settlement_event
 * outside CPE: "ignored for other billing types"; target_ad_type for OCPI: "filled by the
 * system"; bid_rate for OCPI: "not sent") are left out of the body with a note the row's
 * message carries, so that nothing the user typed goes unsaid and nothing is refused that the
 * API would accept. The OCPI targets outside OCPI the document does not call ignored: they are
 * refused. Every message quotes a cell only as a short excerpt (values.ts `excerpt`).
 */
import type {CreateOfferRequest} from '../api/types';
import {readGeoList} from './geo';
import type {FieldMessages} from './maintain';
import {TRACKING_FIELDS} from './tracking';
import {
  UNPLACEABLE_DATE_PROBLEM,
  excerpt,
  isBlank,
  isUnplaceableDate,
  isPlainObject,
  lengthProblem,
  parseInteger,
  parseJson,
  parseList,
  parseNumber,
  textOf,
} from './values';

/** The billing types the document names; the full enumeration is not shown. */
export const BILLING_TYPES = ['CPI', 'CPE', 'CPM', 'CPC', 'OCPI'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];
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
export const DAILY_CAP_TYPES = ['BUDGET', 'CONVERSION'] as const;
export const TARGET_DEVICES = ['PHONE', 'TABLET'] as const;

/** 4.2: start_time not earlier than this (2000-01-01 00:00 at UTC+8). */
export const MIN_START_TIME = 946656000;
/** UTC offsets in use run from -12 to +14; the time-zone enumeration is not shown. */
export const TIMEZONE_RANGE = [-12, 14] as const;
export const OFFER_NAME_LENGTH = [3, 95] as const;
export const SETTLEMENT_EVENT_LENGTH = [3, 50] as const;
const WORD = /^[A-Za-z0-9_]+$/;
/**
 * 4.2: "one digit followed by up to two groups of a dot and one digit"; its own no-maximum
 * value 99.0.0 has two digits in a group, so a "digit" is read as a number per group (14.5,
 * 10, 12.0.0), as the local emulator reads it (its README, assumption 39).
 */
const OS_VERSION = /^\d+(\.\d+){0,2}$/;

/** What the user may type for "no limit" in a budget cell (DESIGN 4.3). */
const OPEN = 'OPEN';

/** The body of POST offer without creative_sets. */
export type OfferBody = Omit<CreateOfferRequest, 'creative_sets'>;

export interface OfferCheck {
  /** Field -> its message, which names the field: `bid_rate must be ...`. */
  problems: FieldMessages;
  /** Present when there are no problems. */
  body?: OfferBody;
  /** What was typed and left out of the body, and why: for the row's message. */
  notes: string[];
}

/** Cells of a New Offers row by header. */
export type Cells = Readonly<Record<string, unknown>>;

class Check {
  readonly problems: FieldMessages = {};
  readonly notes: string[] = [];
  constructor(readonly cells: Cells) {}

  blank(field: string): boolean {
    return isBlank(this.cells[field]);
  }

  text(field: string): string {
    return textOf(this.cells[field]);
  }

  fail(field: string, reason: string): undefined {
    this.problems[field] ??= `${field} ${reason}`;
    return undefined;
  }

  /** A required cell: undefined (and the problem noted) when blank. */
  present(field: string, reason = 'is required'): unknown {
    if (this.blank(field)) return this.fail(field, reason);
    return this.cells[field];
  }

  /** A cell that must stay empty for this row: the API would not use it. */
  unused(field: string, reason: string): void {
    if (!this.blank(field)) this.fail(field, `${reason}: leave it empty`);
  }

  /** A cell the API ignores or fills itself for this row: not sent, and the row says so. */
  leftOut(field: string, reason: string): void {
    if (!this.blank(field)) this.notes.push(`${field} is left out: ${reason}`);
  }

  number(
    field: string,
    value: unknown,
    decimals: number,
    context = '',
  ): number | undefined {
    const parsed = parseNumber(value);
    if (!parsed)
      return this.fail(field, `must be a number (got ${excerpt(value)})`);
    if (parsed.decimals > decimals) {
      return this.fail(
        field,
        `may have at most ${decimals} decimals${context} (got ${excerpt(value, false)})`,
      );
    }
    return parsed.value;
  }
}

/** Checks a New Offers row against 4.2 and builds its request body. */
export function checkNewOffer(cells: Cells): OfferCheck {
  const c = new Check(cells);
  const body: Partial<OfferBody> = {};
  // First, so that an overlong cell is refused by its length, not quoted by another rule.
  // Tracking has its own rules (tracking.ts).
  for (const field of Object.keys(cells)) {
    if (TRACKING_FIELDS.includes(field)) continue;
    const problem = lengthProblem(field, cells[field]);
    if (problem) c.problems[field] = problem;
  }

  const campaign = c.present('campaign_id');
  if (campaign !== undefined) {
    const id = parseInteger(campaign);
    if (id === undefined || id <= 0) {
      c.fail(
        'campaign_id',
        `must be a whole number, the campaign's id (got ${excerpt(campaign)})`,
      );
    } else body.campaign_id = id;
  }

  const name = offerName(c);
  if (name !== undefined) body.offer_name = name;

  const zone = c.present('promote_timezone');
  if (zone !== undefined) {
    const parsed = parseNumber(zone);
    const [low, high] = TIMEZONE_RANGE;
    if (!parsed) {
      c.fail(
        'promote_timezone',
        `must be a number of hours from UTC such as -5 or 8 (got ${excerpt(zone)})`,
      );
    } else if (parsed.value < low || parsed.value > high) {
      c.fail(
        'promote_timezone',
        `must be a UTC offset from ${low} to ${high} (got ${parsed.value})`,
      );
    } else body.promote_timezone = parsed.value;
  }

  times(c, body);

  const geo = c.present('target_geo');
  if (geo !== undefined) {
    const read = readGeoList(geo);
    if ('problem' in read) c.fail('target_geo', read.problem);
    else body.target_geo = read.geos.join(',');
  }

  const type = billingType(c);
  if (type !== undefined) {
    body.billing_type = type;
    bidGoal(c, type, body);
    bidRate(c, type, body);
    adType(c, type, body);
    settlementEvent(c, type, body);
  }

  budget(c, body);
  osVersions(c, body);
  schedule(c, body);

  if (!c.blank('network')) {
    const items = parseList(c.cells.network);
    if (items.some(item => item === '' || /\s/.test(item))) {
      c.fail(
        'network',
        'must be network types separated by commas, without empty items',
      );
    } else body.network = items.join(',');
  }

  if (!c.blank('target_device')) {
    const items = parseList(c.cells.target_device).map(d => d.toUpperCase());
    const allowed: readonly string[] = TARGET_DEVICES;
    const bad = items.find(d => !allowed.includes(d));
    if (bad !== undefined) {
      c.fail(
        'target_device',
        `must be PHONE, TABLET or PHONE,TABLET (got ${excerpt(bad)})`,
      );
    } else body.target_device = [...new Set(items)].join(',');
  }

  return Object.keys(c.problems).length > 0
    ? {problems: c.problems, notes: c.notes}
    : {problems: {}, body: body as OfferBody, notes: c.notes};
}

function offerName(c: Check): string | undefined {
  if (c.present('offer_name') === undefined) return undefined;
  const name = c.text('offer_name');
  const [min, max] = OFFER_NAME_LENGTH;
  if (!WORD.test(name)) {
    return c.fail(
      'offer_name',
      'may contain only letters, digits and underscore',
    );
  }
  if (name.length < min || name.length > max) {
    return c.fail(
      'offer_name',
      `must be ${min} to ${max} characters long (it has ${name.length})`,
    );
  }
  return name;
}

function times(c: Check, body: Partial<OfferBody>): void {
  for (const field of ['start_time', 'end_time']) {
    if (isUnplaceableDate(c.cells[field]))
      c.fail(field, UNPLACEABLE_DATE_PROBLEM);
  }
  const start = c.present('start_time');
  let startSeconds: number | undefined;
  if (start !== undefined) {
    startSeconds = parseInteger(start);
    if (startSeconds === undefined) {
      c.fail(
        'start_time',
        `must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (got ${excerpt(start)})`,
      );
    } else if (startSeconds < MIN_START_TIME) {
      c.fail(
        'start_time',
        `must not be earlier than ${MIN_START_TIME} (2000-01-01 00:00 at UTC+8)`,
      );
      startSeconds = undefined;
    } else body.start_time = startSeconds;
  }
  // end_time defaults to 0 (4.2): a blank or 0 cell sends none.
  if (c.blank('end_time')) return;
  const end = parseInteger(c.cells.end_time);
  if (end === undefined) {
    c.fail(
      'end_time',
      `must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (got ${excerpt(c.cells.end_time)})`,
    );
    return;
  }
  if (end === 0) return;
  if (startSeconds !== undefined && end <= startSeconds) {
    c.fail('end_time', 'must be later than start_time');
    return;
  }
  body.end_time = end;
}

function billingType(c: Check): BillingType | undefined {
  const value = c.present(
    'billing_type',
    `is required: one of ${BILLING_TYPES.join(', ')}`,
  );
  if (value === undefined) return undefined;
  const type = c.text('billing_type').toUpperCase();
  const known: readonly string[] = BILLING_TYPES;
  if (!known.includes(type)) {
    return c.fail(
      'billing_type',
      `must be one of ${BILLING_TYPES.join(', ')} (got ${excerpt(value)})`,
    );
  }
  return type as BillingType;
}

function bidGoal(c: Check, type: BillingType, body: Partial<OfferBody>): void {
  if (type !== 'OCPI') {
    const automatic = AUTOMATIC_BID_GOAL[type];
    if (!c.blank('bid_goal') && c.text('bid_goal') !== automatic) {
      c.unused(
        'bid_goal',
        `is set by the API for ${type}${automatic ? ` (${automatic})` : ''}`,
      );
    }
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
  const value = c.present(
    'bid_rate',
    `is required when billing_type is ${type}`,
  );
  if (value === undefined) return;
  const rate = c.number('bid_rate', value, 3);
  if (rate === undefined) return;
  if (rate <= 0)
    return void c.fail('bid_rate', `must be greater than 0 (got ${rate})`);
  const min = MIN_BID_RATE[type];
  if (rate < min)
    return void c.fail(
      'bid_rate',
      `must be at least ${min} for ${type} (got ${rate})`,
    );
  body.bid_rate = rate;
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
  const items = parseList(c.cells.target_ad_type);
  if (items.some(item => item === '' || /\s/.test(item))) {
    c.fail(
      'target_ad_type',
      'must be ad display types separated by commas, without empty items',
    );
  } else body.target_ad_type = items.join(',');
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
  const event = c.text('settlement_event');
  const [min, max] = SETTLEMENT_EVENT_LENGTH;
  if (!WORD.test(event)) {
    c.fail(
      'settlement_event',
      'may contain only letters, digits and underscore',
    );
  } else if (event.length < min || event.length > max) {
    c.fail(
      'settlement_event',
      `must be ${min} to ${max} characters long (it has ${event.length})`,
    );
  } else body.settlement_event = event;
}

function isOpen(c: Check, field: string): boolean {
  return c.blank(field) || c.text(field).toUpperCase() === OPEN;
}

function budget(c: Check, body: Partial<OfferBody>): void {
  let capType = 'BUDGET';
  if (!c.blank('daily_cap_type')) {
    capType = c.text('daily_cap_type').toUpperCase();
    const types: readonly string[] = DAILY_CAP_TYPES;
    if (!types.includes(capType)) {
      c.fail(
        'daily_cap_type',
        `must be BUDGET or CONVERSION (got ${excerpt(c.cells.daily_cap_type)})`,
      );
      return;
    }
    body.daily_cap_type = capType;
  }
  if (!isOpen(c, 'daily_cap')) {
    const value = c.cells.daily_cap;
    if (capType === 'BUDGET') {
      const cap = c.number(
        'daily_cap',
        value,
        3,
        ' when daily_cap_type is BUDGET',
      );
      if (cap !== undefined && cap < 50) {
        c.fail(
          'daily_cap',
          `must be at least 50 when daily_cap_type is BUDGET (got ${cap})`,
        );
      } else if (cap !== undefined) body.daily_cap = cap;
    } else {
      const cap = parseInteger(value);
      if (cap === undefined) {
        c.fail(
          'daily_cap',
          `must be a whole number of conversions when daily_cap_type is CONVERSION (got ${excerpt(value)})`,
        );
      } else if (cap < 10) {
        c.fail(
          'daily_cap',
          `must be at least 10 when daily_cap_type is CONVERSION (got ${cap})`,
        );
      } else body.daily_cap = cap;
    }
  }
  if (!isOpen(c, 'total_budget')) {
    const total = c.number('total_budget', c.cells.total_budget, 3);
    if (total === undefined) return;
    if (capType === 'BUDGET' && total < 10) {
      c.fail(
        'total_budget',
        `must be at least 10 when daily_cap_type is BUDGET (got ${total})`,
      );
    } else if (total <= 0) {
      c.fail('total_budget', `must be greater than 0 (got ${total})`);
    } else body.total_budget = total;
  }
}

function osVersions(c: Check, body: Partial<OfferBody>): void {
  const form =
    'must be a number, then up to two groups of a dot and a number (9, 14.5 or 12.0.1)';
  const limits = {
    os_version_min: '0.0.0 means no minimum',
    os_version_max: '99.0.0 means no maximum',
  } as const;
  for (const field of ['os_version_min', 'os_version_max'] as const) {
    if (c.blank(field)) continue;
    const version = c.text(field);
    if (OS_VERSION.test(version)) body[field] = version;
    else c.fail(field, `${form}; ${limits[field]} (got ${excerpt(version)})`);
  }
}

const SCHEDULE_FORM =
  'must be a JSON object such as {"1":"9,10,11","6":"0,1"}: keys 1 (Monday) to 7 (Sunday), values hours 0 to 23 separated by commas';

function schedule(c: Check, body: Partial<OfferBody>): void {
  if (c.blank('custom_ad_schedule')) return;
  const json = parseJson(c.cells.custom_ad_schedule);
  if (!json.ok || !isPlainObject(json.value)) {
    c.fail('custom_ad_schedule', SCHEDULE_FORM);
    return;
  }
  const out: Record<string, string> = {};
  for (const [day, hours] of Object.entries(json.value)) {
    if (!/^[1-7]$/.test(day)) {
      return void c.fail(
        'custom_ad_schedule',
        `has key ${excerpt(day)}, which is not a day: use 1 (Monday) to 7 (Sunday)`,
      );
    }
    const items =
      typeof hours === 'string' || typeof hours === 'number'
        ? parseList(hours)
        : [];
    const bad = items.find(h => !/^\d{1,2}$/.test(h) || Number(h) > 23);
    if (items.length === 0 || bad !== undefined) {
      return void c.fail(
        'custom_ad_schedule',
        `day ${day} must list hours 0 to 23 separated by commas (got ${excerpt(typeof hours === 'string' ? hours : JSON.stringify(hours))})`,
      );
    }
    out[day] = items.map(Number).join(',');
  }
  body.custom_ad_schedule = out;
}

/**
 * offer_name is unique (4.2): a name used by more than one row is refused on each of them,
 * naming the other rows. `names` holds the sheet row of each name.
 */
export function duplicateNameProblems(
  names: ReadonlyArray<{row: number; name: string}>,
): Map<number, string> {
  const rowsByName = new Map<string, number[]>();
  for (const {row, name} of names) {
    if (name === '') continue;
    rowsByName.set(name, [...(rowsByName.get(name) ?? []), row]);
  }
  const problems = new Map<number, string>();
  for (const rows of rowsByName.values()) {
    if (rows.length < 2) continue;
    for (const row of rows) {
      const others = rows.filter(r => r !== row).join(', ');
      problems.set(
        row,
        `offer_name is also used by New Offers row ${others}: offer names must be unique`,
      );
    }
  }
  return problems;
}

/** offer_name is unique (4.2): the account already holds an offer of this name. */
export function takenNameProblem(offerId: number | string): string {
  return `offer_name is already used by offer ${offerId} in this account: offer names must be unique`;
}
