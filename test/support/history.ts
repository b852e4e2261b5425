/**
 * Set-ups shared by the History integration tests (test/integration/history-*.test.ts).
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime, RuntimeOptions} from '../../local/runtime';
import {
  offerDesk,
  offersPulled,
  recordsOf,
  typeInto,
  typeRows,
  valuesOf,
} from './offer-desk';

/**
 * ADV offers delivering to `geos` with one ALL budget each (daily_cap 100), pulled; `rowOf`
 * is an offer's Budgets row, `cap` types a daily_cap into it, `budget` reads it.
 */
export function budgetsPulled(
  offers = 2,
  runtime: RuntimeOptions = {},
  geos = 'US',
) {
  const desk = offerDesk({offers}, runtime);
  const ids = [...desk.emulator.account('demo_adv').offers.keys()];
  for (const id of ids)
    desk.emulator.updateOffer(id, {
      target_geo: geos,
      budget: [
        {
          target_geo: 'ALL',
          total_budget: '1000',
          daily_cap_type: 'BUDGET',
          daily_cap: '100',
        },
      ],
      maintain_by: 'ADV',
    });
  desk.rt.call('refreshOffers');
  const rowOf = (id: number) =>
    recordsOf(desk.rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
  const cap = (id: number, text: string) =>
    typeInto(desk.rt, 'Budgets', rowOf(id), 'daily_cap', text);
  const budget = (id: number) =>
    recordsOf(desk.rt, 'Budgets').find(r => r.offer_id === id)!;
  return {...desk, ids, rowOf, cap, budget};
}

/** The server's budget of a budgetsPulled offer changed behind the add-on: its ALL daily_cap. */
export function capChangedOnServer(
  emulator: Emulator,
  id: number,
  dailyCap: string,
): void {
  emulator.updateOffer(id, {
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1000',
        daily_cap_type: 'BUDGET',
        daily_cap: dailyCap,
      },
    ],
  });
}

/**
 * An offer's ALL budget split by hand and pushed: its row (sheet row `row`) typed US with
 * daily_cap 60, and a GB row (daily_cap 70, total_budget 500) typed at sheet row `gbRow`
 * (default: below the last). Answers the push's summary.
 */
export function splitPushed(
  rt: Runtime,
  id: number,
  row: number,
  gbRow = valuesOf(rt, 'Budgets').length + 1,
) {
  typeInto(rt, 'Budgets', row, 'country_code', 'US');
  typeInto(rt, 'Budgets', row, 'daily_cap', '60');
  typeRows(
    rt,
    'Budgets',
    [
      {
        offer_id: String(id),
        country_code: 'GB',
        daily_cap_type: 'BUDGET',
        daily_cap: '70',
        total_budget: '500',
      },
    ],
    gbRow,
  );
  return rt.call('pushBudgets') as {ok: number; changeId: string};
}

/** The budget PUT of a budgetsPulled offer whose ALL group's daily cap is `cap`. */
export const capSent = (offer_id: number, cap: number) => ({
  offer_id,
  budget: [
    {
      country_code: 'ALL',
      daily_cap_type: 'BUDGET',
      daily_cap: cap,
      total_budget: 1000,
    },
  ],
});

/** The offers of offersPulled, each with a click_url of its own. */
export const trackedOffers = () =>
  offersPulled(k => ({click_url: `https://t.example.test/old/${k}`}));

/**
 * trackedOffers, and a tracking push of the first offer's new click_url (its
 * support_server_click decided NO): `pushed` is the push's summary.
 */
export function clickUrlPushed(
  desk: ReturnType<typeof offersPulled> = trackedOffers(),
  url = 'https://t.example.test/new',
) {
  const [id] = desk.ids;
  typeInto(desk.rt, 'Offers', desk.offerRow(id), 'support_server_click', 'NO');
  typeInto(desk.rt, 'Offers', desk.offerRow(id), 'click_url', url);
  const pushed = desk.rt.call('pushTracking') as {ok: number; changeId: string};
  return {...desk, id, pushed};
}

/**
 * The offers list fails (HTTP `status`) once a tracking push's PUTs are out: the push reads
 * the offers before sending (what it sends as last refreshed) and that read passes; the read
 * back after a lost answer fails.
 */
export function trackingReadBackFails(
  desk: {rt: Runtime; emulator: Emulator},
  status?: number,
) {
  desk.rt.collaborator.duringFetch(2, () =>
    desk.emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
      ...(status === undefined ? {} : {status}),
    }),
  );
}
