/**
 * Formulas users put in the cells the add-on reads, on the built dist/Code.js in the local
 * runtime against the emulator: a name built by a formula is that name; a formula that gives
 * an error is said to, never sent as text.
 */
import type {Runtime} from '../../local/runtime';
import {budgetsPulled} from '../support/history';
import {
  offerDesk,
  recordsOf,
  sheetOf,
  valuesOf,
  newOffersTyped,
} from '../support/offer-desk';

/** Puts a formula into the cell under `header`, as a user would in a cell not plain text. */
function formula(
  rt: Runtime,
  sheet: string,
  row: number,
  header: string,
  text: string,
): void {
  const column = valuesOf(rt, sheet)[0].indexOf(header) + 1;
  sheetOf(rt, sheet).getRange(row, column).setFormula(text);
}

describe('createOffers with offer_name and creative_set_name built by formulas', () => {
  it('writes each offer_id and status on its row; a re-run sends nothing', () => {
    const {rt, emulator} = newOffersTyped({offer_one: {}, offer_two: {}});
    formula(rt, 'New Offers', 2, 'offer_name', '="offer"&"_one"');
    formula(rt, 'Creative Sets', 3, 'creative_set_name', '="ma"&"in"');

    const summary = rt.call('createOffers') as {message: string};

    expect(summary.message).toBe(
      '2 OK, 0 invalid, 0 error, 0 unchanged new offer rows (main account). You confirmed 2 offers with no budget limit past the budget guard.',
    );
    const made = emulator.requests
      .filter(r => r.method === 'POST')
      .map(r => (r.body as {offer_name: string}).offer_name);
    expect(made).toEqual(['offer_one', 'offer_two']);
    const ids = recordsOf(rt, 'New Offers').map(r => r.offer_id);
    expect(
      recordsOf(rt, 'New Offers').map(r => [
        r.offer_name,
        r.sync_status,
        r.sync_message,
      ]),
    ).toEqual([
      ['offer_one', 'OK', `Offer ${ids[0]} created; tracking set.`],
      ['offer_two', 'OK', `Offer ${ids[1]} created; tracking set.`],
    ]);
    expect(typeof ids[0]).toBe('number');
    expect(recordsOf(rt, 'Creative Sets').map(r => r.sync_message)).toEqual([
      `Part of offer ${ids[0]}.`,
      `Part of offer ${ids[1]}.`,
    ]);

    emulator.clearRequests();
    rt.call('createOffers');
    expect(emulator.requests).toEqual([]);
  });
});

describe('a formula that gives an error', () => {
  it('in a text column of Campaigns (description) is INVALID saying so, not sent as the text #REF!', () => {
    const {rt, emulator} = offerDesk({offers: 1});
    const ids = [...emulator.account('demo_adv').campaigns.keys()];
    for (const id of ids) emulator.updateCampaign(id, {maintain_by: 'ADV'});
    rt.call('refreshCampaigns');
    emulator.clearRequests();
    formula(rt, 'Campaigns', 2, 'description', '=#REF!');

    rt.call('pushCampaigns');

    expect(emulator.requests.filter(r => r.method === 'PUT')).toEqual([]);
    expect(recordsOf(rt, 'Campaigns')[0]).toMatchObject({
      description: '#REF!',
      sync_status: 'INVALID',
      sync_message:
        'description: shows #REF!, the error of its formula "=#REF!": fix the formula or type the value',
    });
    expect(
      sheetOf(rt, 'Campaigns').getRange(2, 1, 1, 20).getFormulas()[0],
    ).toContain('=#REF!');
  });

  it('in New Offers (network, bid_rate): the row is INVALID naming each cell, nothing is sent for it', () => {
    const {rt, emulator} = newOffersTyped({offer_one: {}, offer_two: {}});
    formula(rt, 'New Offers', 2, 'network', '=1/0');
    formula(rt, 'New Offers', 2, 'bid_rate', '=#REF!*2');

    rt.call('createOffers');

    expect(
      emulator.requests
        .filter(r => r.method === 'POST')
        .map(r => (r.body as {offer_name: string}).offer_name),
    ).toEqual(['offer_two']);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: '',
      sync_status: 'INVALID',
      sync_message:
        'bid_rate shows #REF!, the error of its formula "=#REF!*2": fix the formula or type the value; network shows #DIV/0!, the error of its formula "=1/0": fix the formula or type the value. Nothing was sent.',
    });
  });
});

describe('pushBudgets, which reads the formulas of Budgets only in rows whose values need them', () => {
  it('a daily_cap showing #DIV/0! is INVALID naming its formula; a row empty but for a formula showing nothing is no blank row; the others go out as typed', () => {
    const {rt, emulator, ids, rowOf, cap} = budgetsPulled(3);
    formula(rt, 'Budgets', rowOf(ids[0]), 'daily_cap', '=1/0');
    formula(rt, 'Budgets', rowOf(ids[1]), 'daily_cap', '=100*3');
    cap(ids[2], '400');
    const below = recordsOf(rt, 'Budgets').length + 3;
    formula(rt, 'Budgets', below, 'daily_cap', '=""');
    emulator.clearRequests();

    rt.call('pushBudgets');

    const sent = emulator.requests
      .filter(r => r.method === 'PUT')
      .map(r => {
        const body = r.body as {
          offer_id: number;
          budget: Array<{daily_cap: unknown}>;
        };
        return [body.offer_id, body.budget[0].daily_cap];
      });
    expect(sent).toEqual([
      [ids[1], 300],
      [ids[2], 400],
    ]);
    const rows = recordsOf(rt, 'Budgets');
    expect(rows.find(r => r.offer_id === ids[0])).toMatchObject({
      daily_cap: '#DIV/0!',
      sync_status: 'INVALID',
    });
    expect(rows.find(r => r.offer_id === ids[0])!.sync_message).toContain(
      'daily_cap: shows #DIV/0!, the error of its formula "=1/0": fix the formula or type the value',
    );
    expect(rows.find(r => r.offer_id === ids[1])!.sync_status).toBe('OK');
    const [header] = valuesOf(rt, 'Budgets');
    const blank = valuesOf(rt, 'Budgets')[below - 1];
    expect(blank[header.indexOf('sync_status')]).toBe('INVALID');
    expect(blank[header.indexOf('sync_message')]).toBe(
      "offer_id is empty: rows here are matched with the API's records by offer_id; fill it or delete the row.",
    );
  });
});
