/**
 * Issue 21, "Done when": the budget guard of pushBudgets on the built bundle. 50 budget edits
 * of which 3 are held (10 times the last pulled cap, OPEN for a number, past the USD ceiling):
 * answered No, answered Yes, run where no one can answer, and previewed.
 */
import type {Emulator, OfferPatch} from '../../local/emulator';
import {budgetsPulled, capChangedOnServer, capSent} from '../support/history';
import {
  EMULATOR_URL,
  columnLetter,
  cpiOfferRow as cpi,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
  typeRows,
  valuesOf,
} from '../support/offer-desk';
import {DEMO_ACCOUNTS} from '../../local/emulator';

const puts = (emulator: Emulator) =>
  emulator.requests.filter(r => r.method === 'PUT');

/** 50 offers pulled at daily_cap 100; 47 raised to 150, and 3 past the guard. */
function edited() {
  const desk = budgetsPulled(50);
  const {rt, ids, cap} = desk;
  rt.call('saveSettings', {
    baseUrl: EMULATOR_URL,
    accessKey: DEMO_ACCOUNTS.main.accessKey,
    guard: {ceilings: 'USD 200'},
  });
  const [tenfold, open, ceiling] = ids.slice(0, 3);
  cap(tenfold, '1000');
  cap(open, 'OPEN');
  cap(ceiling, '250');
  for (const id of ids.slice(3)) cap(id, '150');
  desk.emulator.clearRequests();
  const row = (id: number) =>
    recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!;
  return {...desk, held: [tenfold, open, ceiling], row};
}

describe('pushBudgets holds large changes for a yes', () => {
  it('asks once, listing the held rows and what the push adds; No sends the 47 others', () => {
    const {rt, emulator, held, row} = edited();
    const [tenfold, open, ceiling] = held;
    rt.ui.answerNextAlert('NO');
    rt.run('menuPushBudgets');
    const alerts = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].title).toBe('Send large budget changes?');
    expect(alerts[0].prompt).toBe(
      [
        'The budget guard holds 3 offers of this push:',
        `• offer ${tenfold} (${row(tenfold).offer_name}): daily_cap (BUDGET, all groups) 100 → 1,000: 10× the value on the server (the guard holds more than 3×)`,
        `• offer ${open} (${row(open).offer_name}): daily_cap (BUDGET, all groups) 100 → OPEN: OPEN (no limit) replaces a number`,
        `• offer ${ceiling} (${row(ceiling).offer_name}): daily_cap (BUDGET, all groups) 100 → 250: past your USD ceiling of 200`,
        '',
        'This push adds to the daily caps: USD +3,400 and OPEN on 1 offer.',
        '',
        'Yes sends them with the rest. No sends the rest only: the held rows keep your edits, unsent.',
      ].join('\n'),
    );
    expect(puts(emulator)).toHaveLength(47);
    const sent = puts(emulator).map(
      r => (r.body as {offer_id: number}).offer_id,
    );
    expect(held.filter(id => sent.includes(id))).toEqual([]);
    expect(row(tenfold)).toMatchObject({
      daily_cap: 1000,
      sync_status: 'EDITED',
      sync_message:
        "Held by the budget guard (daily_cap (BUDGET, all groups) 100 → 1,000: 10× the value on the server (the guard holds more than 3×)): not sent, as you answered No. Push again from the menu or the sidebar and answer Yes to send it, change the row, or turn holding off in the sidebar's settings.",
    });
    expect([open, ceiling].map(id => row(id).sync_status)).toEqual([
      'EDITED',
      'EDITED',
    ]);
    expect(emulator.offerView(tenfold)!.budget[0].daily_cap).toBe('100');
  });

  it('Yes sends all 50, and History says the 3 were confirmed', () => {
    const {rt, emulator, held} = edited();
    rt.ui.answerNextAlert('YES');
    rt.run('menuPushBudgets');
    expect(puts(emulator)).toHaveLength(50);
    const history = recordsOf(rt, 'History');
    const confirmed = history.filter(r =>
      String(r.message).startsWith('Confirmed past the budget guard'),
    );
    expect(confirmed.map(r => Number(r.record)).sort()).toEqual(
      [...held].sort(),
    );
    expect(confirmed[0].message).toMatch(
      /^Confirmed past the budget guard \(daily_cap \(BUDGET, all groups\) 100 → 1,000: 10× .*\)\. Pushed/,
    );
    expect(history).toHaveLength(50);
  });

  it('where no one can answer (a trigger), nothing held is sent', () => {
    const {rt, emulator, held, row} = edited();
    rt.call('setRefreshSchedule', 1);
    const schedule = rt.triggers.records[0];
    rt.triggers.records.push({...schedule, id: 'push', handler: 'pushBudgets'});
    rt.fireTrigger('push');
    expect(puts(emulator)).toHaveLength(47);
    expect(row(held[0]).sync_message).toContain(
      'not sent, as no one could answer (a scheduled run, or a window that cannot show a question)',
    );
  });

  it('the preview lists the same held rows and the totals, and sends nothing', () => {
    const {rt, emulator, held, row} = edited();
    const summary = rt.call('pushBudgets', {dryRun: true}) as {
      message: string;
    };
    const [tenfold, open, ceiling] = held.map(
      id => `offer ${id} (${row(id).offer_name})`,
    );
    expect(summary.message).toBe(
      `Preview (nothing sent): 50 rows would be sent in 50 requests (main account). The budget guard holds 3 offers (a push asks before sending them): ${tenfold}: daily_cap (BUDGET, all groups) 100 → 1,000: 10× the value on the server (the guard holds more than 3×); ${open}: daily_cap (BUDGET, all groups) 100 → OPEN: OPEN (no limit) replaces a number; ${ceiling}: daily_cap (BUDGET, all groups) 100 → 250: past your USD ceiling of 200. This push adds to the daily caps: USD +3,400 and OPEN on 1 offer.`,
    );
    expect(puts(emulator)).toHaveLength(0);
    expect(rt.ui.alerts().filter(a => a.buttons === 'YES_NO')).toHaveLength(0);
    expect(row(held[1]).sync_message).toBe(
      'Preview: held by the budget guard (daily_cap (BUDGET, all groups) 100 → OPEN: OPEN (no limit) replaces a number). A push asks you before sending it.',
    );
  });
});

/**
 * One offer delivering to US, GB, FR and DE, pulled with `budget` (emulator groups), the guard's
 * ceiling USD 1,000; `row(k)` is the sheet row of its k-th Budgets row.
 */
function pulledWith(budget: OfferPatch['budget']) {
  const desk = budgetsPulled(1, {}, 'US,GB,FR,DE');
  const [id] = desk.ids;
  desk.emulator.updateOffer(id, {budget});
  desk.rt.call('refreshOffers');
  desk.rt.call('saveSettings', {
    baseUrl: EMULATOR_URL,
    accessKey: DEMO_ACCOUNTS.main.accessKey,
    guard: {ceilings: 'USD 1000'},
  });
  desk.emulator.clearRequests();
  const name = recordsOf(desk.rt, 'Budgets')[0].offer_name;
  return {...desk, id, offer: `offer ${id} (${name})`};
}

const group = (
  geo: string,
  type: 'BUDGET' | 'CONVERSION',
  cap: string,
  total: string,
) => ({
  target_geo: geo,
  daily_cap_type: type,
  daily_cap: cap,
  total_budget: total,
});

/** The guard's question after a No, the budget PUTs sent, and the Budgets rows' statuses. */
function pushAnsweredNo(rt: ReturnType<typeof pulledWith>['rt']) {
  rt.ui.answerNextAlert('NO');
  rt.run('menuPushBudgets');
  return rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
}

describe('the guard judges what the offer gets, summed over its groups', () => {
  it('holds ALL 100 split into four copies of 100: four times the daily cap and the total', () => {
    const {rt, emulator, id, offer} = pulledWith([
      group('ALL', 'BUDGET', '100', '1000'),
    ]);
    typeInto(rt, 'Budgets', 2, 'country_code', 'US');
    typeRows(
      rt,
      'Budgets',
      ['GB', 'FR', 'DE'].map(geo => ({
        offer_id: String(id),
        country_code: geo,
        daily_cap_type: 'BUDGET',
        daily_cap: '100',
        total_budget: '1000',
      })),
      3,
    );

    const asked = pushAnsweredNo(rt);

    expect(asked.map(a => a.prompt)).toEqual([
      [
        'The budget guard holds 1 offer of this push:',
        `• ${offer}: daily_cap (BUDGET, all groups) 100 → 400 in 4 groups: 4× the value on the server (the guard holds more than 3×)`,
        `• ${offer}: total_budget (all groups) 1,000 → 4,000 in 4 groups: 4× the value on the server (the guard holds more than 3×)`,
        '',
        'This push adds to the daily caps: USD +300.',
        '',
        'Yes sends them with the rest. No sends the rest only: the held rows keep your edits, unsent.',
      ].join('\n'),
    ]);
    expect(puts(emulator)).toEqual([]);
    expect(
      recordsOf(rt, 'Budgets').map(r => [r.country_code, r.sync_status]),
    ).toEqual([
      ['US', 'EDITED'],
      ['GB', 'EDITED'],
      ['FR', 'EDITED'],
      ['DE', 'EDITED'],
    ]);
    expect(recordsOf(rt, 'Budgets')[0].sync_message).toMatch(
      /^Held by the budget guard \(daily_cap \(BUDGET, all groups\) 100 → 400 in 4 groups: 4× .*\): not sent, as you answered No\./,
    );
  });

  it('holds US, GB, FR, DE at 50 regrouped into "US,GB" 500 and "FR,DE" 500: five times', () => {
    const {rt, emulator, offer} = pulledWith(
      ['US', 'GB', 'FR', 'DE'].map(geo => group(geo, 'BUDGET', '50', '1000')),
    );
    expect(recordsOf(rt, 'Budgets').map(r => r.country_code)).toEqual([
      'US',
      'GB',
      'FR',
      'DE',
    ]);
    typeInto(rt, 'Budgets', 2, 'country_code', 'US,GB');
    typeInto(rt, 'Budgets', 2, 'daily_cap', '500');
    typeInto(rt, 'Budgets', 3, 'country_code', 'FR,DE');
    typeInto(rt, 'Budgets', 3, 'daily_cap', '500');
    rt.collaborator.deleteRows('Budgets', 4, 2);

    const asked = pushAnsweredNo(rt);

    expect(asked.map(a => a.prompt.split('\n')[1])).toEqual([
      `• ${offer}: daily_cap (BUDGET, all groups) 200 in 4 groups → 1,000 in 2 groups: 5× the value on the server (the guard holds more than 3×)`,
    ]);
    expect(puts(emulator)).toEqual([]);
    expect(
      recordsOf(rt, 'Budgets').map(r => [
        r.country_code,
        r.daily_cap,
        r.sync_status,
      ]),
    ).toEqual([
      ['US,GB', 500, 'EDITED'],
      ['FR,DE', 500, 'EDITED'],
    ]);
  });

  it('holds a CONVERSION cap of 5,000 retyped BUDGET as a new USD 5,000 past the USD 1,000 ceiling', () => {
    const {rt, emulator, offer} = pulledWith([
      group('ALL', 'CONVERSION', '5000', '9000'),
    ]);
    typeInto(rt, 'Budgets', 2, 'daily_cap_type', 'BUDGET');

    const asked = pushAnsweredNo(rt);

    expect(asked.map(a => a.prompt.split('\n').slice(0, 4))).toEqual([
      [
        'The budget guard holds 1 offer of this push:',
        `• ${offer}: daily_cap (BUDGET, all groups) (none) → 5,000: past your USD ceiling of 1,000`,
        '',
        // The retype takes the offer's conversion cap away: said in conversions.
        'This push adds to the daily caps: USD +5,000, -5,000 conversions.',
      ],
    ]);
    expect(puts(emulator)).toEqual([]);
    expect(recordsOf(rt, 'Budgets')[0]).toMatchObject({
      daily_cap_type: 'BUDGET',
      daily_cap: 5000,
      sync_status: 'EDITED',
    });
  });
});

describe('a change confirmed past the guard whose answer was lost', () => {
  it('is read back by the next push, not asked again: OK, and History resolved', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(1);
    const [id] = ids;
    cap(id, '1000');
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: '/api/open/v3/offer/budget',
      count: 1,
    });
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
    });
    rt.ui.answerNextAlert('YES');
    rt.run('menuPushBudgets');
    expect(budget(id).sync_message).toMatch(
      /^Unknown outcome: .*: the next push reads it back before sending anything\.$/,
    );
    expect(emulator.offerView(id)!.budget[0].daily_cap).toBe('1000');
    emulator.faults.clear();
    emulator.clearRequests();
    const asked = rt.ui.alerts().length;

    // Were the guard to ask again, this No would hold what the server has had since.
    rt.ui.answerNextAlert('NO');
    rt.run('menuPushBudgets');

    expect(
      rt.ui
        .alerts()
        .slice(asked)
        .filter(a => a.buttons === 'YES_NO'),
    ).toEqual([]);
    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      'GET /api/open/v3/offers',
    ]);
    expect(budget(id)).toMatchObject({
      daily_cap: 1000,
      sync_status: 'OK',
      sync_message: `Pushed the budget of offer ${id} (1 group): the answer to the last push was lost; reading it back confirmed it.`,
    });
    expect(
      recordsOf(rt, 'History').map(r => [
        r.field,
        r.before,
        r.after,
        r.outcome,
      ]),
    ).toEqual([
      ['daily_cap [ALL]', '100', '1000', 'UNKNOWN'],
      ['daily_cap [ALL]', '100', '1000', 'OK'],
    ]);
  });
});

/** An offer's daily_cap typed `typed` here, and changed to 150 on the server, then refreshed. */
function conflicted(typed: string) {
  const desk = budgetsPulled(1);
  const [id] = desk.ids;
  desk.cap(id, typed);
  desk.emulator.updateOffer(id, {
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1000',
        daily_cap_type: 'BUDGET',
        daily_cap: '150',
      },
    ],
  });
  desk.rt.call('refreshOffers');
  const conflict = desk.budget(id);
  expect(conflict).toMatchObject({sync_status: 'CONFLICT'});
  desk.emulator.clearRequests();
  /** A refresh keeps the row CONFLICT beside the edit, saying what it said then. */
  const refreshedStillConflict = () => {
    desk.rt.call('refreshOffers');
    expect(desk.budget(id)).toMatchObject({
      daily_cap: Number(typed),
      sync_status: 'CONFLICT',
      sync_message: conflict.sync_message,
    });
  };
  return {...desk, id, conflict, refreshedStillConflict};
}

describe('a preview of a CONFLICT row', () => {
  it('whose edit the guard holds keeps CONFLICT and its message, and the next refresh keeps the conflict without the note', () => {
    const {rt, emulator, id, budget, conflict, refreshedStillConflict} =
      conflicted('1000');

    rt.call('pushBudgets', {dryRun: true});

    expect(budget(id)).toMatchObject({
      daily_cap: 1000,
      sync_status: 'CONFLICT',
      sync_message: `${conflict.sync_message} Preview: held by the budget guard (daily_cap (BUDGET, all groups) 150 → 1,000: 6.7× the value on the server (the guard holds more than 3×)). A push asks you before sending it.`,
    });
    expect(puts(emulator)).toEqual([]);
    expect(rt.ui.alerts().filter(a => a.buttons === 'YES_NO')).toEqual([]);
    refreshedStillConflict();
  });

  it('leaves no preview note behind after the next refresh', () => {
    const {rt, id, budget, conflict, refreshedStillConflict} =
      conflicted('200');
    rt.call('pushBudgets', {dryRun: true});
    expect(budget(id).sync_message).toBe(
      `${conflict.sync_message} Preview: a push sends the budget of offer ${id} (1 group).`,
    );
    refreshedStillConflict();
  });
});

describe('a push answered No on a CONFLICT row', () => {
  it('keeps CONFLICT and its message, the hold after it, once however often No is answered; the next refresh keeps the conflict without the hold', () => {
    const {rt, emulator, id, budget, conflict, refreshedStillConflict} =
      conflicted('1000');
    const held = `${conflict.sync_message} Held by the budget guard (daily_cap (BUDGET, all groups) 150 → 1,000: 6.7× the value on the server (the guard holds more than 3×)): not sent, as you answered No. Push again from the menu or the sidebar and answer Yes to send it, change the row, or turn holding off in the sidebar's settings.`;

    expect(pushAnsweredNo(rt)).toHaveLength(1);

    expect(budget(id)).toMatchObject({
      daily_cap: 1000,
      sync_status: 'CONFLICT',
      sync_message: held,
    });
    expect(puts(emulator)).toEqual([]);

    expect(pushAnsweredNo(rt)).toHaveLength(2);
    expect(budget(id)).toMatchObject({
      sync_status: 'CONFLICT',
      sync_message: held,
    });
    expect(puts(emulator)).toEqual([]);
    refreshedStillConflict();
  });
});

describe('a cell changed while the guard asks', () => {
  /**
   * Pushes from the menu, answering `answer`, while another editor types `text` into the
   * daily_cap of offer `id` as the question waits.
   */
  function typedWhileAsked(
    desk: ReturnType<typeof budgetsPulled>,
    id: number,
    text: string,
    answer: 'YES' | 'NO',
  ) {
    const headers = valuesOf(desk.rt, 'Budgets')[0].map(String);
    const cell = `${columnLetter(headers.indexOf('daily_cap'))}${desk.rowOf(id)}`;
    desk.emulator.clearRequests();
    desk.rt.collaborator.duringAlert((_ss, editor) =>
      editor.typeInto('Budgets', cell, text),
    );
    desk.rt.ui.answerNextAlert(answer);
    desk.rt.run('menuPushBudgets');
  }

  const changedWhileAsked = (id: number) =>
    `Not sent: offer_id ${id} changed in Budgets while the push's question was open, so what it holds now is not what the push read (nor, for a change the question listed, what you answered for). Push again to send what it holds now.`;

  it('is not sent after Yes: the row stays EDITED beside what it holds, and the next push asks about that', () => {
    const desk = budgetsPulled(1);
    const {rt, emulator, ids, cap, budget} = desk;
    const [id] = ids;
    cap(id, '10000');

    // Another editor corrects the fat finger while the owner reads the question.
    typedWhileAsked(desk, id, '1000', 'YES');

    const asked = () =>
      rt.ui
        .alerts()
        .filter(a => a.buttons === 'YES_NO')
        .map(a => a.prompt.split('\n')[1]);
    expect(asked()).toEqual([
      `• offer ${id} (${budget(id).offer_name}): daily_cap (BUDGET, all groups) 100 → 10,000: 100× the value on the server (the guard holds more than 3×)`,
    ]);
    expect(puts(emulator)).toEqual([]);
    expect(budget(id)).toMatchObject({
      daily_cap: 1000,
      sync_status: 'EDITED',
      sync_message: changedWhileAsked(id),
    });
    expect(rt.spreadsheet.getSheetByName('History')).toBeNull();

    rt.ui.answerNextAlert('YES');
    rt.run('menuPushBudgets');

    expect(asked()[1]).toBe(
      `• offer ${id} (${budget(id).offer_name}): daily_cap (BUDGET, all groups) 100 → 1,000: 10× the value on the server (the guard holds more than 3×)`,
    );
    expect(puts(emulator).map(r => r.body)).toEqual([capSent(id, 1000)]);
    expect(budget(id)).toMatchObject({daily_cap: 1000, sync_status: 'OK'});
  });

  it('is not sent after No either, where the guard held another offer', () => {
    const desk = budgetsPulled(2);
    const {emulator, ids, cap, budget} = desk;
    const [held, other] = ids;
    cap(held, '10000');
    cap(other, '150');

    typedWhileAsked(desk, other, '160', 'NO');

    expect(puts(emulator)).toEqual([]);
    expect(budget(other)).toMatchObject({
      daily_cap: 160,
      sync_status: 'EDITED',
      sync_message: changedWhileAsked(other),
    });
    expect(budget(held)).toMatchObject({
      daily_cap: 10000,
      sync_status: 'EDITED',
      sync_message: expect.stringMatching(/^Held by the budget guard/),
    });
  });
});

describe('values legal for the API but almost surely mistaken, in New Offers', () => {
  const ROAS = {
    billing_type: 'OCPI',
    bid_rate: '',
    target_ad_type: '',
    bid_goal: 'Target-ROAS',
    target_agg_event: 'purchase',
    target_goal_window: 'D7',
  };

  it('reads a Target-ROAS typed or formatted as a percent as meant; refuses % for Target-CPE and milliseconds', () => {
    const {rt, emulator} = offerDesk();
    const campaignId = deliverableCampaign(emulator);
    rt.call('createOffers'); // makes the sheets, with their formats
    const rows = [
      cpi(campaignId, 'typed_percent', {...ROAS, target_goal: '150%'}),
      cpi(campaignId, 'percent_cell', ROAS),
      cpi(campaignId, 'cpe_percent', {
        ...ROAS,
        bid_goal: 'Target-CPE',
        target_original_event: 'level_up',
        target_goal: '2.5%',
      }),
      cpi(campaignId, 'millis', {start_time: '1790000000000'}),
    ];
    typeRows(rt, 'New Offers', rows);
    // A cell the user formatted as a percent: 150% typed holds 1.5.
    const headers = valuesOf(rt, 'New Offers')[0].map(String);
    const goal = sheetOf(rt, 'New Offers').getRange(
      3,
      headers.indexOf('target_goal') + 1,
    );
    goal.setNumberFormat('0%');
    typeInto(rt, 'New Offers', 3, 'target_goal', '150%');
    expect(goal.getValue()).toBe(1.5);
    typeRows(rt, 'Creatives', [
      {
        creative_md5: '0123456789abcdef0123456789abcdef',
        creative_name: 'listed',
      },
    ]);
    typeRows(
      rt,
      'Creative Sets',
      rows.map(r => ({
        offer_name: r.offer_name,
        creative_set_name: 'set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: 'listed',
      })),
    );
    emulator.clearRequests();

    const preview = rt.call('createOffers', {dryRun: true}) as {
      wouldSend: Array<Record<string, unknown>>;
    };

    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    const bodies = preview.wouldSend.filter(b => 'target_goal' in b);
    expect(bodies.map(b => [b.offer_name, b.target_goal])).toEqual([
      ['typed_percent', 150],
      ['percent_cell', 150],
    ]);
    const status = recordsOf(rt, 'New Offers').map(r => [
      r.offer_name,
      r.sync_status,
      r.sync_message,
    ]);
    expect(status[0][2]).toContain(
      'target_goal 150% is read as 150 (Target-ROAS is a percentage)',
    );
    expect(status.slice(2)).toEqual([
      [
        'cpe_percent',
        'INVALID',
        'target_goal is a cost for Target-CPE, not a percentage: type the number without % (got "2.5%"). Nothing was sent.',
      ],
      [
        'millis',
        'INVALID',
        'start_time has 13 digits: that is milliseconds, not seconds. Type Unix seconds (1790000000) or a date. Nothing was sent.',
      ],
    ]);
  });
});

describe('pushBudgets holds large cuts too (issue 36)', () => {
  it('asks before a cut below a third of the last pulled cap; "500.000" (500) of 1,241 goes out', () => {
    const desk = budgetsPulled(2);
    const {rt, emulator, ids, cap} = desk;
    for (const id of ids) capChangedOnServer(emulator, id, '1241');
    rt.call('refreshOffers');
    const [starved, typed] = ids;
    cap(starved, '300');
    cap(typed, '500.000');
    emulator.clearRequests();
    rt.ui.answerNextAlert('NO');
    rt.run('menuPushBudgets');
    const alerts = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(alerts).toHaveLength(1);
    const name = recordsOf(rt, 'Budgets').find(
      r => r.offer_id === starved,
    )!.offer_name;
    expect(alerts[0].prompt).toContain(
      [
        'The budget guard holds 1 offer of this push:',
        `• offer ${starved} (${name}): daily_cap (BUDGET, all groups) 1,241 → 300: a cut to 0.2× the value on the server (the guard holds less than 1/3 of it)`,
      ].join('\n'),
    );
    expect(
      puts(emulator).map(r => (r.body as {offer_id: number}).offer_id),
    ).toEqual([typed]);
  });
});
