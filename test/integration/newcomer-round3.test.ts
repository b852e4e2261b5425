/**
 * Issue 36, "What a new user trips on, round 3", on the built add-on in the local runtime.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {budgetsPulled} from '../support/history';
import {
  columnLetter,
  cpiOfferRow as cpi,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  sheetOf,
  typeRows,
  valuesOf,
} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;

describe('New Offers: an account cell that names no known account (items 3 and 7)', () => {
  it('is INVALID in the preview, naming the column and the known accounts, with "did you mean" for another case', () => {
    const {rt, emulator} = offerDesk();
    rt.call('createOffers');
    rt.call('refreshSubAccounts');
    typeRows(rt, 'Sub-accounts', [
      {sub_adv_user_name: 'demo_sub_a'},
      {sub_adv_user_name: 'demo_sub_b'},
    ]);
    const campaign = deliverableCampaign(emulator, MAIN);
    typeRows(rt, 'New Offers', [
      {account: 'demo_sub_x', ...cpi(campaign, 'mistyped')},
      {account: 'Demo_Sub_A', ...cpi(campaign, 'other_case')},
    ]);
    const [[md5, material]] = [...emulator.account(MAIN).materials];
    typeRows(rt, 'Creatives', [
      {creative_md5: md5, creative_name: String(material.creative_name)},
    ]);
    typeRows(
      rt,
      'Creative Sets',
      ['mistyped', 'other_case'].map(offer_name => ({
        offer_name,
        creative_set_name: 'set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: md5,
      })),
    );
    emulator.clearRequests();

    const summary = rt.call('createOffers', {dryRun: true}) as {
      message: string;
    };

    const known =
      "write (main account), demo_sub_a or demo_sub_b (Refresh sub-accounts lists the main account's sub-accounts in the Sub-accounts sheet)";
    expect(
      recordsOf(rt, 'New Offers').map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        `account "demo_sub_x" is no account known here: ${known}. Nothing was sent.`,
      ],
      [
        'INVALID',
        `account "Demo_Sub_A" is no account known here (did you mean demo_sub_a?): ${known}. Nothing was sent.`,
      ],
    ]);
    expect(summary.message).toBe(
      'Preview (nothing sent): 0 rows would be sent in 0 requests; 2 rows INVALID: see sync_message in New Offers (main account).',
    );
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
  });
});

describe('Act as a sub-account by name in another case (item 7)', () => {
  it('is refused with "did you mean" the name known in the Sub-accounts sheet', () => {
    const {rt} = offerDesk();
    rt.call('refreshSubAccounts');
    typeRows(rt, 'Sub-accounts', [{sub_adv_user_name: 'demo_sub_a'}]);
    expect(() => rt.call('setActingAccount', 'Demo_Sub_A')).toThrow(
      'The main account has no sub-account named "Demo_Sub_A" (did you mean demo_sub_a?).',
    );
  });
});

describe('A created offer (item 7)', () => {
  it("fills its New Offers row's empty account cell with the account that created it", () => {
    const {rt, emulator} = offerDesk();
    rt.call('createOffers');
    const [[md5, material]] = [...emulator.account(MAIN).materials];
    typeRows(rt, 'Creatives', [
      {creative_md5: md5, creative_name: String(material.creative_name)},
    ]);
    typeRows(rt, 'New Offers', [
      {...cpi(deliverableCampaign(emulator, MAIN), 'made_here')},
    ]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: 'made_here',
        creative_set_name: 'set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: md5,
      },
    ]);

    rt.call('createOffers');

    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      account: '(main account)',
      sync_status: 'OK',
    });
  });
});

describe('OK beside a value never sent (item 1): the onEdit simple trigger', () => {
  /** Two offers pushed at daily_cap 150: both rows OK. */
  function pushed() {
    const desk = budgetsPulled(2);
    for (const id of desk.ids) desk.cap(id, '150');
    desk.rt.call('pushBudgets');
    return desk;
  }
  const rowOf = (rt: Runtime, row: number) => {
    const r = recordsOf(rt, 'Budgets')[row - 2];
    return [r.daily_cap, r.sync_status, r.sync_message];
  };
  const capColumn = (rt: Runtime) =>
    columnLetter(valuesOf(rt, 'Budgets')[0].indexOf('daily_cap'));

  it('marks a pushed row EDITED as its cap is retyped, in AuthMode.LIMITED, touching nothing but the sheet', () => {
    const {rt, ids, rowOf: row, cap} = pushed();
    const at = row(ids[0]);
    expect(rowOf(rt, at)[1]).toBe('OK');
    cap(ids[0], '600');
    rt.edited('Budgets', `${capColumn(rt)}${at}`);
    expect(rowOf(rt, at)).toEqual([
      600,
      'EDITED',
      'Edited here, not pushed yet.',
    ]);
    expect(rowOf(rt, row(ids[1]))[1]).toBe('OK');
    const status = valuesOf(rt, 'Budgets')[0].indexOf('sync_status');
    expect(
      sheetOf(rt, 'Budgets')
        .getRange(at, status + 1)
        .getBackground(),
    ).toBe('#cfe2f3');
    const run = rt.executions.at(-1)!;
    expect([run.functionName, run.authMode, run.error]).toEqual([
      'onEdit',
      'LIMITED',
      undefined,
    ]);
  });

  it('a paste over both rows marks each; an edit of a read-only or own column marks none; AuthMode.NONE reads nothing', () => {
    const {rt, ids, rowOf: row} = pushed();
    const [first, second] = ids.map(row).sort((a, b) => a - b);
    rt.edited('Budgets', `A${first}:A${second}`);
    expect(rowOf(rt, first)[1]).toBe('OK');
    rt.edited('Budgets', `${capColumn(rt)}${first}`, 'NONE');
    expect(rowOf(rt, first)[1]).toBe('OK');
    rt.edited('Budgets', `A${first}:${capColumn(rt)}${second}`);
    expect([rowOf(rt, first)[1], rowOf(rt, second)[1]]).toEqual([
      'EDITED',
      'EDITED',
    ]);
  });

  it('a refresh that finds the value unchanged on the server keeps EDITED; a push sends it and says OK', () => {
    const {rt, emulator, ids, rowOf: row, cap} = pushed();
    const at = row(ids[0]);
    cap(ids[0], '600');
    rt.edited('Budgets', `${capColumn(rt)}${at}`);
    rt.call('refreshOffers');
    expect(rowOf(rt, at)[1]).toBe('EDITED');
    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(rowOf(rt, at)[1]).toBe('OK');
    expect(emulator.requests.filter(r => r.method === 'PUT')).toHaveLength(1);
  });
});

describe('Push > Push later… (item 5)', () => {
  it('opens the sidebar at its Push later form; Open sidebar at its top', () => {
    const {rt} = offerDesk();
    rt.open('FULL');
    rt.clickMenu('Push later…');
    expect(rt.ui.sidebar()!.html).toContain(
      '<meta name="open-at" content="later-heading">',
    );
    rt.clickMenu('Open sidebar');
    expect(rt.ui.sidebar()!.html).not.toContain('<meta name="open-at"');
  });
});
