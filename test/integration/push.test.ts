/**
 * Issue 5, "Done when": the push jobs as the built dist/Code.js runs them in the local Apps
 * Script runtime against the Open API emulator.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf, typeInto, valuesOf} from '../support/offer-desk';

const GEOS = 'US,GB,DE';
const ALL = {
  target_geo: 'ALL',
  total_budget: '1000',
  daily_cap_type: 'BUDGET' as const,
  daily_cap: '100',
};

/** Offers delivering to US,GB,DE with one ALL budget each, maintained by ADV, pulled. */
function pulled(offers: number) {
  const desk = offerDesk({offers});
  const ids = [...desk.emulator.account('demo_adv').offers.keys()];
  for (const id of ids) {
    desk.emulator.updateOffer(id, {
      target_geo: GEOS,
      budget: [ALL],
      maintain_by: 'ADV',
    });
  }
  return {...desk, ids};
}

function refresh(rt: Runtime) {
  rt.call('refreshOffers');
}

/** The sheet row (1-based) of an offer's first Budgets row. */
function rowOf(rt: Runtime, id: number): number {
  return recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
}

function addRow(rt: Runtime, cells: Record<string, string>): number {
  const row = valuesOf(rt, 'Budgets').length + 1;
  for (const [header, text] of Object.entries(cells))
    typeInto(rt, 'Budgets', row, header, text);
  return row;
}

const puts = (emulator: Emulator) =>
  emulator.requests.filter(r => r.method === 'PUT');
const budgetOf = (emulator: Emulator, id: number) =>
  emulator.offerView(id)!.budget;

describe('pushBudgets: 200 edited offers', () => {
  it('sends the 175 valid ones, refuses 20 (one per rule), reports 5 API refusals, and a second run sends nothing', () => {
    const {rt, emulator, ids} = pulled(230);
    const [am, everywhere] = [ids[190], ids[191]];
    emulator.updateOffer(am, {maintain_by: 'AM'});
    emulator.updateOffer(everywhere, {target_geo: 'ALL'});
    refresh(rt);

    const valid = ids.slice(0, 175);
    valid.forEach((id, k) =>
      typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', String(101 + k)),
    );

    const broken = ids.slice(175, 195);
    /** Each case: what the user does to the offer's rows; the status message of each row. */
    type Case = (id: number, row: number) => Array<[number, string]>;
    const notSent = (id: number, row: number, why: string) =>
      `Not sent: another row of offer ${id} is refused (row ${row}: ${why}).`;
    const cases: Case[] = [
      (id, row) => {
        const added = addRow(rt, {
          offer_id: String(id),
          country_code: 'US',
          daily_cap_type: 'BUDGET',
          daily_cap: '60',
          total_budget: '100',
        });
        const why =
          'country_code: either one ALL budget or budgets per geo, not both';
        return [
          [row, why],
          [added, why],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'country_code', 'ALL,US');
        return [
          [
            row,
            'country_code: either one ALL budget or budgets per geo, not both',
          ],
        ];
      },
      (id, row) => {
        const added = addRow(rt, {
          offer_id: String(id),
          country_code: 'ALL',
          daily_cap_type: 'BUDGET',
          daily_cap: '60',
          total_budget: '100',
        });
        const why =
          'country_code: ALL is in more than one group: an offer has a single ALL budget';
        return [
          [row, why],
          [added, why],
        ];
      },
      (id, row) => {
        typeInto(rt, 'Budgets', row, 'country_code', 'US,GB');
        const added = addRow(rt, {
          offer_id: String(id),
          country_code: 'FR,DE',
          daily_cap_type: 'BUDGET',
          daily_cap: '60',
          total_budget: '100',
        });
        const why = `country_code: FR cannot take a budget: it is not a delivery geo of the offer (allowed geos: ${GEOS})`;
        return [
          [row, notSent(id, added, why)],
          [added, why],
        ];
      },
      (id, row) => {
        typeInto(rt, 'Budgets', row, 'country_code', 'US,GB');
        const added = addRow(rt, {
          offer_id: String(id),
          country_code: 'GB,DE',
          daily_cap_type: 'BUDGET',
          daily_cap: '60',
          total_budget: '100',
        });
        const why =
          'country_code: GB is in more than one group: each delivery geo takes one budget';
        return [
          [row, why],
          [added, why],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'country_code', 'US,GB');
        return [
          [
            row,
            'budget: delivery geos without a budget: DE: per-geo budgets must cover every delivery geo once',
          ],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap_type', 'CLICKS');
        return [[row, 'daily_cap_type: must be BUDGET or CONVERSION']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap_type', '');
        return [[row, 'daily_cap_type: must be BUDGET or CONVERSION']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap', '');
        return [
          [row, 'daily_cap: is empty: write a number of at least 50, or OPEN'],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'total_budget', '');
        return [[row, 'total_budget: is empty: write a number, or OPEN']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap', '49');
        return [[row, 'daily_cap: at least 50']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap', 'abc');
        return [[row, 'daily_cap: must be a number or OPEN (not "abc")']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'total_budget', 'lots');
        return [[row, 'total_budget: must be a number or OPEN (not "lots")']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap_type', 'CONVERSION');
        typeInto(rt, 'Budgets', row, 'daily_cap', '60.5');
        return [
          [
            row,
            'daily_cap: daily_cap must be a whole number when daily_cap_type is CONVERSION',
          ],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap', '60.1234');
        return [[row, 'daily_cap: daily_cap may have 3 decimals at most']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'total_budget', '10.0001');
        return [
          [row, 'total_budget: total_budget may have 3 decimals at most'],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'country_code', '');
        return [
          [row, 'country_code: is empty: write ALL or geo codes of the offer'],
        ];
      },
      (_, row) => {
        for (const h of [
          'country_code',
          'daily_cap_type',
          'daily_cap',
          'total_budget',
        ])
          typeInto(rt, 'Budgets', row, h, '');
        return [[row, 'budget: the offer needs at least one budget row']];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'daily_cap', '300');
        return [
          [
            row,
            'maintain_by: this record is managed by your account manager (maintain_by AM): you may view it, not change it. Nothing was sent.',
          ],
        ];
      },
      (_, row) => {
        typeInto(rt, 'Budgets', row, 'country_code', 'US');
        return [
          [
            row,
            'country_code: US cannot take a budget: the offer delivers to ALL geos, so its budget is one ALL group',
          ],
        ];
      },
    ];
    expect(broken).toContain(am);
    expect(broken).toContain(everywhere);
    // The AM case and the ALL-delivery case go to the offers prepared for them.
    const order = broken.filter(id => id !== am && id !== everywhere);
    const assigned = [...order.slice(0, 18), am, everywhere];
    const expectedInvalid = assigned.flatMap((id, k) =>
      cases[k](id, rowOf(rt, id)),
    );

    const refused = ids.slice(195, 200);
    for (const id of refused)
      typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', '300');
    for (const id of refused.slice(0, 3))
      emulator.updateOffer(id, {maintain_by: 'AM'});
    for (const id of refused.slice(3)) {
      typeInto(rt, 'Budgets', rowOf(rt, id), 'country_code', 'US,GB,DE');
      emulator.updateOffer(id, {target_geo: 'US,GB,DE,FR'});
    }
    const before = new Map(ids.map(id => [id, budgetOf(emulator, id)]));
    emulator.clearRequests();

    const summary = rt.call('pushBudgets') as Record<string, unknown>;

    const rows = valuesOf(rt, 'Budgets');
    const at = (h: string) => rows[0].indexOf(h);
    const statusOf = (row: number) => [
      rows[row - 1][at('sync_status')],
      rows[row - 1][at('sync_message')],
    ];
    for (const [row, message] of expectedInvalid)
      expect(statusOf(row)).toEqual(['INVALID', message]);
    valid.forEach(id =>
      expect(statusOf(rowOf(rt, id))).toEqual([
        'OK',
        `Pushed the budget of offer ${id} (1 group).`,
      ]),
    );
    for (const id of refused.slice(0, 3)) {
      expect(statusOf(rowOf(rt, id))).toEqual([
        'ERROR',
        `PUT offer/budget: code 10007 offer is maintained by AM and cannot be edited [offer_id: The offer ${id} is maintained by AM: view only.]: change the row to send it again.`,
      ]);
    }
    for (const id of refused.slice(3)) {
      expect(statusOf(rowOf(rt, id))).toEqual([
        'ERROR',
        'PUT offer/budget: code 11423 budget is error! [budget: every delivery geo needs a budget; missing: FR]: change the row to send it again.',
      ]);
    }
    expect(summary).toMatchObject({
      ok: 175,
      invalid: expectedInvalid.length,
      error: 5,
      remaining: 0,
      requests: 180,
    });
    expect(puts(emulator)).toHaveLength(180);

    for (const id of ids) {
      const k = valid.indexOf(id);
      expect(budgetOf(emulator, id)).toEqual(
        k >= 0 ? [{...ALL, daily_cap: String(101 + k)}] : before.get(id),
      );
    }

    emulator.clearRequests();
    const again = rt.call('pushBudgets') as Record<string, unknown>;
    expect(emulator.requests).toHaveLength(0);
    expect(again).toMatchObject({ok: 0, error: 0, requests: 0});
  });
});

describe('pushBudgets under network trouble', () => {
  it('lands everything after retries when half the PUTs fail with a 5xx once', () => {
    const {rt, emulator, ids} = pulled(40);
    refresh(rt);
    ids.forEach((id, k) =>
      typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', String(200 + k)),
    );
    emulator.faults.configure({
      rules: [
        {kind: 'error', status: 503, method: 'PUT', rate: 0.5, once: true},
      ],
    });
    emulator.clearRequests();
    const summary = rt.call('pushBudgets') as Record<string, unknown>;
    expect(summary).toMatchObject({ok: 40, error: 0});
    const failed = puts(emulator).filter(r => r.status === 503).length;
    expect(failed).toBeGreaterThan(5);
    expect(puts(emulator)).toHaveLength(40 + failed);
    ids.forEach((id, k) =>
      expect(budgetOf(emulator, id)).toEqual([
        {...ALL, daily_cap: String(200 + k)},
      ]),
    );
  });

  it('reads back after every send of a batch is lost, says in the rows that nothing was applied, and a re-run completes them', () => {
    const {rt, emulator, ids} = pulled(30);
    refresh(rt);
    ids.forEach(id =>
      typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', '321'),
    );
    emulator.faults.configure({
      rules: [{kind: 'drop', method: 'PUT', applied: false}],
    });
    const first = rt.call('pushBudgets') as Record<string, unknown>;
    expect(first).toMatchObject({ok: 0, error: 30});
    const messages = new Set(
      recordsOf(rt, 'Budgets').map(r => `${r.sync_status} ${r.sync_message}`),
    );
    expect([...messages]).toEqual([
      expect.stringMatching(
        /^ERROR Not applied: the answer was lost \(PUT offer\/budget: network error: .+\), and reading it back shows the server does not have it: the next push sends it again\.$/,
      ),
    ]);
    emulator.faults.clear();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 30, error: 0});
    expect(ids.every(id => budgetOf(emulator, id)[0].daily_cap === '321')).toBe(
      true,
    );
  });
});

describe('pushBudgets near the time limit', () => {
  it('starts no batch that would end past 5 minutes, stops before 6 with every status written, and a second run finishes the rest', () => {
    const {rt, emulator, ids} = pulled(300);
    refresh(rt);
    ids.forEach(id =>
      // 3 times the pulled 100 at most: no budget guard question in the way.
      typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', '300'),
    );
    // Each exchange now takes 130 s: a batch of 100 PUTs ends 130 s after it starts.
    emulator.faults.configure({latencyMs: 130_000});
    const first = rt.call('pushBudgets') as Record<string, unknown>;
    const run = rt.executions.at(-1)!;
    expect(run.error).toBeUndefined();
    expect(run.endMs! - run.startMs).toBeGreaterThan(4 * 60 * 1000);
    expect(run.endMs! - run.startMs).toBeLessThan(5 * 60 * 1000);
    expect(first).toMatchObject({
      ok: 200,
      remaining: 100,
      error: 0,
      message:
        '200 OK, 0 invalid, 0 error, 0 unchanged budget rows (main account). 100 rows left for lack of time: run it again to continue.',
    });
    const rows = recordsOf(rt, 'Budgets');
    expect(rows.filter(r => r.sync_status === 'OK')).toHaveLength(200);
    const left = rows.filter(r => r.sync_status === 'EDITED');
    expect(left).toHaveLength(100);
    expect(left[0].sync_message).toBe(
      'Not sent yet: the time ran out. Run the push again to send it.',
    );
    expect(rt.call('pushBudgets')).toMatchObject({ok: 100, remaining: 0});
    expect(ids.every(id => budgetOf(emulator, id)[0].daily_cap === '300')).toBe(
      true,
    );
  });
});

describe('pushBudgets at 5 minutes', () => {
  it('starts no new batch once 5 minutes have gone, writes every status, and a second run finishes', () => {
    const {rt, emulator, ids} = pulled(300);
    refresh(rt);
    ids.forEach(id =>
      typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', '654'),
    );
    // The first batch comes back after 5 minutes.
    emulator.faults.configure({latencyMs: 300_000});
    const first = rt.call('pushBudgets') as Record<string, unknown>;
    const run = rt.executions.at(-1)!;
    expect(run.error).toBeUndefined();
    expect(run.endMs! - run.startMs).toBeGreaterThan(5 * 60 * 1000);
    expect(run.endMs! - run.startMs).toBeLessThan(6 * 60 * 1000);
    expect(first).toMatchObject({ok: 100, remaining: 200, requests: 100});
    const statuses = recordsOf(rt, 'Budgets').map(r => r.sync_status);
    expect(statuses.filter(s => s === 'OK')).toHaveLength(100);
    expect(statuses.filter(s => s === 'EDITED')).toHaveLength(200);
    emulator.faults.configure({latencyMs: 0});
    expect(rt.call('pushBudgets')).toMatchObject({ok: 200, remaining: 0});
    expect(ids.every(id => budgetOf(emulator, id)[0].daily_cap === '654')).toBe(
      true,
    );
  });
});

describe('pushCampaigns and pushTracking', () => {
  it('send only the changed campaign fields, and tracking with all four fields', () => {
    const {rt, emulator, ids} = pulled(5);
    const campaignId = [...emulator.account('demo_adv').campaigns.keys()][0];
    emulator.updateCampaign(campaignId, {
      maintain_by: 'ADV',
      promotion_type: 'APP',
      min_version: '5.0',
    });
    rt.call('refreshAll');
    const campaignRow =
      recordsOf(rt, 'Campaigns').findIndex(r => r.campaign_id === campaignId) +
      2;
    typeInto(rt, 'Campaigns', campaignRow, 'min_version', '7.0.1');
    const offerRow =
      recordsOf(rt, 'Offers').findIndex(r => r.offer_id === ids[0]) + 2;
    typeInto(
      rt,
      'Offers',
      offerRow,
      'click_url',
      'https://track.example.test/x?o=1',
    );
    typeInto(rt, 'Offers', offerRow, 'support_server_click', 'NO');
    typeInto(rt, 'Offers', offerRow, 'tracking_method', 'APPSFLYER');

    const preview = rt.call('pushCampaigns', {dryRun: true}) as Record<
      string,
      unknown
    >;
    expect(preview).toMatchObject({
      dryRun: true,
      wouldSend: [{campaign_id: campaignId, min_version: '7.0.1'}],
    });
    expect(puts(emulator)).toEqual([]);

    expect(rt.call('pushCampaigns')).toMatchObject({ok: 1});
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    expect(puts(emulator).map(r => r.body)).toEqual([
      {campaign_id: campaignId, min_version: '7.0.1'},
      {
        offer_id: ids[0],
        tracking_method: 'APPSFLYER',
        click_url: 'https://track.example.test/x?o=1',
        support_server_click: 'NO',
      },
    ]);
    rt.call('refreshOffers');
    expect(recordsOf(rt, 'Offers')[offerRow - 2]).toMatchObject({
      click_url_status: 'PENDDING',
      support_server_click: 'NO',
    });
  });
});
