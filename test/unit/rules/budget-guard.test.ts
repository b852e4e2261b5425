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
  it('holds a raise past 3 times the value on the server, and not one up to it', () => {
    expect(
      holdsOf([group('ALL', 500)], [group('ALL', 1500)], 'USD', DEFAULT_GUARD),
    ).toEqual([]);
    expect(
      holdsOf([group('ALL', 500)], [group('ALL', 50000)], 'USD', DEFAULT_GUARD),
    ).toEqual([
      {
        field: 'daily_cap (BUDGET, all groups)',
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
      [
        'daily_cap (BUDGET, all groups)',
        'OPEN',
        'OPEN (no limit) replaces a number',
      ],
    ]);
    expect(
      holdsOf([group('US', 500)], [group('US', 200)], 'USD', DEFAULT_GUARD),
    ).toEqual([]);
  });

  it('holds a cut below a third of the value on the server, or to 0 (issue 36)', () => {
    expect(
      holdsOf([group('ALL', 1241)], [group('ALL', 500)], 'USD', DEFAULT_GUARD),
    ).toEqual([]);
    expect(
      holdsOf([group('ALL', 1241)], [group('ALL', 400)], 'USD', DEFAULT_GUARD),
    ).toEqual([
      {
        field: 'daily_cap (BUDGET, all groups)',
        before: '1,241',
        after: '400',
        factor: 400 / 1241,
        why: 'a cut to 0.3× the value on the server (the guard holds less than 1/3 of it)',
      },
    ]);
    expect(
      holdsOf(
        [group('US', 'OPEN', 9000)],
        [group('US', 0, 9000)],
        'USD',
        DEFAULT_GUARD,
      ).map(h => [h.field, h.why]),
    ).toEqual([
      [
        'daily_cap (BUDGET, all groups)',
        'a cut to 0 (the offer stops delivering)',
      ],
    ]);
    expect(
      holdsOf([group('ALL', 1241)], [group('ALL', 500)], 'USD', {
        ...DEFAULT_GUARD,
        cutFactor: 2,
      }).map(h => h.why),
    ).toEqual([
      'a cut to 0.4× the value on the server (the guard holds less than 1/2 of it)',
    ]);
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

  it('judges what the offer gets: a split into copies multiplies it, a regroup sums it', () => {
    // ALL 100 copied into four geos: each group has its own cap, so the offer gets 400.
    expect(
      holdsOf(
        [group('ALL', 100, 1000)],
        ['US', 'GB', 'FR', 'DE'].map(g => group(g, 100, 1000)),
        'USD',
        DEFAULT_GUARD,
      ),
    ).toEqual([
      {
        field: 'daily_cap (BUDGET, all groups)',
        before: '100',
        after: '400 in 4 groups',
        factor: 4,
        why: '4× the value on the server (the guard holds more than 3×)',
      },
      {
        field: 'total_budget (all groups)',
        before: '1,000',
        after: '4,000 in 4 groups',
        factor: 4,
        why: '4× the value on the server (the guard holds more than 3×)',
      },
    ]);
    expect(
      holdsOf(
        ['US', 'GB', 'FR', 'DE'].map(g => group(g, 50, 1000)),
        [group('US,GB', 500, 2000), group('FR,DE', 500, 2000)],
        'USD',
        DEFAULT_GUARD,
      ).map(h => [h.field, h.before, h.after, h.factor]),
    ).toEqual([
      [
        'daily_cap (BUDGET, all groups)',
        '200 in 4 groups',
        '1,000 in 2 groups',
        5,
      ],
    ]);
    // Sums of amounts with decimals read as typed, not as a float's noise.
    expect(
      holdsOf(
        [group('ALL', 100, 100.1)],
        [group('US', 100, 200.1), group('GB', 100, 200.2)],
        'USD',
        DEFAULT_GUARD,
      ).map(h => h.after),
    ).toEqual(['400.3 in 2 groups']);
    // A split that shares the cap out is no raise, whatever one group gets.
    expect(
      holdsOf(
        [group('ALL', 500)],
        [group('US', 100), group('GB', 400)],
        'USD',
        DEFAULT_GUARD,
      ),
    ).toEqual([]);
  });

  it('takes a cap whose type changed as a new number: a CONVERSION cap retyped BUDGET meets the ceiling', () => {
    const settings = {...DEFAULT_GUARD, ceilings: {USD: 1000}};
    expect(
      holdsOf(
        [group('ALL', 5000, 'OPEN', 'CONVERSION')],
        [group('ALL', 5000, 'OPEN', 'BUDGET')],
        'USD',
        settings,
      ),
    ).toEqual([
      {
        field: 'daily_cap (BUDGET, all groups)',
        before: '',
        after: '5,000',
        why: 'past your USD ceiling of 1,000',
      },
    ]);
    // Lowering a cap already past the ceiling gives the offer less: nothing to confirm.
    expect(
      holdsOf([group('ALL', 5000)], [group('ALL', 4000)], 'USD', settings),
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
  it('sums money daily caps per currency, counts offers become OPEN, and conversion caps in conversions', () => {
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
      'EUR -200, USD +1,500 and OPEN on 1 offer, +4,950 conversions',
    );
  });
});

describe('readGuard: the settings the sidebar saves', () => {
  it('reads the factor and ceilings typed, and keeps what is omitted', () => {
    expect(
      readGuard({factor: '5', ceilings: 'usd 1,000, EUR: 800'}, DEFAULT_GUARD),
    ).toEqual({
      ok: true,
      settings: {
        holding: true,
        factor: 5,
        cutFactor: 3,
        ceilings: {USD: 1000, EUR: 800},
      },
    });
    expect(readGuard({holding: false}, DEFAULT_GUARD)).toEqual({
      ok: true,
      settings: {holding: false, factor: 3, cutFactor: 3, ceilings: {}},
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
