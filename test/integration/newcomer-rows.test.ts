/**
 * Issue 28, sections 1 and 2: what a newcomer may edit and what happened to the rows, and
 * budget words that never mislead, as the built dist/Code.js says them in the local Apps
 * Script runtime against the Open API emulator.
 */
import {budgetsPulled, capChangedOnServer} from '../support/history';
import type {Runtime} from '../../local/runtime';
import {
  newOffersTyped,
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';

const POST_OFFER = '/api/open/v3/offer';

describe('the budget guard says what a push adds, in the words of what it compares', () => {
  it('a CONVERSION cap raised tenfold adds conversions, compared with the value on the server; the summary names one row', () => {
    const desk = budgetsPulled(1);
    const {rt, emulator, ids, cap, rowOf} = desk;
    const [id] = ids;
    emulator.updateOffer(id, {
      budget: [
        {
          target_geo: 'ALL',
          total_budget: 'OPEN',
          daily_cap_type: 'CONVERSION',
          daily_cap: '473',
        },
      ],
    });
    rt.call('refreshOffers');
    cap(id, '5000');
    rt.ui.answerNextAlert('NO');
    const summary = rt.call('pushBudgets') as {message: string};
    const name = String(
      recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!.offer_name,
    );
    expect(rt.ui.alerts().at(-1)!.prompt).toBe(
      [
        'The budget guard holds 1 offer of this push:',
        `• offer ${id} (${name}): daily_cap (CONVERSION, all groups) 473 → 5,000: 10.6× the value on the server (the guard holds more than 3×)`,
        '',
        'This push adds to the daily caps: +4,527 conversions.',
        '',
        'Yes sends them with the rest. No sends the rest only: the held rows keep your edits, unsent.',
      ].join('\n'),
    );
    expect(summary.message).toContain(
      `The budget guard held 1 offer (row ${rowOf(id)}): not sent, as you answered No.`,
    );
  });
});

describe('a new offer without a budget limit waits for a yes, and its preview says so', () => {
  it('the preview counts every step it lists, and names the caps it sends or "no limit"', () => {
    const {rt} = newOffersTyped({capped: {}, open: {}});
    typeInto(rt, 'New Offers', 2, 'daily_cap_type', 'BUDGET');
    typeInto(rt, 'New Offers', 2, 'daily_cap', '1500');
    typeInto(rt, 'New Offers', 2, 'total_budget', '20000');
    const summary = rt.call('createOffers', {dryRun: true}) as {
      message: string;
    };
    // Per row: the lookup of its name, the create, the tracking.
    expect(summary.message).toBe(
      'Preview (nothing sent): 2 rows would be sent in 6 requests (main account).',
    );
    const [capped, open] = recordsOf(rt, 'New Offers');
    expect(capped.sync_message).toMatch(
      /creates offer capped \(billing_type CPI, campaign \d+, 1 creative set, daily_cap 1,500, total_budget 20,000\), then sets its tracking \(1 more request\)\.$/,
    );
    expect(open.sync_message).toMatch(
      /creates offer open \(billing_type CPI, campaign \d+, 1 creative set, daily_cap no limit, total_budget no limit\), then sets its tracking \(1 more request\)\. The budget guard holds it: a run asks you before creating an offer with no limit\.$/,
    );
  });

  it('asks once; No creates the capped offer only, and the held row says why and how to create it', () => {
    const {rt, emulator} = newOffersTyped({capped: {}, open: {}});
    typeInto(rt, 'New Offers', 2, 'daily_cap', '1500');
    typeInto(rt, 'New Offers', 2, 'total_budget', '20000');
    rt.ui.answerNextAlert('NO');
    const summary = rt.call('createOffers') as {message: string};
    const questions = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(questions.map(q => [q.title, q.prompt])).toEqual([
      [
        'Create offers with no budget limit?',
        [
          'The budget guard holds 1 offer of this run, as it has no daily cap or no total budget (no limit):',
          '• New Offers row 3, offer open: daily_cap no limit, total_budget no limit',
          '',
          'Yes creates them with the rest. No creates the rest only: the held rows stay EDITED.',
        ].join('\n'),
      ],
    ]);
    const created = emulator.requests.filter(
      r => r.method === 'POST' && r.path === POST_OFFER,
    );
    expect(
      created.map(r => (r.body as {offer_name: string}).offer_name),
    ).toEqual(['capped']);
    expect(recordsOf(rt, 'New Offers')[1]).toMatchObject({
      offer_id: '',
      sync_status: 'EDITED',
      sync_message:
        "Held by the budget guard (daily_cap no limit, total_budget no limit): not created, as you answered No. Run Create new offers again and answer Yes to create it, type a daily_cap and a total_budget, or turn holding off in the sidebar's settings. Nothing was sent.",
    });
    expect(summary.message).toBe(
      '1 OK, 0 invalid, 0 error, 0 unchanged new offer rows (main account). The budget guard held 1 offer with no budget limit (New Offers row 3): not created, as you answered No.',
    );
  });
});

describe('the tab a refresh leaves open', () => {
  it('Refresh everything on a new spreadsheet shows Offers, not the empty Sub-accounts sheet made last', () => {
    const {rt} = offerDesk({offers: 3});
    rt.open('FULL');
    rt.clickMenu('Refresh everything');
    expect(rt.spreadsheet.getActiveSheet().getName()).toBe('Offers');
    // A later refresh leaves the user on the sheet they chose.
    rt.spreadsheet.getSheetByName('Campaigns')!.activate();
    rt.clickMenu('Refresh everything');
    expect(rt.spreadsheet.getActiveSheet().getName()).toBe('Campaigns');
  });
});

describe('a row typed back to its pulled value', () => {
  it.each([
    ['a preview', {job: 'pushBudgets', arg: {dryRun: true}}],
    ['a push', {job: 'pushBudgets', arg: {}}],
    ['a refresh', {job: 'refreshOffers', arg: {}}],
  ])(
    'is unchanged at the next job that reads it, %s: no stale EDITED or INVALID, not counted as edited',
    (_, {job, arg}) => {
      const {rt, ids, cap, budget} = budgetsPulled(3);
      const [held, refused] = ids;
      cap(held, '1500');
      cap(refused, '10');
      rt.call('pushBudgets', {dryRun: true});
      expect([held, refused].map(id => budget(id).sync_status)).toEqual([
        'EDITED',
        'INVALID',
      ]);
      cap(held, '100');
      cap(refused, '100');
      const summary = rt.call(job, arg) as {edited?: number; message: string};
      for (const id of [held, refused])
        expect(budget(id)).toMatchObject({
          daily_cap: 100,
          sync_status: '',
          sync_message: '',
        });
      expect(summary.edited ?? 0).toBe(0);
      expect(summary.message).not.toMatch(/kept with unpushed edits|INVALID/);
    },
  );
});

describe('a revert refused because of a later change of our own', () => {
  it('names that change, its id and time, and leaves the healthy row as it was', () => {
    const {rt, ids, cap, budget, rowOf} = budgetsPulled(2);
    const [id] = ids;
    cap(id, '120');
    const first = rt.call('pushBudgets') as {changeId: string};
    cap(id, '150');
    rt.call('pushBudgets');
    cap(id, '180');
    const third = rt.call('pushBudgets') as {changeId: string};
    const said = budget(id);
    expect(said.sync_status).toBe('OK');
    const time = recordsOf(rt, 'History').find(
      r => r.change_id === third.changeId,
    )!.time as Date;
    const shown = new Date(time).toISOString().slice(0, 19).replace('T', ' ');

    const reverted = rt.call('revertChange', first.changeId) as {
      message: string;
      conflict?: number;
    };
    expect(reverted.message).toBe(
      `Nothing put back. Nothing was sent. Not reverted: change ${third.changeId} of ${shown}, pushed from this spreadsheet after change ${first.changeId}, set daily_cap [ALL] of offer_id ${id} since (the server did not change it). Revert the later changes first, newest first, or edit the rows by hand. Your rows are unchanged.`,
    );
    expect(reverted.conflict ?? 0).toBe(0);
    expect(budget(id)).toEqual(said);
    expect(rowOf(id)).toBe(2);
  });

  it('still says the server changed a field that the server changed after our change', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(2);
    const [id] = ids;
    cap(id, '120');
    const first = rt.call('pushBudgets') as {changeId: string};
    cap(id, '150');
    rt.call('pushBudgets');
    capChangedOnServer(emulator, id, '999');
    rt.call('refreshOffers');
    rt.call('revertChange', first.changeId);
    expect(budget(id)).toMatchObject({
      daily_cap: 999,
      sync_status: 'CONFLICT',
      sync_message: `Not reverted: the server changed daily_cap [ALL] of offer_id ${id} since change ${first.changeId} (as last refreshed). Your rows are unchanged; edit them by hand if you still want the old values.`,
    });
  });
});

describe('Budgets shows who manages an offer, and greys what a push cannot send', () => {
  const GREY = '#efefef';
  const EDITABLE = [
    'country_code',
    'daily_cap_type',
    'daily_cap',
    'total_budget',
  ];

  /** The backgrounds of a Budgets row's editable cells, by header. */
  function editableBackgrounds(rt: Runtime, row: number): string[] {
    const headers = valuesOf(rt, 'Budgets')[0].map(String);
    const colours = sheetOf(rt, 'Budgets')
      .getRange(row, 1, 1, headers.length)
      .getBackgrounds()[0];
    return EDITABLE.map(h => colours[headers.indexOf(h)]);
  }

  /** Two ADV offers pulled, the second then handed to the account manager and pulled again. */
  function handedToAm() {
    const desk = budgetsPulled(2);
    const [adv, am] = desk.ids;
    desk.emulator.updateOffer(am, {maintain_by: 'AM'});
    desk.rt.call('refreshOffers');
    return {...desk, adv, am};
  }

  it('a refresh fills maintain_by from the offer and greys the AM rows; a push still refuses them', () => {
    const {rt, emulator, adv, am, rowOf, budget, cap} = handedToAm();
    expect([budget(adv).maintain_by, budget(am).maintain_by]).toEqual([
      'ADV',
      'AM',
    ]);
    expect(editableBackgrounds(rt, rowOf(am))).toEqual(
      EDITABLE.map(() => GREY),
    );
    expect(editableBackgrounds(rt, rowOf(adv))).not.toContain(GREY);

    cap(am, '500');
    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(emulator.requests.filter(r => r.method === 'PUT')).toEqual([]);
    expect(budget(am)).toMatchObject({
      sync_status: 'INVALID',
      sync_message: expect.stringContaining(
        'maintain_by: this record is managed by your account manager',
      ),
    });

    // Back with the advertiser: the grey goes.
    emulator.updateOffer(am, {maintain_by: 'ADV'});
    rt.call('refreshOffers');
    expect(editableBackgrounds(rt, rowOf(am))).not.toContain(GREY);
  });

  it("a Budgets sheet without maintain_by (the last release's) is pushed as it is, and the next refresh adds the column, sending nothing and keeping the user's own", () => {
    const {rt, emulator, adv, am, rowOf, budget, cap} = handedToAm();
    const sheet = sheetOf(rt, 'Budgets');
    const headers = () => valuesOf(rt, 'Budgets')[0].map(String);
    sheet.deleteColumn(headers().indexOf('maintain_by') + 1);
    sheet
      .getRange(1, 1, sheet.getMaxRows(), sheet.getMaxColumns())
      .setBackground(null);
    const mine = headers().length + 1;
    sheet.getRange(1, mine).setValue('my_note');
    sheet.getRange(rowOf(adv), mine).setValue('watch it');
    cap(adv, '150');
    emulator.clearRequests();

    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, invalid: 0});
    expect(headers()).not.toContain('maintain_by');

    emulator.clearRequests();
    rt.call('refreshOffers');
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(headers().slice(-2)).toEqual(['my_note', 'maintain_by']);
    expect(budget(am).maintain_by).toBe('AM');
    expect(budget(adv)).toMatchObject({
      maintain_by: 'ADV',
      my_note: 'watch it',
      daily_cap: 150,
    });
    expect(editableBackgrounds(rt, rowOf(am))).toEqual(
      EDITABLE.map(() => GREY),
    );
  });
});

describe('what a sidebar reloaded during its own job finds', () => {
  it("the end of a job the sidebar ran is recorded as the last job, as a menu job's is, failures too", () => {
    const {rt} = budgetsPulled(2);
    const summary = rt.call('pushBudgets', {dryRun: true}) as {message: string};
    expect(rt.call('getSidebarState')).toMatchObject({
      running: null,
      lastJob: {
        title: 'Push budgets (preview)',
        from: 'sidebar',
        summary: {message: summary.message},
      },
    });
    expect(() => rt.call('pushCampaigns')).toThrow(
      'There is no Campaigns sheet yet: run "Refresh campaigns" first, then edit and push.',
    );
    expect(rt.call('getSidebarState')).toMatchObject({
      lastJob: {
        title: 'Push campaigns',
        from: 'sidebar',
        failure:
          'There is no Campaigns sheet yet: run "Refresh campaigns" first, then edit and push.',
      },
    });
  });
});
