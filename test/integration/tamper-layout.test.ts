/**
 * What users do to the layout of a sheet, on the built dist/Code.js in the local runtime
 * against the emulator: the header row moved down.
 */
import {
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';

describe('the header row moved down (rows inserted above it)', () => {
  it('refresh and push name the row the headers are in and change nothing; with the rows deleted the push sends the edit', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const ids = [...emulator.account('demo_adv').offers.keys()];
    for (const id of ids)
      emulator.updateOffer(id, {
        maintain_by: 'ADV',
        target_geo: 'US,GB',
        budget: [
          {
            target_geo: 'ALL',
            total_budget: '1000',
            daily_cap_type: 'BUDGET',
            daily_cap: '100',
          },
        ],
      });
    rt.call('refreshOffers');
    emulator.clearRequests();
    typeInto(rt, 'Budgets', 2, 'daily_cap', '200');
    sheetOf(rt, 'Budgets').insertRowsBefore(1, 2);
    typeInto(rt, 'Budgets', 1, 'offer_id', 'My budgets');
    const before = valuesOf(rt, 'Budgets');

    const refused =
      'The Budgets sheet has its headers in row 3, not row 1, where Offer Desk reads them: delete the rows above them (or move the header row back to the top).';
    expect(() => rt.call('refreshOffers')).toThrow(refused);
    expect(() => rt.call('pushBudgets')).toThrow(refused);
    expect(valuesOf(rt, 'Budgets')).toEqual(before);
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);

    sheetOf(rt, 'Budgets').deleteRows(1, 2);
    rt.call('pushBudgets');
    expect(
      emulator.requests.filter(r => r.method === 'PUT').map(r => r.body),
    ).toEqual([
      {
        offer_id: ids[0],
        budget: [
          {
            country_code: 'ALL',
            daily_cap_type: 'BUDGET',
            daily_cap: 200,
            total_budget: 1000,
          },
        ],
      },
    ]);
    expect(recordsOf(rt, 'Budgets')[0].sync_status).toBe('OK');
  });
});
