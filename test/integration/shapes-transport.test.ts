/**
 * Transport answers the API document does not show. 429 (part 8: "Rate limits and quotas: not
 * shown") is taken in its HTTP meaning, "not applied, try later": with or without Retry-After
 * a read and a write are sent again within the run, after at least the time asked; a wait
 * past the job's time is not taken, and the row says the next push sends it again. A gateway's
 * 502/504 with an HTML page or an empty body (part 7: "HTTP status codes used: not shown") is
 * no envelope: a read fails naming it, a write's outcome is unknown and is read back.
 */
import type {Emulator} from '../../local/emulator';
import {
  cpiOfferRow as cpi,
  deliverableCampaign,
  offerDesk,
  offersPulled,
  recordsOf,
  snapshotOf,
  typeInto,
  typeRows,
} from '../support/offer-desk';

const OFFERS = '/api/open/v3/offers';
const BUDGET = '/api/open/v3/offer/budget';
const OFFER = '/api/open/v3/offer';
const TRACKING = '/api/open/v3/tracking';

const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path} ${r.status}`);

describe('a 429 without Retry-After', () => {
  it('on a list page: asked again after a backoff, every offer brought', () => {
    const {rt, emulator} = offerDesk({offers: 30});
    emulator.faults.add({
      kind: 'rateLimit',
      retryAfterSeconds: null,
      path: OFFERS,
      count: 2,
    });

    expect(rt.call('refreshOffers')).toMatchObject({ok: 30});

    expect(sent(emulator)).toEqual([
      `GET ${OFFERS} 429`,
      `GET ${OFFERS} 429`,
      `GET ${OFFERS} 200`,
    ]);
    expect(recordsOf(rt, 'Offers')).toHaveLength(30);
  });
});

describe('a 429 on a budget push', () => {
  function budgetEdited() {
    const pulled = offersPulled();
    const {rt, ids} = pulled;
    const row =
      recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === ids[0]) + 2;
    typeInto(rt, 'Budgets', row, 'daily_cap', '432');
    return {...pulled, row};
  }

  it('with Retry-After: sent again no sooner than asked, and OK', () => {
    const {rt, emulator, ids, row} = budgetEdited();
    emulator.faults.add({
      kind: 'rateLimit',
      retryAfterSeconds: 30,
      method: 'PUT',
      count: 1,
    });
    const started = rt.clock.now();

    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});

    expect(sent(emulator)).toEqual([`PUT ${BUDGET} 429`, `PUT ${BUDGET} 200`]);
    const [refused, applied] = emulator.requests;
    expect(applied.at - refused.at).toBeGreaterThanOrEqual(30000);
    expect(rt.clock.now() - started).toBeGreaterThanOrEqual(30000);
    expect(recordsOf(rt, 'Budgets')[row - 2]).toMatchObject({
      daily_cap: 432,
      sync_status: 'OK',
    });
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('432');
  });

  it('asking a wait past the job’s time: not waited for, ERROR, and the next push sends it', () => {
    const {rt, emulator, ids, row} = budgetEdited();
    emulator.faults.add({
      kind: 'rateLimit',
      retryAfterSeconds: 3600,
      method: 'PUT',
      count: 1,
    });
    const started = rt.clock.now();

    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, error: 1});

    expect(rt.clock.now() - started).toBeLessThan(60000);
    expect(sent(emulator)).toEqual([`PUT ${BUDGET} 429`]);
    expect(recordsOf(rt, 'Budgets')[row - 2]).toMatchObject({
      daily_cap: 432,
      sync_status: 'ERROR',
      sync_message:
        'PUT offer/budget: HTTP 429 unexpected answer: 429 Too Many Requests (emulator fault): the next push sends it again.',
    });
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});
    expect(sent(emulator)).toEqual([`PUT ${BUDGET} 200`]);
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('432');
  });
});

describe('a 429 on an offer create asking a wait past the job’s time', () => {
  it('says nothing was created, and the next run creates it once', () => {
    const {rt, emulator} = offerDesk();
    rt.call('createOffers');
    const [md5, material] = [...emulator.account('demo_adv').materials][0];
    typeRows(rt, 'Creatives', [
      {creative_md5: md5, creative_name: material.creative_name},
    ]);
    typeRows(rt, 'New Offers', [
      cpi(deliverableCampaign(emulator), 'rate_limited'),
    ]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: 'rate_limited',
        creative_set_name: 'rate_limited_set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: md5,
      },
    ]);
    emulator.faults.add({
      kind: 'rateLimit',
      retryAfterSeconds: 3600,
      method: 'POST',
      count: 1,
    });
    emulator.clearRequests();

    expect(rt.call('createOffers')).toMatchObject({ok: 0, error: 1});

    expect(sent(emulator)).toEqual([`GET ${OFFERS} 200`, `POST ${OFFER} 429`]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: '',
      sync_status: 'ERROR',
      sync_message:
        'POST offer: HTTP 429 unexpected answer: 429 Too Many Requests (emulator fault). Nothing was created. The next run sends it again.',
    });
    emulator.clearRequests();
    expect(rt.call('createOffers')).toMatchObject({ok: 1, error: 0});
    expect(sent(emulator)).toEqual([
      `GET ${OFFERS} 200`,
      `POST ${OFFER} 200`,
      `PUT ${TRACKING} 200`,
    ]);
    const made = [...emulator.account('demo_adv').offers.values()].filter(
      o => o.offer_name === 'rate_limited',
    );
    expect(made).toHaveLength(1);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: made[0].offer_id,
      sync_status: 'OK',
    });
  });
});

describe('a gateway answering 502 with an HTML page, or 504 with nothing', () => {
  it('on every list page: the refresh fails naming the page by its title, the sheets as they were', () => {
    const {rt, emulator} = offerDesk({offers: 30});
    rt.call('refreshOffers');
    const before = snapshotOf(rt, 'Offers');
    const page =
      '<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>';
    emulator.faults.add({kind: 'error', status: 502, body: page, path: OFFERS});

    expect(() => rt.call('refreshOffers')).toThrow(
      'GET offers: HTTP 502 unexpected answer, an HTML page: 502 Bad Gateway',
    );
    expect(snapshotOf(rt, 'Offers')).toEqual(before);

    emulator.faults.clear();
    emulator.faults.add({kind: 'error', status: 504, body: '', path: OFFERS});
    expect(() => rt.call('refreshOffers')).toThrow(
      'GET offers: HTTP 504 empty answer',
    );
    expect(snapshotOf(rt, 'Offers')).toEqual(before);
  });

  it('on a budget push the server applied: read back, confirmed, not sent again', () => {
    const {rt, emulator, ids} = offersPulled();
    const row =
      recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === ids[0]) + 2;
    typeInto(rt, 'Budgets', row, 'daily_cap', '654');
    emulator.faults.add({
      kind: 'error',
      status: 504,
      body: '',
      applied: true,
      method: 'PUT',
      count: 1,
    });
    emulator.clearRequests();

    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});

    expect(sent(emulator)).toEqual([`PUT ${BUDGET} 504`, `GET ${OFFERS} 200`]);
    expect(recordsOf(rt, 'Budgets')[row - 2]).toMatchObject({
      daily_cap: 654,
      sync_status: 'OK',
      sync_message:
        'Pushed the budget of offer ' +
        `${ids[0]} (1 group): the answer was lost (PUT offer/budget: HTTP 504 empty answer); reading it back confirmed it.`,
    });
  });
});
