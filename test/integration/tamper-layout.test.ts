/**
 * What users do to the layout of a sheet, on the built dist/Code.js in the local runtime
 * against the emulator: the header row moved down, a column copied with its header.
 */
import {recordsOf, sheetOf, typeInto, valuesOf} from '../support/offer-desk';
import {budgetsPulled} from '../support/history';

describe('the header row moved down (rows inserted above it)', () => {
  it('refresh and push name the row the headers are in and how to put them back, changing nothing; with the rows deleted the push sends the edit', () => {
    const {rt, emulator, ids} = budgetsPulled(2, {}, 'US,GB');
    emulator.clearRequests();
    typeInto(rt, 'Budgets', 2, 'daily_cap', '200');
    sheetOf(rt, 'Budgets').insertRowsBefore(1, 2);
    const before = valuesOf(rt, 'Budgets');

    const refused =
      'The Budgets sheet has its headers in row 3, not row 1, where Offer Desk reads them: delete the empty rows above them. Nothing was changed.';
    expect(() => rt.call('refreshOffers')).toThrow(refused);
    expect(() => rt.call('pushBudgets')).toThrow(refused);
    expect(valuesOf(rt, 'Budgets')).toEqual(before);
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);

    // A title typed above, or records sorted there: never "delete the rows above".
    typeInto(rt, 'Budgets', 1, 'offer_id', 'My budgets');
    expect(() => rt.call('pushBudgets')).toThrow(
      'The Budgets sheet has its headers in row 3, not row 1, where Offer Desk reads them: move the header row back to row 1 (undo the sort or the move that put rows above it). Nothing was changed.',
    );

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

describe('a column of the add-on copied, header and all', () => {
  it('the push names both columns and sends nothing, the refresh leaves the copy as it is; with the copy renamed the push goes on', () => {
    const {rt, emulator} = budgetsPulled(2, {}, 'US,GB');
    emulator.clearRequests();
    const sheet = sheetOf(rt, 'Budgets');
    const cap = valuesOf(rt, 'Budgets')[0].indexOf('daily_cap') + 1;
    sheet.insertColumnsAfter(sheet.getLastColumn(), 1);
    const copy = sheet.getLastColumn() + 1;
    sheet
      .getRange(1, copy, 3, 1)
      .setValues(sheet.getRange(1, cap, 3, 1).getValues());
    sheet.getRange(2, copy).setValue(250);

    expect(() => rt.call('pushBudgets')).toThrow(
      'The Budgets sheet has 2 daily_cap columns (H, N): Offer Desk reads the first, so what is typed in the others would count for nothing. Rename or delete all but one, then run again; nothing was sent.',
    );
    rt.call('refreshOffers');
    expect(recordsOf(rt, 'Budgets').map(r => r.sync_status)).toEqual(['', '']);
    expect(sheet.getRange(2, copy).getValue()).toBe(250);
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);

    sheet.getRange(1, copy).setValue('my cap');
    const summary = rt.call('pushBudgets') as Record<string, unknown>;
    expect(summary).toMatchObject({ok: 0, invalid: 0, skipped: 2});
  });
});
