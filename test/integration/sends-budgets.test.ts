/**
 * What pushBudgets sends, body for body: the whole budget of an offer, its untouched groups as
 * the server had them, and nothing at all for an amount the API cannot mean (a negative total,
 * a number too large to go out as typed), as the built dist/Code.js runs in the local Apps
 * Script runtime against the Open API emulator.
 */
import type {BudgetGroup} from '../../local/emulator/model';
import {offerDesk, recordsOf, sheetOf, typeInto} from '../support/offer-desk';

const BUDGET_PATH = '/api/open/v3/offer/budget';

/** An ADV offer delivering to US,GB with a BUDGET group for US and a CONVERSION one for GB. */
function twoGroups() {
  const {rt, emulator} = offerDesk({offers: 2});
  const id = [...emulator.account('demo_adv').offers.keys()][0];
  const budget: BudgetGroup[] = [
    {
      target_geo: 'US',
      daily_cap_type: 'BUDGET',
      daily_cap: '100.50',
      total_budget: '1000',
    },
    {
      target_geo: 'GB',
      daily_cap_type: 'CONVERSION',
      daily_cap: '60',
      total_budget: 'OPEN',
    },
  ];
  emulator.updateOffer(id, {target_geo: 'US,GB', budget, maintain_by: 'ADV'});
  rt.call('refreshOffers');
  emulator.clearRequests();
  const row = (geo: string) =>
    recordsOf(rt, 'Budgets').findIndex(
      r => r.offer_id === id && r.country_code === geo,
    ) + 2;
  const rows = () =>
    recordsOf(rt, 'Budgets')
      .filter(r => r.offer_id === id)
      .map(r => [
        r.country_code,
        r.total_budget,
        r.sync_status,
        r.sync_message,
      ]);
  const bodies = () =>
    emulator.requests.filter(r => r.path === BUDGET_PATH).map(r => r.body);
  return {rt, emulator, id, row, rows, bodies};
}

describe('pushBudgets sends', () => {
  it('the group changed and the untouched group as the server had it', () => {
    const {rt, id, row, bodies} = twoGroups();
    typeInto(rt, 'Budgets', row('US'), 'total_budget', '2000.500');

    rt.call('pushBudgets');

    expect(bodies()).toEqual([
      {
        offer_id: id,
        budget: [
          {
            country_code: 'US',
            daily_cap_type: 'BUDGET',
            daily_cap: 100.5,
            // 4.5 types it "string or int": decimals go as text.
            total_budget: '2000.5',
          },
          {
            country_code: 'GB',
            daily_cap_type: 'CONVERSION',
            daily_cap: 60,
            total_budget: 'OPEN',
          },
        ],
      },
    ]);
  });

  it.each([['-5'], ['0']])(
    'nothing for a total_budget of %s: the row is INVALID saying why',
    typed => {
      const {rt, emulator, id, row, rows} = twoGroups();
      typeInto(rt, 'Budgets', row('US'), 'total_budget', typed);

      expect(rt.call('pushBudgets')).toMatchObject({invalid: 2, requests: 0});

      expect(emulator.requests).toEqual([]);
      expect(rows()).toEqual([
        [
          'US',
          Number(typed),
          'INVALID',
          'total_budget: must be greater than 0, or OPEN for no limit',
        ],
        [
          'GB',
          'OPEN',
          'INVALID',
          `Not sent: another row of offer ${id} is refused (row ${row('US')}: total_budget: must be greater than 0, or OPEN for no limit).`,
        ],
      ]);
    },
  );

  it.each([
    ['1e30', 1e30, '1e+30'],
    ['123456789012345678901', 123456789012345680000, '123456789012345680000'],
  ])(
    'nothing for a total_budget of %s, which would not go out as typed',
    (typed, shown, quoted) => {
      const {rt, emulator, row, rows} = twoGroups();
      typeInto(rt, 'Budgets', row('US'), 'total_budget', typed);

      expect(rt.call('pushBudgets')).toMatchObject({invalid: 2, requests: 0});

      expect(emulator.requests).toEqual([]);
      expect(rows()[0]).toEqual([
        'US',
        shown,
        'INVALID',
        `total_budget: is too large to send as typed: at most 15 digits before the decimal point (got "${quoted}")`,
      ]);
    },
  );
});

const NOT_READ =
  /^Not sent yet: the push reads the server's offer_id \d+ first \(it sends values you did not edit as last refreshed\), and reading it back failed \(.+\)\. Run the push again\.$/;

describe('pushBudgets and a budget changed on the server since the refresh', () => {
  it('reads the offer first and sends nothing where the server changed a group the user did not edit: CONFLICT, and the server keeps its change', () => {
    const {rt, emulator, id, row, rows, bodies} = twoGroups();
    emulator.updateOffer(id, {
      budget: [
        {
          target_geo: 'US',
          daily_cap_type: 'BUDGET',
          daily_cap: '100.50',
          total_budget: '1000',
        },
        {
          target_geo: 'GB',
          daily_cap_type: 'CONVERSION',
          daily_cap: '80',
          total_budget: 'OPEN',
        },
      ],
    });
    emulator.clearRequests();
    typeInto(rt, 'Budgets', row('US'), 'total_budget', '2000');

    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, requests: 1});

    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      'GET /api/open/v3/offers',
    ]);
    expect(bodies()).toEqual([]);
    const conflict = `Not sent: the server changed offer_id ${id} since the last refresh, and this push would put back what you did not edit as it was then. Refresh offers and budgets (your edits stay), check them, then push again.`;
    expect(rows()).toEqual([
      ['US', 2000, 'CONFLICT', conflict],
      ['GB', 'OPEN', 'CONFLICT', conflict],
    ]);
    expect(emulator.offerView(id)!.budget[1].daily_cap).toBe('80');
  });

  it('reads the offer first and sends the budget where the server has what was pulled', () => {
    const {rt, emulator, row, rows, bodies} = twoGroups();
    typeInto(rt, 'Budgets', row('US'), 'total_budget', '2000');

    expect(rt.call('pushBudgets')).toMatchObject({ok: 2, requests: 2});

    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      'GET /api/open/v3/offers',
      `PUT ${BUDGET_PATH}`,
    ]);
    expect(bodies()).toHaveLength(1);
    expect(rows().map(r => r[2])).toEqual(['OK', 'OK']);
  });

  it('sends nothing when the offer cannot be read first: the rows stay EDITED for the next push, which sends it', () => {
    const {rt, emulator, id, row, rows, bodies} = twoGroups();
    emulator.faults.add({kind: 'error', status: 503, method: 'GET'});
    typeInto(rt, 'Budgets', row('US'), 'total_budget', '2000');

    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, remaining: 2});

    expect(bodies()).toEqual([]);
    expect(rows()).toEqual([
      ['US', 2000, 'EDITED', expect.stringMatching(NOT_READ)],
      ['GB', 'OPEN', 'EDITED', expect.stringMatching(NOT_READ)],
    ]);
    emulator.faults.clear();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 2});
    expect(emulator.offerView(id)!.budget[0].total_budget).toBe('2000');
  });

  it('sends a budget whose every group the user edited without reading it first', () => {
    const {rt, emulator, row} = twoGroups();
    typeInto(rt, 'Budgets', row('US'), 'total_budget', '2000');
    typeInto(rt, 'Budgets', row('GB'), 'daily_cap', '90');

    expect(rt.call('pushBudgets')).toMatchObject({ok: 2, requests: 1});

    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      `PUT ${BUDGET_PATH}`,
    ]);
  });
});

describe('pushBudgets sends the groups as the rows now have them', () => {
  it('merged: US and GB typed into one row as "us, gb", the GB row deleted', () => {
    const {rt, id, row, bodies} = twoGroups();
    typeInto(rt, 'Budgets', row('US'), 'country_code', 'us, gb');
    sheetOf(rt, 'Budgets').deleteRow(row('GB'));

    expect(rt.call('pushBudgets')).toMatchObject({ok: 1});

    expect(bodies()).toEqual([
      {
        offer_id: id,
        budget: [
          {
            country_code: 'US,GB',
            daily_cap_type: 'BUDGET',
            daily_cap: 100.5,
            total_budget: 1000,
          },
        ],
      },
    ]);
  });

  it('split: the ALL group turned into US, and a GB row added with OPEN caps', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const id = [...emulator.account('demo_adv').offers.keys()][0];
    emulator.updateOffer(id, {
      target_geo: 'US,GB',
      maintain_by: 'ADV',
      budget: [
        {
          target_geo: 'ALL',
          daily_cap_type: 'BUDGET',
          daily_cap: 'OPEN',
          total_budget: '500',
        },
      ],
    });
    rt.call('refreshOffers');
    emulator.clearRequests();
    const all = recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
    typeInto(rt, 'Budgets', all, 'country_code', 'US');
    typeInto(rt, 'Budgets', all, 'daily_cap_type', 'CONVERSION');
    typeInto(rt, 'Budgets', all, 'daily_cap', '60');
    const added = recordsOf(rt, 'Budgets').length + 2;
    for (const [header, text] of Object.entries({
      offer_id: String(id),
      country_code: 'GB',
      daily_cap_type: 'BUDGET',
      daily_cap: 'open',
      total_budget: 'OPEN',
    }))
      typeInto(rt, 'Budgets', added, header, text);

    expect(rt.call('pushBudgets')).toMatchObject({ok: 2, requests: 1});

    expect(emulator.requests.map(r => r.body)).toEqual([
      {
        offer_id: id,
        budget: [
          {
            country_code: 'US',
            daily_cap_type: 'CONVERSION',
            daily_cap: 60,
            total_budget: 500,
          },
          {
            country_code: 'GB',
            daily_cap_type: 'BUDGET',
            daily_cap: 'OPEN',
            total_budget: 'OPEN',
          },
        ],
      },
    ]);
  });
});
