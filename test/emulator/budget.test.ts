import type {Emulator} from '../../local/emulator';
import {api, call, MAIN, OTHER, setup} from './helpers';

function findOffer(
  emulator: Emulator,
  test: (offer: {target_geo: string; maintain_by: string}) => boolean,
) {
  return [...emulator.account(MAIN).offers.values()].find(test)!;
}

describe('PUT offer/budget', () => {
  const {emulator} = setup();
  const multiGeo = findOffer(
    emulator,
    o => o.maintain_by === 'ADV' && o.target_geo.split(',').length >= 3,
  );
  const [g1, g2, g3] = multiGeo.target_geo.split(',');
  const allGeo = findOffer(
    emulator,
    o => o.maintain_by === 'ADV' && o.target_geo === 'ALL',
  );
  const put = (budget: unknown, offerId: unknown = multiGeo.offer_id) =>
    call(emulator, 'PUT', api('offer/budget'), {
      json: {offer_id: offerId, budget},
    }).json;
  const group = (
    country_code: string,
    fields: Record<string, unknown> = {},
  ) => ({
    country_code,
    daily_cap_type: 'BUDGET',
    daily_cap: 100,
    total_budget: 'OPEN',
    ...fields,
  });
  const budgetError = (field: string, text: string) => ({
    code: 11423,
    msg: 'budget is error!',
    data: {[field]: text},
  });

  it('replaces the whole budget with one ALL group', () => {
    expect(
      put([group('ALL', {daily_cap: 'OPEN', total_budget: '5000'})]),
    ).toEqual({
      code: 200,
      msg: 'success',
      data: {},
    });
    expect(emulator.offerView(multiGeo.offer_id)!.budget).toEqual([
      {
        target_geo: 'ALL',
        daily_cap_type: 'BUDGET',
        daily_cap: 'OPEN',
        total_budget: '5000',
      },
    ]);
  });

  it('replaces it with per-geo groups covering each delivery geo once', () => {
    const groups = [
      group(`${g1},${g2}`, {daily_cap_type: 'CONVERSION', daily_cap: 60}),
      group(g3, {total_budget: 250.125}),
      ...multiGeo.target_geo
        .split(',')
        .slice(3)
        .map(geo => group(geo)),
    ];
    expect(put(groups).code).toBe(200);
    expect(emulator.offerView(multiGeo.offer_id)!.budget[0]).toEqual({
      target_geo: `${g1},${g2}`,
      daily_cap_type: 'CONVERSION',
      daily_cap: '60',
      total_budget: 'OPEN',
    });
  });

  it('accepts the budget as JSON text', () => {
    expect(put(JSON.stringify([group('ALL')])).code).toBe(200);
  });

  it.each([
    ['missing', undefined],
    ['empty', []],
    ['an empty string', ''],
  ])('answers 10000 when budget is %s', (_name, budget) => {
    expect(put(budget)).toEqual({
      code: 10000,
      msg: 'error',
      data: {budget: 'The budget field is required.'},
    });
  });

  it.each([
    ['text that is not JSON', '[{country_code:'],
    ['a number', 5],
    ['a JSON object', {country_code: 'ALL'}],
  ])('answers 10000 when budget is %s', (_name, budget) => {
    expect(put(budget)).toEqual({
      code: 10000,
      msg: 'error',
      data: {budget: 'budget is not json string!'},
    });
  });

  it('refuses ALL mixed with per-geo budgets', () => {
    expect(put([group('ALL'), group(g1)])).toEqual(
      budgetError(
        'country_code',
        'you can only set ALL budget or special budget!',
      ),
    );
  });

  it('refuses a geo outside the delivery geos, naming it and the allowed geos', () => {
    expect(put([group('ZZ'), group(multiGeo.target_geo)])).toEqual(
      budgetError(
        'country_code',
        `ZZ cannot set a budget on this offer; allowed geos: ${multiGeo.target_geo}`,
      ),
    );
    expect(put([group('US')], allGeo.offer_id)).toEqual(
      budgetError(
        'country_code',
        'US cannot set a budget on this offer; allowed geos: ALL',
      ),
    );
  });

  it('refuses per-geo budgets that miss a delivery geo or repeat one', () => {
    expect(put([group(g1), group(g2)])).toEqual(
      budgetError(
        'budget',
        `every delivery geo needs a budget; missing: ${multiGeo.target_geo
          .split(',')
          .slice(2)
          .join(',')}`,
      ),
    );
    expect(put([group(multiGeo.target_geo), group(g1)])).toEqual(
      budgetError(
        'budget',
        `each delivery geo takes one budget; set more than once: ${g1}`,
      ),
    );
  });

  it.each([
    [
      'an invalid daily_cap_type',
      {daily_cap_type: 'CLICKS'},
      ['daily_cap_type', 'daily_cap_type must be BUDGET or CONVERSION!'],
    ],
    [
      'a missing daily_cap',
      {daily_cap: undefined},
      ['daily_cap', 'daily_cap is empty!'],
    ],
    [
      'a missing total_budget',
      {total_budget: null},
      ['total_budget', 'total_budget is empty!'],
    ],
    [
      'a daily_cap below 50',
      {daily_cap: 49},
      ['daily_cap', 'daily_cap cannot less than 50!'],
    ],
    [
      'a daily_cap neither OPEN nor a number',
      {daily_cap: 'unlimited'},
      ['daily_cap', 'daily_cap cannot less than 50!'],
    ],
    [
      'a CONVERSION daily_cap with decimals',
      {daily_cap_type: 'CONVERSION', daily_cap: 50.5},
      [
        'daily_cap',
        'daily_cap must be an integer when daily_cap_type is CONVERSION!',
      ],
    ],
    [
      'a total_budget of 0',
      {total_budget: 0},
      ['total_budget', 'total_budget must be OPEN or a number greater than 0!'],
    ],
  ])('answers 11423 for %s', (_name, fields, [field, text]) => {
    expect(put([group('ALL', fields)])).toEqual(budgetError(field, text));
  });

  it('refuses an unknown offer, or one of another account, with 10000', () => {
    const foreign = [...emulator.account(OTHER).offers.values()][0];
    expect(put([group('ALL')], foreign.offer_id)).toEqual({
      code: 10000,
      msg: 'error',
      data: {offer_id: 'The selected offer_id is invalid.'},
    });
  });

  it('refuses an offer maintained by AM with 10007', () => {
    const managed = findOffer(emulator, o => o.maintain_by === 'AM');
    expect(put([group('ALL')], managed.offer_id)).toEqual({
      code: 10007,
      msg: 'offer is maintained by AM and cannot be edited',
      data: {
        offer_id: `The offer ${managed.offer_id} is maintained by AM: view only.`,
      },
    });
  });
});
