/**
 * The budget rules of 4.2: daily_cap_type, daily_cap and total_budget, each empty or OPEN for
 * no limit.
 */
import {Check, OfferBody} from './offer-check';
import {excerpt, parseInteger} from './values';

export const DAILY_CAP_TYPES = ['BUDGET', 'CONVERSION'] as const;

/** What the user may type for "no limit" in a budget cell (DESIGN 4.3). */
const OPEN = 'OPEN';

function isOpen(c: Check, field: string): boolean {
  return c.blank(field) || c.text(field).toUpperCase() === OPEN;
}

/** daily_cap_type, daily_cap and total_budget, into the body. */
export function budget(c: Check, body: Partial<OfferBody>): void {
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
