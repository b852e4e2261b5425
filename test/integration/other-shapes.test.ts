/**
 * Issue 20, "The real service in its other shapes": the vendor's public clients read an
 * offer's geos (and its budget items') as `country_code` where the API document says
 * `target_geo`, and `campaign_id` as a number or a string. Against the emulator answering so
 * (option `clientShapes`), the built add-on shows the very cells it shows for the documented
 * shape, and its pushes send the documented requests.
 */
import type {Emulator, EmulatorOptions} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf, typeInto, valuesOf} from '../support/offer-desk';

const SHEETS = ['Offers', 'Budgets', 'Campaigns'];

/** Three ADV offers tracked with APPSFLYER, delivering to US,GB,DE with two budget groups. */
function pulled(options: EmulatorOptions) {
  const {rt, emulator} = offerDesk({offers: 3, ...options});
  const ids = [...emulator.account('demo_adv').offers.keys()];
  for (const id of ids) {
    emulator.updateOffer(id, {
      maintain_by: 'ADV',
      tracking_method: 'APPSFLYER',
      target_geo: 'US,GB,DE',
      budget: [
        {
          target_geo: 'US',
          total_budget: '1000',
          daily_cap_type: 'BUDGET',
          daily_cap: '100',
        },
        {
          target_geo: 'GB,DE',
          total_budget: '500',
          daily_cap_type: 'BUDGET',
          daily_cap: '50',
        },
      ],
    });
  }
  rt.call('refreshOffers');
  rt.call('refreshCampaigns');
  emulator.clearRequests();
  return {rt, emulator, ids};
}

const rowOf = (rt: Runtime, sheet: string, id: number, geo?: string) =>
  recordsOf(rt, sheet).findIndex(
    r => r.offer_id === id && (geo === undefined || r.country_code === geo),
  ) + 2;

const sent = (emulator: Emulator) =>
  emulator.requests.map(r => [r.method, r.path, r.query, r.body]);

describe('the offers and campaign lists in the shapes public clients read', () => {
  it('the emulator answers country_code and a text campaign_id', () => {
    const {emulator, ids} = pulled({clientShapes: true});
    const listed = emulator.handle({
      method: 'GET',
      url: `https://api.emulator.test/api/open/v3/offers?offer_id=${ids[0]}`,
      headers: emulator.signedHeaders(),
      body: new Uint8Array(0),
    });
    if (listed.kind !== 'response') throw new Error('dropped');
    const [offer] = JSON.parse(Buffer.from(listed.body).toString()).data.list;
    expect(offer).not.toHaveProperty('target_geo');
    expect(offer.country_code).toBe('US,GB,DE');
    expect(typeof offer.campaign_id).toBe('string');
    expect(offer.budget[0]).toEqual({
      country_code: 'US',
      total_budget: '1000',
      daily_cap_type: 'BUDGET',
      daily_cap: '100',
    });
  });

  it('a refresh shows the cells it shows for the documented shape', () => {
    const shaped = pulled({clientShapes: true});
    const documented = pulled({});
    for (const sheet of SHEETS)
      expect(valuesOf(shaped.rt, sheet)).toEqual(
        valuesOf(documented.rt, sheet),
      );
    const [id] = shaped.ids;
    const campaignId = shaped.emulator.store.offer(id)!.campaign_id;
    expect(
      recordsOf(shaped.rt, 'Offers')
        .filter(r => r.offer_id === id)
        .map(r => [r.campaign_id, r.target_geo]),
    ).toEqual([[campaignId, 'US,GB,DE']]);
    expect(
      recordsOf(shaped.rt, 'Budgets')
        .filter(r => r.offer_id === id)
        .map(r => [
          r.target_geo,
          r.country_code,
          r.daily_cap_type,
          r.daily_cap,
          r.total_budget,
        ]),
    ).toEqual([
      ['US,GB,DE', 'US', 'BUDGET', 100, 1000],
      ['US,GB,DE', 'GB,DE', 'BUDGET', 50, 500],
    ]);
    expect(
      recordsOf(shaped.rt, 'Campaigns').find(r => r.campaign_id === campaignId),
    ).toBeDefined();
  });

  it('a second refresh asks the documented lists and finds nothing changed', () => {
    const {rt, emulator} = pulled({clientShapes: true});
    const before = SHEETS.map(sheet => valuesOf(rt, sheet));
    rt.call('refreshOffers');
    rt.call('refreshCampaigns');
    expect(SHEETS.map(sheet => valuesOf(rt, sheet))).toEqual(before);
    // The lists are asked as 4.3 and 4.6 name their parameters: nothing else is sent.
    expect(sent(emulator)).toEqual([
      ['GET', '/api/open/v3/offers', {page: '1', limit: '50'}, null],
      ['GET', '/api/open/v3/campaign', {page: '1', limit: '50'}, null],
    ]);
  });

  it('pushBudgets sends the budget with country_code, as 4.5 names it, and the row is OK', () => {
    const {rt, emulator, ids} = pulled({clientShapes: true});
    const [id] = ids;
    typeInto(rt, 'Budgets', rowOf(rt, 'Budgets', id, 'US'), 'daily_cap', '120');

    expect(rt.call('pushBudgets')).toMatchObject({ok: 2, invalid: 0, error: 0});

    // GB,DE goes out as pulled: the offer is read first, read in the shape it is listed in.
    expect(sent(emulator)).toEqual([
      [
        'GET',
        '/api/open/v3/offers',
        {page: '1', limit: '50', offer_id: String(id)},
        null,
      ],
      [
        'PUT',
        '/api/open/v3/offer/budget',
        {},
        {
          offer_id: id,
          budget: [
            {
              country_code: 'US',
              daily_cap_type: 'BUDGET',
              daily_cap: 120,
              total_budget: 1000,
            },
            {
              country_code: 'GB,DE',
              daily_cap_type: 'BUDGET',
              daily_cap: 50,
              total_budget: 500,
            },
          ],
        },
      ],
    ]);
    expect(
      recordsOf(rt, 'Budgets')
        .filter(r => r.offer_id === id)
        .map(r => [r.country_code, r.daily_cap, r.sync_status]),
    ).toEqual([
      ['US', 120, 'OK'],
      ['GB,DE', 50, 'OK'],
    ]);
    expect(emulator.offerView(id)!.budget[0]).toMatchObject({
      target_geo: 'US',
      daily_cap: '120',
    });
  });

  it('pushTracking sends offer_id and the tracking fields the document names, and the row is OK', () => {
    const {rt, emulator, ids} = pulled({clientShapes: true});
    const [id] = ids;
    const row = rowOf(rt, 'Offers', id);
    typeInto(rt, 'Offers', row, 'support_server_click', 'NO');
    typeInto(rt, 'Offers', row, 'click_url', 'https://t.example.test/c');

    expect(rt.call('pushTracking')).toMatchObject({
      ok: 1,
      invalid: 0,
      error: 0,
    });

    // Read first (tracking_method goes out as last refreshed), in the document's names.
    expect(sent(emulator)).toEqual([
      [
        'GET',
        '/api/open/v3/offers',
        {limit: '50', offer_id: String(id), page: '1'},
        null,
      ],
      [
        'PUT',
        '/api/open/v3/tracking',
        {},
        {
          offer_id: id,
          tracking_method: 'APPSFLYER',
          click_url: 'https://t.example.test/c',
          support_server_click: 'NO',
        },
      ],
    ]);
    expect(recordsOf(rt, 'Offers')[row - 2]).toMatchObject({
      offer_id: id,
      click_url: 'https://t.example.test/c',
      support_server_click: 'NO',
      sync_status: 'OK',
    });
  });
});
