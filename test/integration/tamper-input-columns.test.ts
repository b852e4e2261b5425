/**
 * A column of an input sheet (New Offers, Sub-accounts) renamed or deleted by a user, on the
 * built dist/Code.js in the local runtime against the emulator: the create puts the column back
 * and sends nothing that run, naming it, rather than sending each row without what was typed
 * under the old header; the next run goes on.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  cpiOfferRow,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  typeInto,
  typeRows,
  valuesOf,
} from '../support/offer-desk';

const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path}`);

function newOffer(): {rt: Runtime; emulator: Emulator} {
  const {rt, emulator} = offerDesk();
  rt.call('refreshCreatives');
  rt.call('createOffers');
  const campaignId = deliverableCampaign(emulator);
  const md5 = [...emulator.account('demo_adv').materials.keys()][0];
  typeRows(rt, 'New Offers', [
    cpiOfferRow(campaignId, 'offer_one', {total_budget: '5000'}),
  ]);
  typeRows(rt, 'Creative Sets', [
    {
      offer_name: 'offer_one',
      creative_set_name: 'main',
      geos: 'ALL',
      ad_outputs: '111',
      creatives: md5,
    },
  ]);
  emulator.clearRequests();
  return {rt, emulator};
}

describe('createOffers with a New Offers column renamed', () => {
  it('puts total_budget back, sends nothing and says so; the next run creates the offer with the budget typed', () => {
    const {rt, emulator} = newOffer();
    typeInto(rt, 'New Offers', 1, 'total_budget', 'Total budget');

    expect(() => rt.call('createOffers')).toThrow(
      'The New Offers sheet had no total_budget column (renamed or deleted): it is back, empty, at the end of row 1. Nothing was sent, so that no row goes out without what you typed there: fill it in (or restore your header and delete the new column), then run again.',
    );
    expect(sent(emulator)).toEqual([]);
    const headers = valuesOf(rt, 'New Offers')[0];
    expect(headers.at(-1)).toBe('total_budget');
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      'Total budget': 5000,
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
      'Total budget': 5000,
      sync_status: 'OK',
    });
  });
});
