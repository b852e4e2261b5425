/**
 * Issue 21, "Done when": the budget guard of pushBudgets on the built bundle. 50 budget edits
 * of which 3 are held (10 times the last pulled cap, OPEN for a number, past the USD ceiling):
 * answered No, answered Yes, run where no one can answer, and previewed.
 */
import type {Emulator} from '../../local/emulator';
import {budgetsPulled} from '../support/history';
import {
  EMULATOR_URL,
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
        `• offer ${tenfold} (${row(tenfold).offer_name}): daily_cap [ALL] 100 → 1,000: 10× the value on the server (the guard holds more than 3×)`,
        `• offer ${open} (${row(open).offer_name}): daily_cap [ALL] 100 → OPEN: OPEN (no limit) replaces a number`,
        `• offer ${ceiling} (${row(ceiling).offer_name}): daily_cap [ALL] 100 → 250: past your USD ceiling of 200`,
        '',
        'This push adds to the daily caps: USD +3,400 and OPEN on 1 group.',
        '',
        'Yes sends them with the rest. No sends the rest only: the held rows stay EDITED.',
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
        "Held by the budget guard (daily_cap [ALL] 100 → 1,000: 10× the value on the server (the guard holds more than 3×)): not sent, as you answered No. Push again from the menu or the sidebar and answer Yes to send it, change the row, or turn holding off in the sidebar's settings.",
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
      /^Confirmed past the budget guard \(daily_cap \[ALL\] 100 → 1,000: 10× .*\)\. Pushed/,
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
      `Preview (nothing sent): 50 rows would be sent in 50 requests (main account). The budget guard holds 3 offers (a push asks before sending them): ${tenfold}: daily_cap [ALL] 100 → 1,000: 10× the value on the server (the guard holds more than 3×); ${open}: daily_cap [ALL] 100 → OPEN: OPEN (no limit) replaces a number; ${ceiling}: daily_cap [ALL] 100 → 250: past your USD ceiling of 200. This push adds to the daily caps: USD +3,400 and OPEN on 1 group.`,
    );
    expect(puts(emulator)).toHaveLength(0);
    expect(rt.ui.alerts().filter(a => a.buttons === 'YES_NO')).toHaveLength(0);
    expect(row(held[1]).sync_message).toBe(
      'Preview: held by the budget guard (daily_cap [ALL] 100 → OPEN: OPEN (no limit) replaces a number). A push asks you before sending it.',
    );
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
