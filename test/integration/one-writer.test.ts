/**
 * Issue 19: every write lands on the row its record holds when it is written, and nothing a
 * person typed meanwhile is overwritten. The built dist/Code.js in the local runtime against
 * the emulator; a collaborator (rt.collaborator) sorts, inserts, deletes and types while the
 * job is sending, as a second editor of the spreadsheet would.
 */
import {Emulator} from '../../local/emulator';
import {EXCEEDED_TIME, Runtime} from '../../local/runtime';
import {
  columnLetter,
  cpiOfferRow,
  deliverableCampaign,
  memoOf,
  offerDesk,
  recordsOf,
  sheetOf,
  typeRows,
  valuesOf,
} from '../support/offer-desk';
import {budgetsPulled} from '../support/history';

const BUDGET = '/api/open/v3/offer/budget';
const ALL = {
  target_geo: 'ALL',
  total_budget: '1000',
  daily_cap_type: 'BUDGET' as const,
  daily_cap: '100',
};

/** `n` ADV offers with one ALL budget each, pulled; the first `edited` get a new daily_cap. */
function budgetsEdited(n: number, edited: number, runtime = {}) {
  const desk = budgetsPulled(n, runtime);
  const typed = new Map<number, string>();
  for (const id of desk.ids.slice(0, edited)) {
    typed.set(id, String(200 + (id % 97)));
    desk.cap(id, typed.get(id)!);
  }
  desk.emulator.clearRequests();
  return {...desk, typed};
}

function rowOf(rt: Runtime, sheet: string, id: number): number {
  return recordsOf(rt, sheet).findIndex(r => r.offer_id === id) + 2;
}

function byOffer(rt: Runtime, sheet: string) {
  return new Map(recordsOf(rt, sheet).map(r => [Number(r.offer_id), r]));
}

const puts = (emulator: Emulator) =>
  emulator.requests
    .filter(r => r.method === 'PUT')
    .map(r => (r.body as {offer_id: number}).offer_id);

describe('pushBudgets while a collaborator works in Budgets', () => {
  it('sorted, a row inserted, one deleted and a cell typed during the PUTs: each status lands on its offer, the typing stays', () => {
    const {rt, emulator, ids, typed} = budgetsEdited(8, 3);
    const untouched = ids[6];
    const gone = ids[7];
    rt.collaborator.duringFetch(1, (_, c) => {
      const header = sheetOf(rt, 'Budgets')
        .getRange(1, 1, 1, sheetOf(rt, 'Budgets').getLastColumn())
        .getValues()[0];
      c.sortRows('Budgets', {column: 'offer_id', ascending: false});
      c.insertRows('Budgets', 2, 1);
      c.typeInto(
        'Budgets',
        `${columnLetter(header.indexOf('offer_id'))}2`,
        'my own row',
      );
      c.deleteRows('Budgets', rowOf(rt, 'Budgets', gone), 1);
      const total = header.indexOf('total_budget');
      c.typeInto(
        'Budgets',
        `${columnLetter(total)}${rowOf(rt, 'Budgets', untouched)}`,
        '4321',
      );
    });

    const summary = rt.call('pushBudgets') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 3, error: 0, invalid: 0, requests: 3});
    expect(puts(emulator).sort()).toEqual(ids.slice(0, 3).sort());
    const rows = byOffer(rt, 'Budgets');
    for (const [id, cap] of typed) {
      expect(rows.get(id)).toMatchObject({
        daily_cap: Number(cap),
        sync_status: 'OK',
        sync_message: `Pushed the budget of offer ${id} (1 group).`,
      });
    }
    expect(rows.get(untouched)).toMatchObject({
      total_budget: 4321,
      sync_status: '',
    });
    expect(rows.has(gone)).toBe(false);
    // The collaborator's order and row are kept: nothing was moved back.
    const order = recordsOf(rt, 'Budgets').map(r => r.offer_id);
    expect(order[0]).toBe('my own row');
    const numbers = order.slice(1).map(Number);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    // A re-run sends none of the accepted three again: only the collaborator's edit.
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, requests: 1});
    expect(puts(emulator)).toEqual([untouched]);
  });

  it('sorted right after the job read Budgets: each edited offer is sent once and its status lands on it', () => {
    const {rt, emulator, ids, typed} = budgetsEdited(8, 3);
    rt.collaborator.afterRead('Budgets', (_, c) =>
      c.sortRows('Budgets', {column: 'offer_id', ascending: false}),
    );

    const summary = rt.call('pushBudgets') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 3, error: 0, invalid: 0, requests: 3});
    expect(puts(emulator).sort()).toEqual(ids.slice(0, 3).sort());
    expect(recordsOf(rt, 'Budgets').map(r => r.offer_id)).toEqual(
      [...ids].reverse(),
    );
    const rows = byOffer(rt, 'Budgets');
    for (const id of ids) {
      const cap = typed.get(id);
      expect(rows.get(id)).toMatchObject(
        cap === undefined
          ? {daily_cap: 100, sync_status: ''}
          : {
              daily_cap: Number(cap),
              sync_status: 'OK',
              sync_message: `Pushed the budget of offer ${id} (1 group).`,
            },
      );
    }
  });

  it('an edited row deleted during the PUT: its outcome is not written elsewhere, and the summary says so', () => {
    const {rt, emulator, ids} = budgetsEdited(4, 2);
    rt.collaborator.duringFetch(1, (_, c) => {
      c.deleteRows('Budgets', rowOf(rt, 'Budgets', ids[0]), 1);
    });
    const summary = rt.call('pushBudgets') as {ok: number; message: string};
    expect(puts(emulator).sort()).toEqual(ids.slice(0, 2).sort());
    expect(summary.message).toContain(
      "1 row moved away or deleted while the job ran: its outcome is in History and the job's state, not in the sheet; refresh to see it.",
    );
    const statuses = recordsOf(rt, 'Budgets').map(r => [
      r.offer_id,
      r.sync_status,
    ]);
    expect(statuses.filter(([, s]) => s === 'OK')).toEqual([[ids[1], 'OK']]);
  });
});

describe('a refusal longer than a cell, and a run killed between batches', () => {
  it('a 60,000-character refusal is cut in its cell; every other outcome is saved and a re-run sends nothing', () => {
    const {rt, emulator, ids} = budgetsEdited(5, 5);
    const huge = `budget is error! ${'x'.repeat(60000)}`;
    emulator.faults.add({
      kind: 'busy',
      method: 'PUT',
      path: BUDGET,
      count: 1,
      code: 11423,
      msg: huge,
    });

    const summary = rt.call('pushBudgets') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 4, error: 1, requests: 5});
    const refused = recordsOf(rt, 'Budgets').find(
      r => r.sync_status === 'ERROR',
    )!;
    const message = String(refused.sync_message);
    expect(message.length).toBeLessThan(1000);
    expect(message).toContain('… (59517 more characters not shown)');
    expect(message).toMatch(/change the row to send it again/i);
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({requests: 0});
    expect(ids.length).toBe(5);
  });

  it('killed during the second batch: the first batch is saved (rows, state, History), the re-run sends only the rest', () => {
    const {rt, emulator} = budgetsEdited(150, 150);
    // Once the first batch reached the server, every PUT takes longer than an execution lasts.
    rt.collaborator.duringFetch(1, () =>
      emulator.faults.add({
        kind: 'slow',
        method: 'PUT',
        path: BUDGET,
        latencyMs: 400000,
      }),
    );
    expect(() => rt.call('pushBudgets')).toThrow(EXCEEDED_TIME);
    const first = puts(emulator);
    expect(first.length).toBeGreaterThan(0);
    const ok = recordsOf(rt, 'Budgets').filter(r => r.sync_status === 'OK');
    expect(ok.length).toBe(100);
    const history = recordsOf(rt, 'History');
    expect(history.length).toBe(100);
    emulator.faults.clear();
    emulator.clearRequests();
    rt.call('pushBudgets');
    const again = puts(emulator);
    const okIds = new Set(ok.map(r => Number(r.offer_id)));
    expect(again.filter(id => okIds.has(id))).toEqual([]);
    expect(again.length).toBeLessThanOrEqual(50);
  });
});

describe('a push of three batches', () => {
  it('once a batch has told how long one takes, the next two leave as one chunk, saved as out together: killed in the third, the re-run reads both back and sends none of the second again', () => {
    const {rt, emulator} = budgetsEdited(300, 300);
    // Once the second batch reached the server, every PUT takes longer than an execution lasts.
    rt.collaborator.duringFetch(2, () =>
      emulator.faults.add({
        kind: 'slow',
        method: 'PUT',
        path: BUDGET,
        latencyMs: 400000,
      }),
    );
    expect(() => rt.call('pushBudgets')).toThrow(EXCEEDED_TIME);
    const [first, second] = [0, 1].map(b =>
      puts(emulator).slice(b * 100, (b + 1) * 100),
    );
    expect(second).toHaveLength(100);
    // The first batch was saved alone; the second and third were saved as out before leaving.
    const ok = recordsOf(rt, 'Budgets').filter(r => r.sync_status === 'OK');
    expect(ok.map(r => Number(r.offer_id)).sort()).toEqual([...first].sort());
    const out = memoOf(rt, 'outbox') as {entries: Array<{record: string}>};
    expect(out.entries).toHaveLength(200);
    expect(out.entries.map(e => e.record)).toEqual(
      expect.arrayContaining(second.map(id => `Budgets ${id}`)),
    );
    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({error: 0});
    const again = new Set(puts(emulator));
    expect([...first, ...second].filter(id => again.has(id))).toEqual([]);
    expect(
      recordsOf(rt, 'Budgets').filter(r => r.sync_status !== 'OK'),
    ).toEqual([]);
  });
});

describe('History while a push of two batches runs', () => {
  it('a note typed below its first block stays: the second block goes below the note', () => {
    const {rt} = budgetsEdited(150, 150);
    rt.collaborator.duringFetch(2, (_, c) =>
      c.typeInto('History', 'A102', 'checked'),
    );

    expect(rt.call('pushBudgets')).toMatchObject({ok: 150});

    const [header, ...rows] = valuesOf(rt, 'History');
    const changeId = header.indexOf('change_id');
    expect(rows).toHaveLength(151);
    expect(rows[100][0]).toBe('checked');
    expect(rows[100][changeId]).toBe('');
    const logged = rows.filter(r => r[changeId] !== '');
    expect(logged).toHaveLength(150);
    expect(new Set(logged.map(r => r[changeId])).size).toBe(1);
  });
});

describe('statuses of rows scattered down Budgets', () => {
  /** Each Budgets row's sync_status and the colour of its cell, in sheet order. */
  function statusCells(rt: Runtime): Array<[unknown, string]> {
    const [header, ...rows] = valuesOf(rt, 'Budgets');
    const at = header.indexOf('sync_status');
    const colours = sheetOf(rt, 'Budgets')
      .getRange(2, at + 1, rows.length, 1)
      .getBackgrounds();
    return rows.map((row, i) => [row[at], colours[i][0]]);
  }

  it('each status cell takes the colour of its status; the rows between keep theirs', () => {
    const {rt, ids, cap} = budgetsPulled(8);
    const before = statusCells(rt);
    cap(ids[1], '300');
    cap(ids[3], 'abc');
    cap(ids[4], '301');
    cap(ids[6], '302');

    rt.call('pushBudgets');

    const OK = ['OK', '#d9ead3'];
    const INVALID = ['INVALID', '#fce5cd'];
    expect(statusCells(rt)).toEqual([
      before[0],
      OK,
      before[2],
      INVALID,
      OK,
      before[5],
      OK,
      before[7],
    ]);
    cap(ids[3], '303');
    rt.call('pushBudgets');
    expect(statusCells(rt)[3]).toEqual(OK);
  });
});

describe('a push preview over a CONFLICT row', () => {
  it('keeps CONFLICT and the server values it lists, adding what a push would send', () => {
    const {rt, emulator, ids} = budgetsEdited(3, 1);
    emulator.updateOffer(ids[0], {budget: [{...ALL, daily_cap: '150'}]});
    rt.call('refreshOffers');
    const conflict = recordsOf(rt, 'Budgets').find(
      r => Number(r.offer_id) === ids[0],
    )!;
    expect(conflict.sync_status).toBe('CONFLICT');
    const said = String(conflict.sync_message);
    rt.call('pushBudgets', {dryRun: true});
    rt.call('pushBudgets', {dryRun: true});
    const after = recordsOf(rt, 'Budgets').find(
      r => Number(r.offer_id) === ids[0],
    )!;
    expect(after.sync_status).toBe('CONFLICT');
    expect(after.sync_message).toBe(
      `${said} Preview: a push sends the budget of offer ${ids[0]} (1 group).`,
    );
    rt.call('refreshOffers');
    expect(
      recordsOf(rt, 'Budgets').find(r => Number(r.offer_id) === ids[0])!
        .sync_status,
    ).toBe('CONFLICT');
  });
});

describe('createOffers while a collaborator sorts New Offers and inserts a row', () => {
  it('each offer_id and status lands on the row of its offer_name', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const campaign = deliverableCampaign(emulator);
    rt.call('createOffers');
    rt.call('refreshCreatives');
    const md5 = String(recordsOf(rt, 'Creatives')[0].creative_md5);
    const names = ['alpha_one', 'bravo_two', 'charlie_three'];
    typeRows(
      rt,
      'New Offers',
      names.map(n => cpiOfferRow(campaign, n)),
    );
    typeRows(
      rt,
      'Creative Sets',
      names.map(n => ({
        offer_name: n,
        creative_set_name: `${n}_set`,
        geos: 'ALL',
        ad_outputs: '111',
        creatives: md5,
      })),
    );
    rt.collaborator.duringFetch(2, (_, c) => {
      c.sortRows('New Offers', {column: 'offer_name', ascending: false});
      c.insertRows('New Offers', 3, 1);
    });

    rt.call('createOffers');

    const created = new Map(
      [...emulator.account('demo_adv').offers.values()].map(o => [
        o.offer_name,
        o.offer_id,
      ]),
    );
    const rows = recordsOf(rt, 'New Offers').filter(r => r.offer_name !== '');
    expect(rows.map(r => r.offer_name)).toEqual([...names].reverse());
    for (const row of rows) {
      expect(row.offer_id).toBe(created.get(String(row.offer_name)));
      expect(row.sync_status).toBe('OK');
    }
    expect(recordsOf(rt, 'New Offers')[1]).toMatchObject({
      offer_name: '',
      offer_id: '',
      sync_status: '',
    });
  });
});

describe('refreshOffers while a collaborator sorts Offers and types in a column of their own', () => {
  it('every row keeps its own offer and the typed note', () => {
    const {rt, emulator} = offerDesk({offers: 6});
    rt.call('refreshOffers');
    const ids = [...emulator.account('demo_adv').offers.keys()];
    for (const id of ids)
      emulator.updateOffer(id, {offer_stop_reason: `stopped ${id}`});
    const sheet = sheetOf(rt, 'Offers');
    const note = sheet.getLastColumn() + 1;
    sheet.insertColumnsAfter(note - 1, 1);
    sheet.getRange(1, note).setValue('my note');
    rt.collaborator.duringFetch(1, (_, c) => {
      c.sortRows('Offers', {column: 'offer_id', ascending: false});
      c.typeInto('Offers', `${columnLetter(note - 1)}2`, 'checked');
    });

    rt.call('refreshOffers');

    const rows = recordsOf(rt, 'Offers');
    for (const row of rows) {
      expect(row.offer_stop_reason).toBe(`stopped ${row.offer_id}`);
    }
    expect(rows[0]).toMatchObject({
      offer_id: Math.max(...ids),
      'my note': 'checked',
    });
  });
});

describe('createOffers refused with a text longer than a cell', () => {
  it('the row says why, bounded, and what will send it; a re-run sends nothing and keeps the reason', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const campaign = deliverableCampaign(emulator);
    rt.call('createOffers');
    rt.call('refreshCreatives');
    const md5 = String(recordsOf(rt, 'Creatives')[0].creative_md5);
    typeRows(rt, 'New Offers', [cpiOfferRow(campaign, 'huge_refusal')]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: 'huge_refusal',
        creative_set_name: 'set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: md5,
      },
    ]);
    emulator.faults.add({
      kind: 'busy',
      method: 'POST',
      path: '/api/open/v3/offer',
      count: 1,
      code: 10000,
      msg: `error ${'y'.repeat(60000)}`,
    });
    expect(rt.call('createOffers')).toMatchObject({ok: 0, error: 1});
    const row = recordsOf(rt, 'New Offers')[0];
    expect(row.sync_status).toBe('ERROR');
    const message = String(row.sync_message);
    expect(message.length).toBeLessThan(1000);
    expect(message).toContain('… (59506 more characters not shown)');
    expect(message).toMatch(
      /Change the row, or clear its sync_status, to send it again: unchanged, it is not sent again\.$/,
    );
    emulator.clearRequests();
    expect(rt.call('createOffers')).toMatchObject({
      ok: 0,
      skipped: 1,
      requests: 0,
    });
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: message,
    });
  });
});

describe('a scheduled refresh while a collaborator types into Budgets', () => {
  /** Offer ids[0]'s budget changed on the server to 150; 500 typed once the refresh read Budgets. */
  function typedDuringRefresh() {
    const desk = budgetsPulled(2);
    const {rt, emulator, ids, rowOf} = desk;
    emulator.updateOffer(ids[0], {budget: [{...ALL, daily_cap: '150'}]});
    const column = valuesOf(rt, 'Budgets')[0].indexOf('daily_cap');
    rt.collaborator.afterRead('Budgets', (_, c) =>
      c.typeInto('Budgets', `${columnLetter(column)}${rowOf(ids[0])}`, '500'),
    );
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    rt.runDueTriggers(rt.clock.now() + 3600_000);
    return desk;
  }

  it('keeps the 500 typed after its read, CONFLICT naming the server value, and the next push sends it', () => {
    const {rt, emulator, ids, budget} = typedDuringRefresh();

    expect(rt.collaborator.pending()).toBe(0);
    expect(budget(ids[0])).toMatchObject({
      daily_cap: 500,
      sync_status: 'CONFLICT',
    });
    expect(budget(ids[0]).sync_message).toBe(
      "Changed on the server too; the server has: country_code ALL, daily_cap_type BUDGET, daily_cap 150, total_budget 1000. A push sends your values; type the server's to keep them.",
    );
    expect(budget(ids[1])).toMatchObject({daily_cap: 100, sync_status: ''});
    // The state holds the server's 150 as pulled, not the 500: a refresh keeps the edit...
    rt.call('refreshOffers');
    expect(budget(ids[0])).toMatchObject({daily_cap: 500});
    // ...and a push sends it.
    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(
      emulator.requests
        .filter(r => r.method === 'PUT')
        .map(r => r.body as {offer_id: number; budget: unknown}),
    ).toEqual([
      {
        offer_id: ids[0],
        budget: [
          {
            country_code: 'ALL',
            daily_cap_type: 'BUDGET',
            daily_cap: 500,
            total_budget: 1000,
          },
        ],
      },
    ]);
  });
});
