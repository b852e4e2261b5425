/**
 * A column of an input sheet (New Offers, Sub-accounts) renamed or deleted by a user, on the
 * built dist/Code.js in the local runtime against the emulator: the create puts the column back
 * and sends nothing that run, naming it, rather than sending each row without what was typed
 * under the old header; the next run goes on.
 */
import type {Emulator} from '../../local/emulator';
import {
  recordsOf,
  typeInto,
  valuesOf,
  newOffersTyped,
} from '../support/offer-desk';
import {budgetsPulled, capSent} from '../support/history';

const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path}`);

describe('createOffers with a New Offers column renamed', () => {
  it('puts total_budget back, sends nothing and says so; the next run creates the offer with the budget typed', () => {
    const {rt, emulator} = newOffersTyped(
      {offer_one: {total_budget: '5000'}},
      30,
    );
    typeInto(rt, 'New Offers', 1, 'total_budget', 'budget total');

    expect(() => rt.call('createOffers')).toThrow(
      'The New Offers sheet had no total_budget column (renamed or deleted): it is back, empty, at the end of row 1. Nothing was sent, so that no row goes out without what you typed there: fill it in (or restore your header and delete the new column), then run again.',
    );
    expect(sent(emulator)).toEqual([]);
    const headers = valuesOf(rt, 'New Offers')[0];
    expect(headers.at(-1)).toBe('total_budget');
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      'budget total': 5000,
      total_budget: '',
      offer_id: '',
      sync_status: '',
    });

    typeInto(rt, 'New Offers', 2, 'total_budget', '5000');
    rt.call('createOffers');

    const create = emulator.requests.find(r => r.method === 'POST')!;
    expect(create.body).toMatchObject({
      offer_name: 'offer_one',
      total_budget: 5000,
    });
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      'budget total': 5000,
      sync_status: 'OK',
    });
  });
});

describe('a header retyped in other case or with spaces', () => {
  it('(Daily Cap in Budgets) is still daily_cap: the push sends its edit, a refresh adds no column and keeps the next edit', () => {
    const {rt, emulator, ids} = budgetsPulled(2, {}, 'US,GB');
    emulator.clearRequests();
    typeInto(rt, 'Budgets', 1, 'daily_cap', 'Daily Cap');
    typeInto(rt, 'Budgets', 2, 'Daily Cap', '200');

    rt.call('pushBudgets');
    expect(
      emulator.requests.filter(r => r.method === 'PUT').map(r => r.body),
    ).toEqual([capSent(ids[0], 200)]);

    typeInto(rt, 'Budgets', 3, 'Daily Cap', '300');
    rt.call('refreshOffers');
    expect(valuesOf(rt, 'Budgets')[0]).not.toContain('daily_cap');
    expect(recordsOf(rt, 'Budgets')[1]).toMatchObject({
      'Daily Cap': 300,
      sync_status: 'EDITED',
    });
    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(
      emulator.requests.filter(r => r.method === 'PUT').map(r => r.body),
    ).toEqual([capSent(ids[1], 300)]);
  });
});
