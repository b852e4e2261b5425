import {
  BudgetGroupInput,
  checkBudget,
  isRefused,
} from '../../../src/rules/budget';

const group = (fields: Partial<BudgetGroupInput> = {}): BudgetGroupInput => ({
  country_code: 'ALL',
  daily_cap_type: 'BUDGET',
  daily_cap: 100,
  total_budget: 1000,
  ...fields,
});

describe('checkBudget', () => {
  it('accepts one ALL group, or per-geo groups covering every delivery geo once', () => {
    expect(isRefused(checkBudget([group()], 'US,GB'))).toBe(false);
    expect(
      isRefused(
        checkBudget(
          [group({country_code: 'US'}), group({country_code: 'GB'})],
          'US,GB',
        ),
      ),
    ).toBe(false);
    expect(
      isRefused(
        checkBudget(
          [
            group({
              country_code: 'US,GB',
              daily_cap: 'OPEN',
              total_budget: 'OPEN',
            }),
          ],
          'US,GB',
        ),
      ),
    ).toBe(false);
    expect(
      isRefused(
        checkBudget(
          [group({daily_cap_type: 'CONVERSION', daily_cap: 60})],
          'US',
        ),
      ),
    ).toBe(false);
  });

  it.each<[string, BudgetGroupInput[], string, object]>([
    [
      'no group at all',
      [],
      'US',
      {budget: {budget: 'the offer needs at least one budget row'}},
    ],
    [
      'ALL mixed with per-geo groups',
      [group(), group({country_code: 'US'})],
      'US,GB',
      {
        groups: [
          {country_code: 'either one ALL budget or budgets per geo, not both'},
          {country_code: 'either one ALL budget or budgets per geo, not both'},
        ],
      },
    ],
    [
      'ALL and geos in one group',
      [group({country_code: 'ALL,US'})],
      'US',
      {
        groups: [
          {country_code: 'either one ALL budget or budgets per geo, not both'},
        ],
      },
    ],
    [
      'ALL twice',
      [group(), group()],
      'US',
      {
        groups: [
          {
            country_code:
              'ALL is in more than one group: an offer has a single ALL budget',
          },
          {
            country_code:
              'ALL is in more than one group: an offer has a single ALL budget',
          },
        ],
      },
    ],
    [
      'a geo the offer does not deliver to',
      [group({country_code: 'US'}), group({country_code: 'FR'})],
      'US',
      {
        groups: [
          {},
          {
            country_code:
              'FR cannot take a budget: it is not a delivery geo of the offer (allowed geos: US)',
          },
        ],
      },
    ],
    [
      'per-geo groups on an offer delivering to ALL',
      [group({country_code: 'US'})],
      'ALL',
      {
        groups: [
          {
            country_code:
              'US cannot take a budget: the offer delivers to ALL geos, so its budget is one ALL group',
          },
        ],
      },
    ],
    [
      'a geo in two groups',
      [group({country_code: 'US,GB'}), group({country_code: 'GB'})],
      'US,GB',
      {
        groups: [
          {
            country_code:
              'GB is in more than one group: each delivery geo takes one budget',
          },
          {
            country_code:
              'GB is in more than one group: each delivery geo takes one budget',
          },
        ],
      },
    ],
    [
      'a delivery geo without a budget',
      [group({country_code: 'US'})],
      'US,GB,DE',
      {
        budget: {
          budget:
            'delivery geos without a budget: GB,DE: per-geo budgets must cover every delivery geo once',
        },
      },
    ],
    [
      'an empty country_code',
      [group({country_code: null})],
      'US',
      {
        groups: [
          {
            country_code: 'is empty: write ALL or geo codes of the offer',
          },
        ],
      },
    ],
    [
      'a daily_cap_type other than BUDGET or CONVERSION',
      [group({daily_cap_type: 'CLICKS'})],
      'US',
      {
        groups: [{daily_cap_type: 'must be BUDGET or CONVERSION'}],
      },
    ],
    [
      'an empty daily_cap_type',
      [group({daily_cap_type: null})],
      'US',
      {
        groups: [{daily_cap_type: 'must be BUDGET or CONVERSION'}],
      },
    ],
    [
      'an empty daily_cap',
      [group({daily_cap: null})],
      'US',
      {
        groups: [
          {daily_cap: 'is empty: write a number of at least 50, or OPEN'},
        ],
      },
    ],
    [
      'an empty total_budget',
      [group({total_budget: null})],
      'US',
      {groups: [{total_budget: 'is empty: write a number, or OPEN'}]},
    ],
    [
      'a daily_cap below 50',
      [group({daily_cap: 49.999})],
      'US',
      {groups: [{daily_cap: 'at least 50'}]},
    ],
    [
      'a fractional CONVERSION cap',
      [group({daily_cap_type: 'CONVERSION', daily_cap: 60.5})],
      'US',
      {
        groups: [
          {
            daily_cap:
              'daily_cap must be a whole number when daily_cap_type is CONVERSION',
          },
        ],
      },
    ],
    [
      'a daily_cap with four decimals',
      [group({daily_cap: 60.1234})],
      'US',
      {groups: [{daily_cap: 'daily_cap may have 3 decimals at most'}]},
    ],
    [
      'a total_budget with four decimals',
      [group({total_budget: 10.0001})],
      'US',
      {groups: [{total_budget: 'total_budget may have 3 decimals at most'}]},
    ],
  ])('refuses %s with its message', (_, groups, geos, expected) => {
    const verdict = checkBudget(groups, geos);
    expect(isRefused(verdict)).toBe(true);
    expect(verdict).toMatchObject(expected);
  });

  it('does not report again a cell that could not be read (undefined)', () => {
    const verdict = checkBudget(
      [group({daily_cap: undefined, country_code: undefined})],
      'US',
    );
    expect(verdict).toEqual({groups: [{}], budget: {}});
  });
});
