/**
 * 429 answers, which the API document does not show (part 8: "Rate limits and quotas: not
 * shown"): taken in their HTTP meaning, "not applied, try later". With or without Retry-After
 * a read and a write are sent again within the run, after at least the time asked; a wait
 * past the job's time is not taken, and the row says the next push sends it again.
 */
import type {Emulator} from '../../local/emulator';
import {
  offerDesk,
  offersPulled,
  recordsOf,
  typeInto,
} from '../support/offer-desk';

const OFFERS = '/api/open/v3/offers';
const BUDGET = '/api/open/v3/offer/budget';

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
