/**
 * Envelopes off the API document's (2.1: code 200 is success, msg 'success'). A failure code
 * whose msg says success is a dialect (some services call success 0), not a refusal: for a
 * write it proves nothing, so the create is looked up by name and the replace read back,
 * rather than the row saying nothing was done while the server did it. A code given as text
 * (`"200"`, `"10500"`) means the number it spells.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  cpiOfferRow as cpi,
  deliverableCampaign,
  offerDesk,
  offersPulled,
  recordsOf,
  typeInto,
  typeRows,
} from '../support/offer-desk';

const OFFER = '/api/open/v3/offer';
const OFFERS = '/api/open/v3/offers';
const TRACKING = '/api/open/v3/tracking';
const BUDGET = '/api/open/v3/offer/budget';

const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path}`);

/** One CPI offer to create, its creative set on a material the account has. */
function oneOffer(rt: Runtime, emulator: Emulator, name: string): void {
  rt.call('createOffers');
  const [md5, material] = [...emulator.account('demo_adv').materials][0];
  typeRows(rt, 'Creatives', [
    {creative_md5: md5, creative_name: material.creative_name},
  ]);
  typeRows(rt, 'New Offers', [cpi(deliverableCampaign(emulator), name)]);
  typeRows(rt, 'Creative Sets', [
    {
      offer_name: name,
      creative_set_name: `${name}_set`,
      geos: 'ALL',
      ad_outputs: '111',
      creatives: md5,
    },
  ]);
}

const named = (emulator: Emulator, name: string) =>
  [...emulator.account('demo_adv').offers.values()].filter(
    o => o.offer_name === name,
  );

describe('a create answered with code 0 and msg success', () => {
  it('is looked up by name and adopted, its tracking set; the re-run sends nothing', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'zero_code_offer');
    emulator.faults.add({
      kind: 'recode',
      code: 0,
      method: 'POST',
      path: OFFER,
      count: 1,
    });
    emulator.clearRequests();

    rt.call('createOffers');

    expect(sent(emulator)).toEqual([
      `GET ${OFFERS}`,
      `POST ${OFFER}`,
      `GET ${OFFERS}`,
      `PUT ${TRACKING}`,
    ]);
    const [offer] = named(emulator, 'zero_code_offer');
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: offer.offer_id,
      sync_status: 'OK',
      sync_message: `Offer ${offer.offer_id} created (the answer to its create was lost; found by name); tracking set.`,
    });
    emulator.clearRequests();
    rt.call('createOffers');
    expect(emulator.requests).toEqual([]);
    expect(named(emulator, 'zero_code_offer')).toHaveLength(1);
  });
});

describe('a budget push answered with code 0 and msg success', () => {
  it('reads the offer back, finds the budget applied, and says OK; the next push sends nothing', () => {
    const {rt, emulator, ids} = offersPulled();
    rt.call('refreshOffers');
    const row =
      recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === ids[0]) + 2;
    typeInto(rt, 'Budgets', row, 'daily_cap', '321');
    emulator.faults.add({kind: 'recode', code: 0, method: 'PUT', count: 1});
    emulator.clearRequests();

    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});

    expect(sent(emulator)).toEqual([`PUT ${BUDGET}`, `GET ${OFFERS}`]);
    expect(recordsOf(rt, 'Budgets')[row - 2]).toMatchObject({
      daily_cap: 321,
      sync_status: 'OK',
    });
    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(emulator.requests).toEqual([]);
  });
});

describe('codes given as text', () => {
  it('"200" on the list pages is success: every offer brought', () => {
    const {rt, emulator} = offerDesk({offers: 60});
    emulator.faults.add({kind: 'recode', code: '200', path: OFFERS});

    expect(rt.call('refreshOffers')).toMatchObject({ok: 60});
    expect(recordsOf(rt, 'Offers')).toHaveLength(60);
  });

  it('"10500" on a budget push is the busy refusal: sent again within the run, OK', () => {
    const {rt, emulator, ids} = offersPulled();
    const row =
      recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === ids[0]) + 2;
    typeInto(rt, 'Budgets', row, 'daily_cap', '222');
    emulator.faults.add({kind: 'busy', code: '10500', method: 'PUT', count: 1});
    emulator.clearRequests();

    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});

    expect(sent(emulator)).toEqual([`PUT ${BUDGET}`, `PUT ${BUDGET}`]);
    expect(emulator.requests.map(r => r.code)).toEqual([10500, 200]);
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('222');
  });
});
