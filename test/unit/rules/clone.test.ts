import {
  bidGoalOf,
  bidRateFor,
  capsFor,
  cloneName,
  namePatternProblem,
  uniqueName,
} from '../../../src/rules/clone';

const group = (target_geo: string, daily_cap: string) => ({
  target_geo,
  daily_cap_type: 'BUDGET',
  daily_cap,
  total_budget: 'OPEN',
});

describe('capsFor: the source budget group that covers the target geos', () => {
  const budget = [group('US', '100'), group('DE,FR', '60')];

  it('takes the group covering every target geo', () => {
    expect(capsFor(budget, ['FR'])).toEqual({
      daily_cap_type: 'BUDGET',
      daily_cap: '60',
      total_budget: 'OPEN',
      note: "caps from the source's budget group DE,FR",
    });
  });

  it('else the ALL group, else none, and says so', () => {
    expect(
      capsFor([...budget, group('ALL', '500')], ['US', 'DE']).daily_cap,
    ).toBe('500');
    expect(capsFor(budget, ['US', 'DE'])).toEqual({
      daily_cap_type: null,
      daily_cap: null,
      total_budget: null,
      note: 'caps left empty: no budget group of the source covers US,DE and it has no ALL group (type daily_cap and total_budget)',
    });
    expect(capsFor([], ['JP']).note).toBe(
      'caps left empty: the source has no budget',
    );
  });
});

describe('bidRateFor: the geo price where the source has one', () => {
  const prices = [
    {country_code: 'DE', bid_rate: '2.5'},
    {country_code: 'FR', bid_rate: '2'},
  ];

  it('one price for all the target geos, else the fallback, said', () => {
    expect(bidRateFor(1.5, prices, ['DE'])).toEqual({
      bid_rate: 2.5,
      note: "bid_rate the source's price for DE",
    });
    expect(bidRateFor(1.5, prices, ['JP'])).toEqual({bid_rate: 1.5});
    expect(bidRateFor(1.5, prices, ['DE', 'FR'])).toEqual({
      bid_rate: 1.5,
      note: "bid_rate the source's fallback price: its prices per geo differ for DE,FR, and a new offer has one price (4.2)",
    });
  });
});

describe('bidGoalOf: an OCPI goal the offers list does not return', () => {
  it('Target-CPE with an original event, Target-ROAS with events only, else none', () => {
    expect(
      bidGoalOf({target_original_event: 'purchase', target_agg_event: ['x']}),
    ).toBe('Target-CPE');
    expect(bidGoalOf({target_agg_event: ['roas_d7']})).toBe('Target-ROAS');
    expect(bidGoalOf({target_agg_event: []})).toBeUndefined();
  });
});

describe('offer names of clones', () => {
  const parts = {offer_name: 'hero', geo: 'DE', account: '', offer_id: 7};

  it('fills the placeholders; a taken name gets _2, _3, cut to 95', () => {
    expect(cloneName('{offer_name}_{geo}_{account}_{offer_id}', parts)).toEqual(
      {
        name: 'hero_DE_main_7',
      },
    );
    expect(uniqueName('hero_DE', new Set(['hero_de', 'hero_de_2']))).toBe(
      'hero_DE_3',
    );
    const long = 'x'.repeat(95);
    expect(uniqueName(long, new Set([long]))).toBe(`${'x'.repeat(93)}_2`);
  });

  it('refuses a pattern or a name the API would not take', () => {
    expect(namePatternProblem('{offer_name}_{country}')).toBe(
      'the name pattern "{offer_name}_{country}" has {country}, which is not one of {offer_name}, {geo}, {account}, {offer_id}',
    );
    expect(namePatternProblem('copy')).toBe(
      'the name pattern "copy" has no placeholder: every clone would have the same name',
    );
    expect(cloneName('{geo}', parts)).toEqual({
      problem:
        'the name pattern gives "DE", which is no offer_name: letters, digits and underscores, 3 to 95 characters (4.2)',
    });
  });
});
