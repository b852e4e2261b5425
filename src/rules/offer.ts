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
 *
 * One file per rule family: offer-pricing.ts, offer-budget.ts, offer-schedule.ts and
 * offer-targeting.ts; what they share is in offer-check.ts.
 */
import type {FieldMessages} from './maintain';
import {budget} from './offer-budget';
import {Cells, Check, OfferBody} from './offer-check';
import {pricing} from './offer-pricing';
import {schedule, times} from './offer-schedule';
import {devices, osVersions, targetGeo} from './offer-targeting';
import {TRACKING_FIELDS} from './tracking';
import {excerpt, lengthProblem, parseInteger, parseNumber} from './values';

export type {Cells, OfferBody} from './offer-check';
export {DAILY_CAP_TYPES} from './offer-budget';
export {
  BILLING_TYPES,
  OCPI_BID_GOALS,
  TARGET_GOAL_WINDOWS,
} from './offer-pricing';

/** UTC offsets in use run from -12 to +14; the time-zone enumeration is not shown. */
export const TIMEZONE_RANGE = [-12, 14] as const;
export const OFFER_NAME_LENGTH = [3, 95] as const;

export interface OfferCheck {
  /** Field -> its message, which names the field: `bid_rate must be ...`. */
  problems: FieldMessages;
  /** Present when there are no problems. */
  body?: OfferBody;
  /** What was typed and left out of the body, and why: for the row's message. */
  notes: string[];
}

/** Checks a New Offers row against 4.2 and builds its request body. */
export function checkNewOffer(
  cells: Cells,
  unread: Readonly<Record<string, string>> = {},
): OfferCheck {
  const c = new Check(cells, unread);
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

  // In the order of the columns, so that a row's messages read left to right.
  times(c, body);
  targetGeo(c, body);
  pricing(c, body);
  budget(c, body);
  osVersions(c, body);
  schedule(c, body);
  devices(c, body);
  return Object.keys(c.problems).length > 0
    ? {problems: c.problems, notes: c.notes}
    : {problems: {}, body: body as OfferBody, notes: c.notes};
}

function offerName(c: Check): string | undefined {
  if (c.present('offer_name') === undefined) return undefined;
  return c.word('offer_name', OFFER_NAME_LENGTH);
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
