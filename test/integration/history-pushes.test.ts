/**
 * Issue 14: the History and revert of campaign and tracking pushes, and of their outcomes
 * (refused, unknown), as the built dist/Code.js runs them in the local Apps Script runtime
 * against the Open API emulator.
 */
import type {Emulator, FaultKind, FaultRule} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  budgetsPulled,
  trackedOffers,
  trackingReadBackFails,
} from '../support/history';
import {
  formulasOf,
  offerDesk,
  recordsOf,
  typeInto,
} from '../support/offer-desk';

interface Summary {
  message: string;
  ok: number;
  error: number;
  invalid: number;
  skipped: number;
  edited?: number;
  conflict?: number;
  changeId?: string;
  problems: Array<{row: number; status: string; message: string}>;
}

/** History rows as [record, field, before, after, outcome, message] of one change. */
function historyOf(rt: Runtime, changeId: string | undefined) {
  return recordsOf(rt, 'History')
    .filter(r => r.change_id === changeId)
    .map(r => [r.record, r.field, r.before, r.after, r.outcome, r.message]);
}

const writes = (emulator: Emulator) =>
  emulator.requests
    .filter(r => r.method === 'PUT' || r.method === 'POST')
    .map(r => [r.method, r.path.replace('/api/open/v3/', ''), r.body]);

/** A fault of the first PUT to `path`. */
const firstPut = (
  kind: FaultKind,
  path: string,
  rule: Partial<FaultRule> = {},
): FaultRule => ({kind, method: 'PUT', path, count: 1, ...rule});

/** One ADV app campaign with a description starting with "=", pulled. */
function campaignPulled() {
  const {rt, emulator} = offerDesk({offers: 2});
  const id = [...emulator.account('demo_adv').campaigns.keys()][0];
  emulator.updateCampaign(id, {
    maintain_by: 'ADV',
    promotion_type: 'APP',
    campaign_name: 'Spring push',
    description: '=1+1 is the hook',
  });
  rt.call('refreshCampaigns');
  emulator.clearRequests();
  const row = () =>
    recordsOf(rt, 'Campaigns').findIndex(r => r.campaign_id === id) + 2;
  const campaign = () =>
    recordsOf(rt, 'Campaigns').find(r => r.campaign_id === id)!;
  return {rt, emulator, id, row, campaign};
}

describe('History of a campaign push, and its revert', () => {
  it('writes a row per changed field, keeps "=" texts as text, and revert then push restores the server exactly', () => {
    const {rt, emulator, id, row, campaign} = campaignPulled();
    const server = structuredClone(emulator.campaignView(id));
    typeInto(rt, 'Campaigns', row(), 'campaign_name', 'Summer push');
    // The column is plain text: the cell holds the text "=SUM(A1)", not a formula.
    typeInto(rt, 'Campaigns', row(), 'description', '=SUM(A1)');

    const pushed = rt.call('pushCampaigns') as Summary;
    expect(pushed.ok).toBe(1);
    expect(writes(emulator)).toEqual([
      [
        'PUT',
        'campaign',
        {
          campaign_id: id,
          campaign_name: 'Summer push',
          description: '=SUM(A1)',
        },
      ],
    ]);
    const message = campaign().sync_message;
    expect(message).toBe('Pushed campaign_name, description.');
    expect(historyOf(rt, pushed.changeId)).toEqual([
      [
        String(id),
        'campaign_name',
        'Spring push',
        'Summer push',
        'OK',
        message,
      ],
      [
        String(id),
        'description',
        '=1+1 is the hook',
        '=SUM(A1)',
        'OK',
        message,
      ],
    ]);
    expect(formulasOf(rt, 'History')).toEqual([]);

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(emulator.requests).toEqual([]);
    expect(reverted).toMatchObject({edited: 1, conflict: 0});
    expect(campaign()).toMatchObject({
      campaign_name: 'Spring push',
      description: '=1+1 is the hook',
      sync_status: 'EDITED',
      sync_message: `Reverts change ${pushed.changeId} (campaign_name: Summer push back to Spring push; description: =SUM(A1) back to =1+1 is the hook): not pushed yet. Preview, then push to send it.`,
    });
    expect(formulasOf(rt, 'Campaigns')).toEqual([]);

    const back = rt.call('pushCampaigns') as Summary;
    expect(back.ok).toBe(1);
    expect(writes(emulator)).toEqual([
      [
        'PUT',
        'campaign',
        {
          campaign_id: id,
          campaign_name: 'Spring push',
          description: '=1+1 is the hook',
        },
      ],
    ]);
    expect(emulator.campaignView(id)).toEqual(server);
    expect(historyOf(rt, back.changeId)).toEqual([
      [
        String(id),
        'campaign_name',
        'Summer push',
        'Spring push',
        'OK',
        'Pushed campaign_name, description.',
      ],
      [
        String(id),
        'description',
        '=SUM(A1)',
        '=1+1 is the hook',
        'OK',
        'Pushed campaign_name, description.',
      ],
    ]);
  });
});

const TRACKING_PATH = '/api/open/v3/tracking';
const CAMPAIGN_PATH = '/api/open/v3/campaign';

describe('History of a tracking push, and its revert', () => {
  it('puts click_url and tracking_method back, and keeps a support_server_click whose value before was not known', () => {
    const {rt, emulator, ids, offerRow, offer} = trackedOffers();
    const [id] = ids;
    typeInto(rt, 'Offers', offerRow(id), 'tracking_method', 'ADJUST');
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/new',
    );
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'NO');

    const pushed = rt.call('pushTracking') as Summary;
    expect(pushed.ok).toBe(1);
    const message = `Pushed the tracking of offer ${id} (tracking_method, click_url, support_server_click changed).`;
    expect(offer(id).sync_message).toBe(message);
    expect(historyOf(rt, pushed.changeId)).toEqual([
      [String(id), 'tracking_method', 'APPSFLYER', 'ADJUST', 'OK', message],
      [
        String(id),
        'click_url',
        'https://t.example.test/old/0',
        'https://t.example.test/new',
        'OK',
        message,
      ],
      [String(id), 'support_server_click', '', 'NO', 'OK', message],
    ]);

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(emulator.requests).toEqual([]);
    expect(reverted).toMatchObject({edited: 1, conflict: 0});
    expect(offer(id)).toMatchObject({
      tracking_method: 'APPSFLYER',
      click_url: 'https://t.example.test/old/0',
      support_server_click: 'NO',
      sync_status: 'EDITED',
      sync_message: `Reverts change ${pushed.changeId} (tracking_method: ADJUST back to APPSFLYER; click_url: https://t.example.test/new back to https://t.example.test/old/0): not pushed yet. support_server_click stays NO: its value before the change was not known to the add-on. Preview, then push to send it.`,
    });

    const back = rt.call('pushTracking') as Summary;
    expect(back).toMatchObject({ok: 1, invalid: 0});
    expect(writes(emulator)).toEqual([
      [
        'PUT',
        'tracking',
        {
          offer_id: id,
          tracking_method: 'APPSFLYER',
          click_url: 'https://t.example.test/old/0',
          support_server_click: 'NO',
        },
      ],
    ]);
    expect(emulator.offerView(id)).toMatchObject({
      tracking_method: 'APPSFLYER',
      click_url: 'https://t.example.test/old/0',
    });
  });
});

/** Types a new click_url (and support_server_click NO, so it may be sent) into each offer. */
function typeLinks(
  rt: Runtime,
  offerRow: (id: number) => number,
  ids: readonly number[],
) {
  for (const id of ids) {
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'NO');
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      `https://t.example.test/new/${id}`,
    );
  }
}

describe('History outcomes, and what revert does with them', () => {
  it('records a refusal as ERROR with its code and msg; revert puts nothing back for it', () => {
    const {rt, emulator, ids, offerRow, offer} = trackedOffers();
    const [refused, applied] = ids;
    typeLinks(rt, offerRow, [refused, applied]);
    emulator.faults.add(
      firstPut('busy', TRACKING_PATH, {code: 10999, msg: 'internal failure'}),
    );

    const pushed = rt.call('pushTracking') as Summary;
    expect(pushed).toMatchObject({ok: 1, error: 1});
    const refusal =
      'PUT tracking: code 10999 internal failure: the next push sends it again.';
    const ok = `Pushed the tracking of offer ${applied} (click_url, support_server_click changed; also sent, as last refreshed: tracking_method APPSFLYER).`;
    expect(historyOf(rt, pushed.changeId)).toEqual([
      [
        String(refused),
        'click_url',
        'https://t.example.test/old/0',
        `https://t.example.test/new/${refused}`,
        'ERROR',
        refusal,
      ],
      [String(refused), 'support_server_click', '', 'NO', 'ERROR', refusal],
      [
        String(applied),
        'click_url',
        'https://t.example.test/old/1',
        `https://t.example.test/new/${applied}`,
        'OK',
        ok,
      ],
      [String(applied), 'support_server_click', '', 'NO', 'OK', ok],
    ]);

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 1, conflict: 0, skipped: 0});
    expect(reverted.message).toBe(
      "1 row put back as EDITED: preview and push to send it; 1 row back to the server's values, which never took the change: nothing to push for it. Nothing was sent.",
    );
    expect(emulator.requests).toEqual([]);
    // The refused row no longer holds the change, which the next push would have sent again.
    expect(offer(refused)).toMatchObject({
      click_url: 'https://t.example.test/old/0',
      support_server_click: '',
      sync_status: '',
      sync_message: `Reverts change ${pushed.changeId}, which the server did not take (refused): the row is back to the server's values (click_url: https://t.example.test/new/${refused} back to https://t.example.test/old/0; support_server_click: NO back to (empty)), so a push sends nothing for it. Before this revert the row said ERROR: PUT tracking: code 10999 internal failure: the next push sends it again.`,
    });
    expect(offer(applied)).toMatchObject({
      click_url: 'https://t.example.test/old/1',
      sync_status: 'EDITED',
    });

    expect(rt.call('pushTracking')).toMatchObject({ok: 1, error: 0});
    expect(writes(emulator)).toEqual([
      [
        'PUT',
        'tracking',
        {
          offer_id: applied,
          tracking_method: 'APPSFLYER',
          click_url: 'https://t.example.test/old/1',
          support_server_click: 'NO',
        },
      ],
    ]);
    expect(emulator.offerView(refused)!.click_url).toBe(
      'https://t.example.test/old/0',
    );
  });

  it('takes a refused budget change out of its row too, and the push back sends only the applied one', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(2);
    const [refused, applied] = ids;
    cap(refused, '150');
    cap(applied, '160');
    emulator.faults.add(
      firstPut('busy', '/api/open/v3/offer/budget', {
        code: 10999,
        msg: 'internal failure',
      }),
    );
    const pushed = rt.call('pushBudgets') as Summary;
    expect(pushed).toMatchObject({ok: 1, error: 1});
    expect(historyOf(rt, pushed.changeId).map(r => r.slice(0, 5))).toEqual([
      [String(refused), 'daily_cap [ALL]', '100', '150', 'ERROR'],
      [String(applied), 'daily_cap [ALL]', '100', '160', 'OK'],
    ]);

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 1, conflict: 0});
    expect(budget(refused)).toMatchObject({daily_cap: 100, sync_status: ''});
    expect(budget(applied)).toMatchObject({
      daily_cap: 100,
      sync_status: 'EDITED',
    });
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0});
    expect(writes(emulator)).toEqual([
      ['PUT', 'offer/budget', expect.objectContaining({offer_id: applied})],
    ]);
    expect(ids.map(id => emulator.offerView(id)!.budget[0].daily_cap)).toEqual([
      '100',
      '100',
    ]);
  });

  it('records UNKNOWN where reading back cannot tell: the list does not return support_server_click', () => {
    const {rt, emulator, ids, offerRow} = trackedOffers();
    const [id] = ids;
    typeLinks(rt, offerRow, [id]);
    rt.call('pushTracking');
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'YES');
    emulator.faults.add(firstPut('garbled', TRACKING_PATH));

    const pushed = rt.call('pushTracking') as Summary;
    expect(pushed).toMatchObject({ok: 0, error: 1});
    const rows = historyOf(rt, pushed.changeId);
    expect(rows.map(r => r.slice(0, 5))).toEqual([
      [String(id), 'support_server_click', 'NO', 'YES', 'UNKNOWN'],
    ]);
    expect(rows[0][5]).toMatch(
      /^Unknown outcome: the answer was lost \(PUT tracking: HTTP 200 unexpected answer, an HTML page: 502 Bad Gateway\), and reading it back cannot tell: the API's list does not return support_server_click\. The next push sends it again, which restarts the click-URL test\.$/,
    );
  });

  it('puts an UNKNOWN tracking change back once a refresh shows it applied, keeping the support_server_click typed for it', () => {
    const {rt, emulator, ids, offerRow, offer} = trackedOffers();
    const [id] = ids;
    typeLinks(rt, offerRow, [id]);
    emulator.faults.add(firstPut('drop', TRACKING_PATH));
    trackingReadBackFails({rt, emulator}, 503);
    const pushed = rt.call('pushTracking') as Summary;
    emulator.faults.clear();
    expect(historyOf(rt, pushed.changeId).map(r => r[4])).toEqual([
      'UNKNOWN',
      'UNKNOWN',
    ]);
    rt.call('refreshOffers');

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 1, conflict: 0});
    expect(offer(id)).toMatchObject({
      click_url: 'https://t.example.test/old/0',
      support_server_click: 'NO',
      sync_status: 'EDITED',
      // What the refresh's CONFLICT said is kept.
      sync_message: `Reverts change ${pushed.changeId} (click_url: https://t.example.test/new/${id} back to https://t.example.test/old/0): not pushed yet. support_server_click stays NO: its value before the change was not known to the add-on. Preview, then push to send it. Before this revert the row said CONFLICT: Changed on the server too; the server has: support_server_click = (empty). A push sends your values; type the server's to keep them.`,
    });
    expect(rt.call('pushTracking')).toMatchObject({ok: 1, invalid: 0});
    expect(writes(emulator)).toEqual([
      [
        'PUT',
        'tracking',
        {
          offer_id: id,
          tracking_method: 'APPSFLYER',
          click_url: 'https://t.example.test/old/0',
          support_server_click: 'NO',
        },
      ],
    ]);
  });

  /** A PUT campaign whose answer is lost and whose read-back fails: UNKNOWN. */
  function unknownPush(applied: boolean) {
    const desk = campaignPulled();
    const {rt, emulator, id, row} = desk;
    typeInto(rt, 'Campaigns', row(), 'campaign_name', 'Summer push');
    emulator.faults.add(firstPut('drop', CAMPAIGN_PATH, {applied}));
    emulator.faults.add({
      kind: 'error',
      status: 503,
      method: 'GET',
      path: CAMPAIGN_PATH,
    });
    const pushed = rt.call('pushCampaigns') as Summary;
    emulator.faults.clear();
    expect(pushed).toMatchObject({ok: 0, error: 1});
    const rows = historyOf(rt, pushed.changeId);
    expect(rows.map(r => r.slice(0, 5))).toEqual([
      [String(id), 'campaign_name', 'Spring push', 'Summer push', 'UNKNOWN'],
    ]);
    expect(rows[0][5]).toMatch(
      /^Unknown outcome: the answer was lost \(PUT campaign: network error: .+\); reading it back failed \(GET campaign: HTTP 503 unexpected answer: 503 Service Unavailable \(emulator fault\)\): the next push reads it back before sending anything\.$/,
    );
    return {...desk, pushed};
  }

  it('says to refresh first when no pull since the UNKNOWN change shows whether it applied', () => {
    const {rt, emulator, id, campaign, pushed} = unknownPush(true);
    const before = recordsOf(rt, 'Campaigns');

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.message).toBe(
      `Nothing put back. Nothing was sent. Whether campaign_id ${id} holds change ${pushed.changeId} is not known (the answer to a push of it was lost, and no refresh since shows it): refresh Campaigns, then revert ${pushed.changeId} again. Its rows were not changed.`,
    );
    expect(emulator.requests).toEqual([]);
    expect(recordsOf(rt, 'Campaigns')).toEqual(before);
    expect(campaign().sync_status).toBe('ERROR');
  });

  it('puts an UNKNOWN change back when the last pull shows it applied', () => {
    const {rt, emulator, id, campaign, pushed} = unknownPush(true);
    rt.call('refreshCampaigns');
    expect(campaign().campaign_name).toBe('Summer push');

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted).toMatchObject({edited: 1, conflict: 0});
    expect(emulator.requests).toEqual([]);
    expect(campaign()).toMatchObject({
      campaign_name: 'Spring push',
      sync_status: 'EDITED',
      sync_message: `Reverts change ${pushed.changeId} (campaign_name: Summer push back to Spring push): not pushed yet. Preview, then push to send it.`,
    });
    rt.call('pushCampaigns');
    expect(writes(emulator)).toEqual([
      ['PUT', 'campaign', {campaign_id: id, campaign_name: 'Spring push'}],
    ]);
    expect(emulator.campaignView(id)!.campaign_name).toBe('Spring push');
  });

  it('sends nothing for an UNKNOWN change the last pull shows was not applied: the row no longer holds it', () => {
    const {rt, emulator, id, campaign, pushed} = unknownPush(false);
    rt.call('refreshCampaigns');
    // The user's edit stays after the refresh, for the next push to send.
    expect(campaign().campaign_name).toBe('Summer push');
    expect(emulator.campaignView(id)!.campaign_name).toBe('Spring push');

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.message).toBe(
      "Nothing put back; 1 row back to the server's values, which never took the change: nothing to push for it. Nothing was sent.",
    );
    expect(emulator.requests).toEqual([]);
    expect(campaign()).toMatchObject({
      campaign_name: 'Spring push',
      sync_status: '',
      sync_message: `Reverts change ${pushed.changeId}, which the server did not take (not there at the last refresh): the row is back to the server's values (campaign_name: Summer push back to Spring push), so a push sends nothing for it. Before this revert the row said ERROR: Unknown outcome: the answer was lost (PUT campaign: network error: Address unavailable: https://api.emulator.test/api/open/v3/campaign); reading it back failed (GET campaign: HTTP 503 unexpected answer: 503 Service Unavailable (emulator fault)): the next push reads it back before sending anything.`,
    });
    expect(rt.call('pushCampaigns')).toMatchObject({ok: 0, requests: 0});
    expect(emulator.requests).toEqual([]);

    // Reverting again finds nothing more to do.
    const twice = rt.call('revertChange', pushed.changeId) as Summary;
    expect(twice.message).toBe(
      'Nothing put back; 1 record needed nothing. Nothing was sent.',
    );
  });
});
