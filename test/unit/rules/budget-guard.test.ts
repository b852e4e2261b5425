import {
  DEFAULT_GUARD,
  GuardGroup,
  capTotals,
  holdsOf,
  readGuard,
  totalsText,
} from '../../../src/rules/budget-guard';

const group = (
  country_code: string,
  daily_cap: number | 'OPEN',
  total_budget: number | 'OPEN' = 'OPEN',
  daily_cap_type = 'BUDGET',
): GuardGroup => ({country_code, daily_cap_type, daily_cap, total_budget});

describe('holdsOf: the budget changes that wait for a yes', () => {
  it('holds a raise past 3 times the last pulled value, and not one up to it', () => {
    expect(
      holdsOf([group('ALL', 500)], [group('ALL', 1500)], 'USD', DEFAULT_GUARD),
    ).toEqual([]);
    expect(
      holdsOf([group('ALL', 500)], [group('ALL', 50000)], 'USD', DEFAULT_GUARD),
    ).toEqual([
      {
        field: 'daily_cap [ALL]',
        before: '500',
        after: '50,000',
        factor: 100,
        why: '100× the value on the server (the guard holds more than 3×)',
      },
    ]);
  });

  it('holds a number replaced with OPEN, not an OPEN kept or a number lowered', () => {
    expect(
      holdsOf(
        [group('US', 500, 9000)],
        [group('US', 'OPEN', 9000)],
        'USD',
        DEFAULT_GUARD,
      ).map(h => [h.field, h.after, h.why]),
    ).toEqual([
      ['daily_cap [US]', 'OPEN', 'OPEN (no limit) replaces a number'],
    ]);
    expect(
      holdsOf([group('US', 500)], [group('US', 60)], 'USD', DEFAULT_GUARD),
    ).toEqual([]);
  });

  it('holds a money daily cap past the ceiling of the offer currency only', () => {
    const settings = {...DEFAULT_GUARD, ceilings: {USD: 1000}};
    expect(
      holdsOf([group('ALL', 900)], [group('ALL', 1200)], 'usd', settings).map(
        h => h.why,
      ),
    ).toEqual(['past your USD ceiling of 1,000']);
    expect(
      holdsOf([group('ALL', 900)], [group('ALL', 1200)], 'EUR', settings),
    ).toEqual([]);
    // A CONVERSION cap counts conversions, not money.
    expect(
      holdsOf(
        [group('ALL', 900, 'OPEN', 'CONVERSION')],
        [group('ALL', 1200, 'OPEN', 'CONVERSION')],
        'USD',
        settings,
      ),
    ).toEqual([]);
  });

  it('compares a split with the group it replaces, and a new group beside others with nothing', () => {
    expect(
      holdsOf(
        [group('ALL', 500)],
        [group('US', 500), group('GB', 500)],
        'USD',
        DEFAULT_GUARD,
      ),
    ).toEqual([]);
    expect(
      holdsOf(
        [group('ALL', 500)],
        [group('US', 500), group('GB', 5000)],
        'USD',
        DEFAULT_GUARD,
      ).map(h => [h.field, h.before, h.after]),
    ).toEqual([['daily_cap [GB]', '500', '5,000']]);
    expect(
      holdsOf(
        [group('US', 500)],
        [group('US', 500), group('GB,CA', 9000)],
        'USD',
        DEFAULT_GUARD,
      ),
    ).toEqual([]);
  });

  it('holds nothing when holding is off', () => {
    expect(
      holdsOf([group('ALL', 500)], [group('ALL', 'OPEN')], 'USD', {
        ...DEFAULT_GUARD,
        holding: false,
      }),
    ).toEqual([]);
  });
});

describe('the daily cap a whole push adds, per currency', () => {
  it('sums money daily caps per currency, counts new OPENs, and conversion caps in conversions', () => {
    const totals = capTotals([
      {
        currency: 'USD',
        before: [group('ALL', 500)],
        after: [group('ALL', 2000)],
      },
      {
        currency: 'usd',
        before: [group('US', 100)],
        after: [group('US', 'OPEN')],
      },
      {
        currency: 'EUR',
        before: [group('ALL', 800)],
        after: [group('ALL', 600)],
      },
      {
        currency: 'EUR',
        before: [group('ALL', 50, 'OPEN', 'CONVERSION')],
        after: [group('ALL', 5000, 'OPEN', 'CONVERSION')],
      },
    ]);
    expect(totalsText(totals)).toBe(
      'EUR -200, USD +1,500 and OPEN on 1 group, +4,950 conversions',
    );
  });
});

describe('readGuard: the settings the sidebar saves', () => {
  it('reads the factor and ceilings typed, and keeps what is omitted', () => {
    expect(
      readGuard({factor: '5', ceilings: 'usd 1,000, EUR: 800'}, DEFAULT_GUARD),
    ).toEqual({
      ok: true,
      settings: {holding: true, factor: 5, ceilings: {USD: 1000, EUR: 800}},
    });
    expect(readGuard({holding: false}, DEFAULT_GUARD)).toEqual({
      ok: true,
      settings: {holding: false, factor: 3, ceilings: {}},
    });
  });

  it('says what to type for a factor or a ceiling it cannot read', () => {
    expect(
      readGuard({factor: '1', ceilings: 'dollars 5'}, DEFAULT_GUARD),
    ).toEqual({
      ok: false,
      problems: {
        factor:
          'must be a number from 1.1 to 1000 (hold a raise to more than this many times the value on the server), not "1"',
        ceilings:
          'must be a currency code of three letters and an amount, such as "USD 1000, EUR 800" (not "dollars")',
      },
    });
    expect(readGuard({ceilings: 'USD -4'}, DEFAULT_GUARD)).toEqual({
      ok: false,
      problems: {
        ceilings: 'USD needs an amount above 0, such as "USD 1000" (not "-4")',
      },
    });
  });
});
