/**
 * List answers off the API document's page shape (2.1: data carries page, limit, total and
 * list). A list without `total` is walked page by page until a short page; a list with a hole
 * (a page short of records while a later page still holds some) is not the account's records,
 * so the refresh fails and leaves every sheet as it was rather than removing rows.
 */
import {offerDesk, snapshotOf, valuesOf} from '../support/offer-desk';

const OFFERS = '/api/open/v3/offers';

const pagesAsked = (emulator: ReturnType<typeof offerDesk>['emulator']) =>
  emulator.requests
    .filter(r => r.path === OFFERS)
    .map(r => [r.query.page, r.query.limit]);

describe('an offers list that tells no total', () => {
  it('brings every offer, asking the next page while the last came full', () => {
    const {rt, emulator} = offerDesk({offers: 120});
    emulator.faults.add({kind: 'page', page: 'noTotal', path: OFFERS});

    const summary = rt.call('refreshOffers') as {ok: number; message: string};

    expect(summary.ok).toBe(120);
    expect(valuesOf(rt, 'Offers')).toHaveLength(121);
    expect(pagesAsked(emulator)).toEqual([
      ['1', '50'],
      ['2', '50'],
      ['3', '50'],
    ]);
  });

  it('asks one page past a full last page, and stops at the empty one', () => {
    const {rt, emulator} = offerDesk({offers: 100});
    emulator.faults.add({kind: 'page', page: 'noTotal', path: OFFERS});

    expect(rt.call('refreshOffers')).toMatchObject({ok: 100});
    expect(pagesAsked(emulator)).toEqual([
      ['1', '50'],
      ['2', '50'],
      ['3', '50'],
    ]);
  });
});

describe('an offers list whose total is below the records it holds', () => {
  it('is walked as if it told none, and brings every offer', () => {
    const {rt, emulator} = offerDesk({offers: 120});
    emulator.faults.add({kind: 'page', page: 'zeroTotal', path: OFFERS});

    expect(rt.call('refreshOffers')).toMatchObject({ok: 120});
    expect(pagesAsked(emulator)).toEqual([
      ['1', '50'],
      ['2', '50'],
      ['3', '50'],
    ]);
  });
});

describe('an offers list with a hole', () => {
  it('fails the refresh, says so, and removes no row', () => {
    const {rt, emulator} = offerDesk({offers: 120});
    rt.call('refreshOffers');
    const before = ['Offers', 'Budgets'].map(n => snapshotOf(rt, n));
    emulator.faults.add({kind: 'page', page: 'short', path: OFFERS, count: 1});

    expect(() => rt.call('refreshOffers')).toThrow(
      'GET offers: code 200 page 1 held 25 records where the page size is 50, and later pages held more: the list came back incomplete, so nothing was changed; run it again',
    );

    expect(['Offers', 'Budgets'].map(n => snapshotOf(rt, n))).toEqual(before);
    expect(valuesOf(rt, 'Offers')).toHaveLength(121);
  });

  it('takes a short last page as the end of the list (a total that ran ahead), and writes it', () => {
    const {rt, emulator} = offerDesk({offers: 120});
    // Pages 1 and 2 are served as they are (the first rule that fires wins), page 3 short.
    emulator.faults.add({kind: 'slow', latencyMs: 1, path: OFFERS, count: 2});
    emulator.faults.add({kind: 'page', page: 'short', path: OFFERS});

    expect(rt.call('refreshOffers')).toMatchObject({ok: 110});
    expect(valuesOf(rt, 'Offers')).toHaveLength(111);
  });
});

describe('an offers list paged by a size of its own, telling no limit', () => {
  it('asks the other pages at the size page 1 came in, and brings every offer', () => {
    const {rt, emulator} = offerDesk({offers: 45});
    emulator.faults.add({kind: 'page', page: 'noLimit', path: OFFERS});

    expect(rt.call('refreshOffers')).toMatchObject({ok: 45});
    expect(pagesAsked(emulator)).toEqual([
      ['1', '50'],
      ['2', '20'],
      ['3', '20'],
    ]);
  });
});

describe('an offers list holding a record without its id', () => {
  it('fails the refresh, says so, and removes no row', () => {
    const {rt, emulator} = offerDesk({offers: 30});
    rt.call('refreshOffers');
    const before = ['Offers', 'Budgets'].map(n => snapshotOf(rt, n));
    emulator.faults.add({kind: 'page', page: 'noId', path: OFFERS, count: 1});

    expect(() => rt.call('refreshOffers')).toThrow(
      'GET offers: code 200 page 1 held a record without its id: the list cannot be matched to rows, so nothing was changed',
    );
    expect(['Offers', 'Budgets'].map(n => snapshotOf(rt, n))).toEqual(before);
  });
});

describe('an offers list that answers page 1 whatever page is asked', () => {
  it('fails the refresh, says so, and removes no row', () => {
    const {rt, emulator} = offerDesk({offers: 120});
    rt.call('refreshOffers');
    const before = ['Offers', 'Budgets'].map(n => snapshotOf(rt, n));
    emulator.faults.add({kind: 'page', page: 'repeat', path: OFFERS});

    expect(() => rt.call('refreshOffers')).toThrow(
      'GET offers: code 200 page 2 held only records that earlier pages held, and the list has 50 of the 120 records its total told: the list came back incomplete, so nothing was changed; run it again',
    );
    expect(['Offers', 'Budgets'].map(n => snapshotOf(rt, n))).toEqual(before);
  });

  it('telling no total either: stops at the first page of nothing new, and fails', () => {
    const {rt, emulator} = offerDesk({offers: 120});
    // Page 1 without total (the first rule that fires wins), then page 1 again and again.
    emulator.faults.add({
      kind: 'page',
      page: 'noTotal',
      path: OFFERS,
      count: 1,
    });
    emulator.faults.add({kind: 'page', page: 'repeat', path: OFFERS});

    expect(() => rt.call('refreshOffers')).toThrow(
      'GET offers: code 200 page 2 held only records that earlier pages held: the list came back incomplete, so nothing was changed; run it again',
    );
    expect(pagesAsked(emulator)).toEqual([
      ['1', '50'],
      ['2', '50'],
    ]);
  });
});
