/**
 * "A re-run always moves forward: nothing stuck, nothing twice", for the pushes: runs
 * interrupted (a lost answer, a kill while a batch is out), then run again, and again. The
 * built dist/Code.js in the local runtime against the emulator.
 */
import type {Emulator} from '../../local/emulator';
import {EXCEEDED_TIME, type RuntimeOptions} from '../../local/runtime';
import {
  memoOf,
  offerDesk,
  offersPulled,
  recordsOf,
  typeInto,
} from '../support/offer-desk';
import {
  budgetsPulled,
  clickUrlPushed,
  trackingReadBackFails,
} from '../support/history';
import {RELEASE_3, upgradeToThisRelease} from '../support/releases';

const BUDGET = '/api/open/v3/offer/budget';
const TRACKING = '/api/open/v3/tracking';
const ALL = {
  target_geo: 'ALL',
  total_budget: '1000',
  daily_cap_type: 'BUDGET' as const,
  daily_cap: '100',
};

/** Three ADV offers with one ALL budget each, pulled; each daily_cap typed 200 + k. */
function budgetsEdited(runtime: RuntimeOptions = {}) {
  const desk = budgetsPulled(3, runtime);
  desk.ids.forEach((id, k) => desk.cap(id, `${200 + k}`));
  desk.emulator.clearRequests();
  return desk;
}

/** Each request as `METHOD path-tail`. */
const sent = (emulator: Emulator) =>
  emulator.requests.map(
    r => `${r.method} ${r.path.replace('/api/open/v3/', '')}`,
  );

/** Every request to `path` takes longer than an execution may last: the run is killed. */
function killedWhileOut(emulator: Emulator, path: string) {
  emulator.faults.add({kind: 'slow', method: 'PUT', path, latencyMs: 400000});
}

describe('a push killed while its batch is out', () => {
  it('pushBudgets: the re-run reads the three back and sends no PUT again', () => {
    const {rt, emulator, ids} = budgetsEdited();
    killedWhileOut(emulator, BUDGET);

    expect(() => rt.call('pushBudgets')).toThrow(EXCEEDED_TIME);
    expect(sent(emulator)).toEqual([
      'PUT offer/budget',
      'PUT offer/budget',
      'PUT offer/budget',
    ]);
    // Each write was posted to the outbox, and saved, before it left.
    const out = memoOf(rt, 'outbox') as {entries: unknown[]};
    expect(out.entries).toEqual(
      ids.map((id, k) => ({
        kind: 'write',
        job: 'pushBudgets',
        account: '',
        record: `Budgets ${id}`,
        request: {
          sheet: 'Budgets',
          // Canonical texts (codec.ts): a text as JSON, a number as its digits.
          sent: [['"ALL"', '"BUDGET"', `${200 + k}`, '1000']],
        },
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      })),
    );

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({
      ok: 3,
      error: 0,
      requests: 1,
    });
    expect(sent(emulator)).toEqual(['GET offers']);
    for (const id of ids) {
      expect(
        recordsOf(rt, 'Budgets').find(r => r.offer_id === id),
      ).toMatchObject({
        sync_status: 'OK',
        sync_message: `Pushed the budget of offer ${id} (1 group): the answer to the last push was lost; reading it back confirmed it.`,
      });
    }
    // The killed run recorded nothing; the run that confirmed them records the change.
    expect(
      recordsOf(rt, 'History').map(r => [
        r.record,
        r.field,
        r.before,
        r.after,
        r.outcome,
      ]),
    ).toEqual(
      ids.map((id, k) => [
        `${id}`,
        'daily_cap [ALL]',
        '100',
        `${200 + k}`,
        'OK',
      ]),
    );
    expect(memoOf(rt, 'outbox')).toMatchObject({entries: []});
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({requests: 0});
  });

  it('pushBudgets of the release before the outbox: this release reads its marks back, sends no PUT again, and leaves nothing out', () => {
    const {rt, emulator} = budgetsEdited({distDir: RELEASE_3});
    killedWhileOut(emulator, BUDGET);
    expect(() => rt.call('pushBudgets')).toThrow(EXCEEDED_TIME);
    emulator.faults.clear();
    emulator.clearRequests();
    upgradeToThisRelease(rt);

    expect(rt.call('pushBudgets')).toMatchObject({
      ok: 3,
      error: 0,
      requests: 1,
    });

    expect(sent(emulator)).toEqual(['GET offers']);
    expect(memoOf(rt, 'outbox')).toMatchObject({entries: []});
  });

  it('pushBudgets: an unknown outcome confirmed by the next push is recorded in History as OK', () => {
    const {rt, emulator, ids} = budgetsEdited();
    emulator.faults.add({kind: 'drop', method: 'PUT', path: BUDGET, count: 1});
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
    });
    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, error: 3});
    emulator.faults.clear();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 3, requests: 1});
    const first = recordsOf(rt, 'History').filter(
      r => r.record === `${ids[0]}`,
    );
    expect(first.map(r => [r.before, r.after, r.outcome])).toEqual([
      ['100', '200', 'UNKNOWN'],
      ['100', '200', 'OK'],
    ]);
    expect(first[1].change_id).not.toBe(first[0].change_id);
  });

  it('pushTracking: the re-run does not send the PUT again (that would restart the click-URL test)', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    typeInto(
      rt,
      'Offers',
      offerRow(ids[0]),
      'click_url',
      'https://t.example.test/a',
    );
    typeInto(rt, 'Offers', offerRow(ids[0]), 'support_server_click', 'NO');
    killedWhileOut(emulator, TRACKING);

    expect(() => rt.call('pushTracking')).toThrow(EXCEEDED_TIME);
    // Read first: the PUT sends tracking_method as last refreshed.
    expect(sent(emulator)).toEqual(['GET offers', 'PUT tracking']);

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 1, requests: 1});
    expect(sent(emulator)).toEqual(['GET offers']);
    expect(offer(ids[0])).toMatchObject({
      click_url: 'https://t.example.test/a',
      sync_status: 'OK',
    });
  });
});

describe('pushCampaigns killed while its batch is out', () => {
  it('the re-run reads the campaign back and sends no PUT again', () => {
    const {rt, emulator} = offerDesk({offers: 3, campaigns: 3});
    rt.call('refreshCampaigns');
    const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
      c => c.maintain_by === 'ADV',
    )!;
    typeInto(
      rt,
      'Campaigns',
      recordsOf(rt, 'Campaigns').findIndex(
        r => r.campaign_id === campaign.campaign_id,
      ) + 2,
      'description',
      'typed here',
    );
    emulator.clearRequests();
    emulator.faults.add({
      kind: 'slow',
      method: 'PUT',
      path: '/api/open/v3/campaign',
      latencyMs: 400000,
    });
    expect(() => rt.call('pushCampaigns')).toThrow(EXCEEDED_TIME);
    expect(sent(emulator)).toEqual(['PUT campaign']);

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushCampaigns')).toMatchObject({ok: 1, requests: 1});
    expect(sent(emulator)).toEqual(['GET campaign']);
    expect(
      recordsOf(rt, 'Campaigns').find(
        r => r.campaign_id === campaign.campaign_id,
      ),
    ).toMatchObject({description: 'typed here', sync_status: 'OK'});
  });
});

describe('revert, then a push killed while its batch is out', () => {
  it('the re-run reads the budgets back: the server has the values from before, each sent once', () => {
    const {rt, emulator, ids} = budgetsEdited();
    const pushed = rt.call('pushBudgets') as {changeId: string};
    expect(rt.call('revertChange', pushed.changeId)).toMatchObject({
      edited: 3,
    });
    emulator.clearRequests();
    killedWhileOut(emulator, BUDGET);
    expect(() => rt.call('pushBudgets')).toThrow(EXCEEDED_TIME);
    expect(sent(emulator)).toEqual([
      'PUT offer/budget',
      'PUT offer/budget',
      'PUT offer/budget',
    ]);
    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 3, requests: 1});
    expect(sent(emulator)).toEqual(['GET offers']);
    for (const id of ids) {
      expect(emulator.account('demo_adv').offers.get(id)!.budget).toEqual([
        ALL,
      ]);
      expect(
        recordsOf(rt, 'Budgets').find(r => r.offer_id === id),
      ).toMatchObject({daily_cap: 100, sync_status: 'OK'});
    }
  });
});

describe('a write lost twice, and not applied', () => {
  it('the next push sends it, as its row says, without reading it back first', () => {
    const {rt, emulator, ids} = budgetsEdited();
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: BUDGET,
      applied: false,
    });
    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, error: 3});
    expect(
      recordsOf(rt, 'Budgets').find(r => r.offer_id === ids[0])!.sync_message,
    ).toMatch(
      /^Not applied: .*reading it back shows the server does not have it: the next push sends it again\.$/,
    );

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 3, requests: 3});
    expect(sent(emulator)).toEqual([
      'PUT offer/budget',
      'PUT offer/budget',
      'PUT offer/budget',
    ]);
  });
});

describe('a lost answer that reading back can never settle', () => {
  it('pushTracking of support_server_click alone: the push after "cannot tell" sends it, instead of reading back forever', () => {
    const {rt, emulator, id, offerRow, offer, pushed} = clickUrlPushed(
      offersPulled(),
      'https://t.example.test/f',
    );
    expect(pushed).toMatchObject({ok: 1});
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'YES');
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: TRACKING,
      count: 1,
    });
    trackingReadBackFails({rt, emulator});
    expect(rt.call('pushTracking')).toMatchObject({ok: 0, error: 1});
    expect(offer(id).sync_message).toMatch(
      /^Unknown outcome: .*reading it back failed/,
    );

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 0, error: 1});
    expect(sent(emulator)).toEqual(['GET offers']);
    expect(offer(id).sync_message).toMatch(
      /reading it back cannot tell: the API's list does not return support_server_click\. The next push sends it again/,
    );

    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 1, error: 0});
    expect(sent(emulator)).toEqual(['GET offers', 'PUT tracking']);
    expect(offer(id)).toMatchObject({
      sync_status: 'OK',
      support_server_click: 'YES',
    });
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({requests: 0});
  });
});

describe('a lost answer not read back, then the row typed back as last refreshed', () => {
  it('the row never says it is in sync: the server may hold what was sent; nothing sent, the refresh settles it', () => {
    const {rt, emulator} = offerDesk({offers: 3, campaigns: 3});
    rt.call('refreshCampaigns');
    const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
      c => c.maintain_by === 'ADV',
    )!;
    const at = () =>
      recordsOf(rt, 'Campaigns').findIndex(
        r => r.campaign_id === campaign.campaign_id,
      );
    const old = String(campaign.description);
    typeInto(rt, 'Campaigns', at() + 2, 'description', 'typed here');
    // Applied, its answer lost, and reading it back fails.
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: '/api/open/v3/campaign',
    });
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/campaign',
    });
    rt.call('pushCampaigns');
    emulator.faults.clear();
    expect(emulator.campaignView(campaign.campaign_id)!.description).toBe(
      'typed here',
    );
    typeInto(rt, 'Campaigns', at() + 2, 'description', old);
    emulator.clearRequests();

    rt.call('pushCampaigns');

    expect(sent(emulator)).toEqual([]);
    expect(recordsOf(rt, 'Campaigns')[at()]).toMatchObject({
      description: old,
      sync_status: 'ERROR',
      sync_message: `Unknown outcome: the answer to the last push of campaign_id ${campaign.campaign_id} was lost, and the row is back as last refreshed, so nothing was sent: the server may hold what was sent then. Refresh campaigns to see what the server has, then push again.`,
    });
    rt.call('refreshCampaigns');
    expect(recordsOf(rt, 'Campaigns')[at()]).toMatchObject({
      description: 'typed here',
    });
  });
});
