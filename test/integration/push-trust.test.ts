/**
 * Issue 13 ("Trust"), the push cases: nothing the server already applied is sent again, a
 * transient refusal is retried, as the built dist/Code.js runs in the local Apps Script
 * runtime against the Open API emulator.
 */
import {
  DEMO_ACCOUNTS,
  Emulator,
  FaultKind,
  FaultRule,
} from '../../local/emulator';

import type {Runtime} from '../../local/runtime';
import {
  EMULATOR_URL,
  offerDesk,
  offersPulled,
  recordsOf,
  typeInto,
} from '../support/offer-desk';
import {clickUrlPushed} from '../support/history';

const BUDGET_PATH = '/api/open/v3/offer/budget';
const ALL = {
  target_geo: 'ALL',
  total_budget: '1000',
  daily_cap_type: 'BUDGET' as const,
  daily_cap: '100',
};

/** Five ADV offers delivering to US with one ALL budget each, pulled; daily_cap typed. */
function fiveEdited() {
  const {rt, emulator} = offerDesk({offers: 5});
  const ids = [...emulator.account('demo_adv').offers.keys()];
  for (const id of ids) {
    emulator.updateOffer(id, {
      target_geo: 'US',
      budget: [ALL],
      maintain_by: 'ADV',
    });
  }
  rt.call('refreshOffers');
  ids.forEach((id, k) =>
    typeInto(rt, 'Budgets', rowOf(rt, id), 'daily_cap', TYPED_CAPS[k]),
  );
  emulator.clearRequests();
  return {rt, emulator, ids};
}

function rowOf(rt: Runtime, id: number): number {
  return recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
}

/** Each request as `METHOD path-tail offer_id(s)`. */
function sent(emulator: Emulator): string[] {
  return emulator.requests.map(r => {
    const tail = r.path.replace('/api/open/v3/', '');
    const body = r.body as {offer_id?: number} | null;
    const what = body?.offer_id ?? r.query.offer_id ?? '';
    return `${r.method} ${tail} ${what}`.trim();
  });
}

function statuses(rt: Runtime, ids: number[]): string[][] {
  const rows = recordsOf(rt, 'Budgets');
  return ids.map(id => {
    const row = rows.find(r => r.offer_id === id)!;
    return [String(row.sync_status), String(row.sync_message)];
  });
}

/** A fault of the first PUT to `path`. */
function firstPut(
  kind: FaultKind,
  path: string,
  rule: Partial<FaultRule> = {},
): FaultRule {
  return {kind, method: 'PUT', path, count: 1, ...rule};
}

/** The daily_cap fiveEdited() types into each offer. */
const TYPED_CAPS = ['301', '302', '303', '304', '305'];

/** Running `job` again sends nothing at all. */
function rerunSendsNothing(rt: Runtime, emulator: Emulator, job: string) {
  emulator.clearRequests();
  expect(rt.call(job)).toMatchObject({ok: 0, requests: 0});
  expect(emulator.requests).toEqual([]);
}

const dailyCaps = (emulator: Emulator, ids: number[]) =>
  ids.map(id => emulator.offerView(id)!.budget[0].daily_cap);

describe('pushBudgets: a connection lost in a batch of five PUTs', () => {
  it('reads the five back in one GET offers, sends none again when the server applied them, and a re-run sends nothing', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add(firstPut('drop', BUDGET_PATH));

    const summary = rt.call('pushBudgets') as Record<string, unknown>;

    expect(sent(emulator)).toEqual([
      ...ids.map(id => `PUT offer/budget ${id}`),
      `GET offers ${ids.join(',')}`,
    ]);
    expect(statuses(rt, ids)).toEqual(
      ids.map(id => [
        'OK',
        expect.stringMatching(
          new RegExp(
            `^Pushed the budget of offer ${id} \\(1 group\\): the answer was lost \\(PUT offer/budget: network error: .+\\); reading it back confirmed it\\.$`,
          ),
        ),
      ]),
    );
    expect(summary).toMatchObject({ok: 5, error: 0, requests: 6});
    expect(dailyCaps(emulator, ids)).toEqual(TYPED_CAPS);

    rerunSendsNothing(rt, emulator, 'pushBudgets');
  });

  it('sends again only the PUT the server did not apply', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add(firstPut('drop', BUDGET_PATH, {applied: false}));

    expect(rt.call('pushBudgets')).toMatchObject({ok: 5, error: 0});

    // The first PUT of the batch lost the connection before the server applied it.
    expect(sent(emulator)).toEqual([
      ...ids.map(id => `PUT offer/budget ${id}`),
      `GET offers ${ids.join(',')}`,
      `PUT offer/budget ${ids[0]}`,
    ]);
    const [first, ...rest] = statuses(rt, ids);
    expect(first).toEqual([
      'OK',
      expect.stringMatching(
        new RegExp(
          `^Pushed the budget of offer ${ids[0]} \\(1 group\\) \\(sent again: the answer was lost \\(PUT offer/budget: network error: .+\\), and reading it back showed it was not applied\\)\\.$`,
        ),
      ),
    ]);
    for (const [status, message] of rest) {
      expect(status).toBe('OK');
      expect(message).toMatch(/; reading it back confirmed it\.$/);
    }
    expect(dailyCaps(emulator, ids)).toEqual(TYPED_CAPS);

    rerunSendsNothing(rt, emulator, 'pushBudgets');
  });

  it('says "Unknown outcome" when the read-back fails too, and the next push reads back before sending', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add(firstPut('drop', BUDGET_PATH));
    emulator.faults.add({
      kind: 'error',
      status: 503,
      method: 'GET',
      path: '/api/open/v3/offers',
    });

    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, error: 5});
    expect(sent(emulator).filter(s => s.startsWith('PUT'))).toHaveLength(5);
    for (const [status, message] of statuses(rt, ids)) {
      expect(status).toBe('ERROR');
      expect(message).toMatch(
        /^Unknown outcome: the answer was lost \(PUT offer\/budget: network error: .+\); reading it back failed \(GET offers: HTTP 503 unexpected answer: 503 Service Unavailable \(emulator fault\)\): the next push reads it back before sending anything\.$/,
      );
    }

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({
      ok: 5,
      error: 0,
      requests: 1,
    });
    // The server had applied all five: only the read-back goes out.
    expect(sent(emulator)).toEqual([`GET offers ${ids.join(',')}`]);
    expect(statuses(rt, ids)[0]).toEqual([
      'OK',
      `Pushed the budget of offer ${ids[0]} (1 group): the answer to the last push was lost; reading it back confirmed it.`,
    ]);
  });

  it('reads back after a garbled 200 and after a 5xx that was applied, and sends none of them again', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add(firstPut('garbled', BUDGET_PATH));
    emulator.faults.add(
      firstPut('error', BUDGET_PATH, {status: 502, applied: true}),
    );

    expect(rt.call('pushBudgets')).toMatchObject({ok: 5, error: 0});
    expect(sent(emulator)).toEqual([
      ...ids.map(id => `PUT offer/budget ${id}`),
      `GET offers ${ids[0]},${ids[1]}`,
    ]);
    expect(statuses(rt, ids).slice(0, 2)).toEqual([
      [
        'OK',
        `Pushed the budget of offer ${ids[0]} (1 group): the answer was lost (PUT offer/budget: HTTP 200 unexpected answer, an HTML page: 502 Bad Gateway); reading it back confirmed it.`,
      ],
      [
        'OK',
        `Pushed the budget of offer ${ids[1]} (1 group): the answer was lost (PUT offer/budget: HTTP 502 unexpected answer: 502 Service Unavailable (emulator fault)); reading it back confirmed it.`,
      ],
    ]);
  });
});

describe('pushBudgets: a transient refusal under HTTP 200', () => {
  it('retries a busy answer within the run', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add(firstPut('busy', BUDGET_PATH));

    expect(rt.call('pushBudgets')).toMatchObject({ok: 5, error: 0});
    expect(sent(emulator)).toEqual([
      ...ids.map(id => `PUT offer/budget ${id}`),
      `PUT offer/budget ${ids[0]}`,
    ]);
    expect(dailyCaps(emulator, ids)).toEqual(TYPED_CAPS);
  });

  it('leaves the rows ERROR saying the next push sends them again, and the next push does', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add({kind: 'busy', method: 'PUT', path: BUDGET_PATH});

    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, error: 5});
    expect(statuses(rt, ids)[0]).toEqual([
      'ERROR',
      'PUT offer/budget: code 10500 system busy, please try again later: the next push sends it again.',
    ]);

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 5, error: 0, skipped: 0});
    expect(sent(emulator)).toEqual(ids.map(id => `PUT offer/budget ${id}`));
    expect(dailyCaps(emulator, ids)).toEqual(TYPED_CAPS);
  });

  it('treats an unknown code without field details as no verdict: the next push sends it again', () => {
    const {rt, emulator, ids} = fiveEdited();
    emulator.faults.add(
      firstPut('busy', BUDGET_PATH, {code: 10999, msg: 'internal failure'}),
    );

    expect(rt.call('pushBudgets')).toMatchObject({ok: 4, error: 1});
    expect(statuses(rt, ids)[0]).toEqual([
      'ERROR',
      'PUT offer/budget: code 10999 internal failure: the next push sends it again.',
    ]);
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, error: 0, skipped: 4});
    expect(sent(emulator)).toEqual([`PUT offer/budget ${ids[0]}`]);
  });
});

const TRACKING_PATH = '/api/open/v3/tracking';

/** Three ADV offers, pulled; their Offers rows by id. */

const trackingPuts = (emulator: Emulator) =>
  emulator.requests.filter(r => r.method === 'PUT').map(r => r.body);

describe('pushTracking: support_server_click, which the offers list never returns', () => {
  it('remembers the value a push sent: the refresh shows it, and a click_url edit sends it again', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    const [id] = ids;
    const method = String(offer(id).tracking_method);
    expect(offer(id).support_server_click).toBe('');
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'YES');
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/a',
    );
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});

    rt.call('refreshOffers');
    expect(offer(id)).toMatchObject({
      support_server_click: 'YES',
      click_url: 'https://t.example.test/a',
      sync_status: 'OK',
    });

    emulator.clearRequests();
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/b',
    );
    expect(rt.call('pushTracking')).toMatchObject({ok: 1, invalid: 0});
    expect(trackingPuts(emulator)).toEqual([
      {
        offer_id: id,
        tracking_method: method,
        click_url: 'https://t.example.test/b',
        support_server_click: 'YES',
      },
    ]);
    expect(offer(id)).toMatchObject({
      sync_status: 'OK',
      sync_message: `Pushed the tracking of offer ${id} (click_url changed; also sent, as last refreshed: tracking_method APPSFLYER, support_server_click YES).`,
    });
  });

  it('refuses a click_url edit where the value is not known, then sends the sidebar default and says so', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    const [id] = ids;
    const method = String(offer(id).tracking_method);
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/c',
    );

    expect(rt.call('pushTracking')).toMatchObject({invalid: 1, ok: 0});
    expect(emulator.requests).toEqual([]);
    expect(offer(id)).toMatchObject({
      sync_status: 'INVALID',
      sync_message:
        'support_server_click: the server\'s value is not known to the add-on (the offers list does not return it, and no push from here sent it), so a tracking push cannot keep it: fill the support_server_click column down with YES or NO, or set "support_server_click when not known" in the sidebar settings.',
    });

    expect(
      rt.call('saveSettings', {
        baseUrl: EMULATOR_URL,
        accessKey: DEMO_ACCOUNTS.main.accessKey,
        supportServerClick: 'NO',
      }),
    ).toMatchObject({supportServerClick: 'NO'});
    const preview = rt.call('pushTracking', {dryRun: true});
    expect(preview).toMatchObject({
      wouldSend: [
        {
          offer_id: id,
          tracking_method: method,
          click_url: 'https://t.example.test/c',
          support_server_click: 'NO',
        },
      ],
    });
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    expect(trackingPuts(emulator)).toEqual([
      {
        offer_id: id,
        tracking_method: method,
        click_url: 'https://t.example.test/c',
        support_server_click: 'NO',
      },
    ]);
    expect(offer(id)).toMatchObject({
      sync_status: 'OK',
      sync_message: `Pushed the tracking of offer ${id} (click_url changed; also sent, as last refreshed: tracking_method APPSFLYER; support_server_click NO is the sidebar's default: the server's value is not known to the add-on).`,
    });
    rt.call('refreshOffers');
    expect(offer(id).support_server_click).toBe('NO');
  });

  it('takes a fill-down of the column as the decision: nothing is sent for it alone, and the next click_url edit sends it', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    for (const id of ids)
      typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'YES');
    typeInto(
      rt,
      'Offers',
      offerRow(ids[0]),
      'click_url',
      'https://t.example.test/d',
    );

    expect(rt.call('pushTracking')).toMatchObject({ok: 1, skipped: 2});
    expect(trackingPuts(emulator)).toEqual([
      expect.objectContaining({offer_id: ids[0], support_server_click: 'YES'}),
    ]);
    for (const id of ids.slice(1)) {
      expect(offer(id)).toMatchObject({
        support_server_click: 'YES',
        sync_status: '',
        sync_message:
          "support_server_click YES is kept for this offer's next tracking_method or click_url change and not sent alone: the server's value is not known to the add-on, and a tracking push restarts the click-URL test.",
      });
    }

    rerunSendsNothing(rt, emulator, 'pushTracking');
    rt.call('refreshOffers');
    expect(offer(ids[1])).toMatchObject({
      support_server_click: 'YES',
      sync_status: '',
    });

    emulator.clearRequests();
    typeInto(
      rt,
      'Offers',
      offerRow(ids[1]),
      'click_url',
      'https://t.example.test/e',
    );
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    expect(trackingPuts(emulator)).toEqual([
      expect.objectContaining({
        offer_id: ids[1],
        click_url: 'https://t.example.test/e',
        support_server_click: 'YES',
      }),
    ]);
  });
});

describe('pushTracking: what a click_url edit sends besides', () => {
  it('reads the offer first: a tracking_method changed on the server since the refresh is not put back', () => {
    const desk = offersPulled();
    desk.emulator.updateOffer(desk.ids[0], {tracking_method: 'ADJUST'});
    const {rt, emulator, id, offer, pushed} = clickUrlPushed(
      desk,
      'https://t.example.test/g',
    );

    expect(pushed).toMatchObject({ok: 0, requests: 1});
    expect(sent(emulator)).toEqual([`GET offers ${id}`]);
    expect(emulator.offerView(id)!.tracking_method).toBe('ADJUST');
    expect(offer(id)).toMatchObject({
      tracking_method: 'APPSFLYER',
      click_url: 'https://t.example.test/g',
      sync_status: 'CONFLICT',
      sync_message: `Not sent: the server changed offer_id ${id} since the last refresh, and this push would put back what you did not edit as it was then. Refresh offers and budgets (your edits stay), check them, then push again.`,
    });

    // The refresh shows the server's value beside the edit, as any CONFLICT.
    rt.call('refreshOffers');
    expect(offer(id)).toMatchObject({
      click_url: 'https://t.example.test/g',
      sync_status: 'CONFLICT',
      sync_message:
        "Changed on the server too; the server has: tracking_method = ADJUST, click_url = (empty), support_server_click = (empty). A push sends your values; type the server's to keep them.",
    });
  });

  it('says on the row what it sends as last refreshed', () => {
    const {emulator, id, offer, pushed} = clickUrlPushed(
      offersPulled(),
      'https://t.example.test/h',
    );

    expect(pushed).toMatchObject({ok: 1});
    expect(sent(emulator)).toEqual([`GET offers ${id}`, `PUT tracking ${id}`]);
    expect(offer(id).sync_message).toBe(
      `Pushed the tracking of offer ${id} (click_url, support_server_click changed; also sent, as last refreshed: tracking_method APPSFLYER).`,
    );
  });
});

describe('pushTracking: a lost answer', () => {
  it('reads a dropped PUT tracking back and does not send it again (that would restart the click-URL test)', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    for (const id of ids.slice(0, 2)) {
      typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'NO');
      typeInto(
        rt,
        'Offers',
        offerRow(id),
        'click_url',
        `https://t.example.test/${id}`,
      );
    }
    emulator.faults.add(firstPut('drop', TRACKING_PATH));

    expect(rt.call('pushTracking')).toMatchObject({ok: 2, error: 0});
    expect(sent(emulator)).toEqual([
      `GET offers ${ids[0]},${ids[1]}`,
      `PUT tracking ${ids[0]}`,
      `PUT tracking ${ids[1]}`,
      `GET offers ${ids[0]},${ids[1]}`,
    ]);
    expect(offer(ids[0]).sync_message).toMatch(
      new RegExp(
        `^Pushed the tracking of offer ${ids[0]} \\(click_url, support_server_click changed; also sent, as last refreshed: tracking_method APPSFLYER\\): the answer was lost \\(PUT tracking: network error: .+\\); reading it back confirmed it\\.$`,
      ),
    );
    rt.call('refreshOffers');
    expect(offer(ids[0]).support_server_click).toBe('NO');
  });

  it('says reading back cannot tell when only support_server_click changed, and the next push sends it again', () => {
    const {rt, emulator, id, offerRow, offer} = clickUrlPushed(
      offersPulled(),
      'https://t.example.test/f',
    );
    emulator.clearRequests();
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'YES');
    emulator.faults.add(firstPut('garbled', TRACKING_PATH));

    expect(rt.call('pushTracking')).toMatchObject({ok: 0, error: 1});
    expect(sent(emulator)).toEqual([
      `GET offers ${id}`,
      `PUT tracking ${id}`,
      `GET offers ${id}`,
    ]);
    expect(offer(id)).toMatchObject({
      sync_status: 'ERROR',
      sync_message: expect.stringMatching(
        /^Unknown outcome: the answer was lost \(PUT tracking: HTTP 200 unexpected answer, an HTML page: 502 Bad Gateway\), and reading it back cannot tell: the API's list does not return support_server_click\. The next push sends it again, which restarts the click-URL test\.$/,
      ),
    });

    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    expect(trackingPuts(emulator)).toEqual([
      expect.objectContaining({offer_id: id, support_server_click: 'YES'}),
    ]);
  });
});

describe('pushTracking: a lost answer, where the offers list shows support_server_click', () => {
  /** One ADV offer whose support_server_click the list shows as NO, pulled; YES typed. */
  function serverClickListed() {
    const {rt, emulator} = offerDesk({offers: 1, listsServerClick: true});
    const [id] = [...emulator.account('demo_adv').offers.keys()];
    emulator.updateOffer(id, {
      maintain_by: 'ADV',
      tracking_method: 'APPSFLYER',
      support_server_click: 'NO',
    });
    rt.call('refreshOffers');
    expect(recordsOf(rt, 'Offers')[0].support_server_click).toBe('NO');
    typeInto(rt, 'Offers', 2, 'support_server_click', 'YES');
    emulator.clearRequests();
    return {rt, emulator, id};
  }

  it('reads the value back and confirms it: not sent again, no "cannot tell"', () => {
    const {rt, emulator, id} = serverClickListed();
    emulator.faults.add(firstPut('garbled', TRACKING_PATH));

    expect(rt.call('pushTracking')).toMatchObject({ok: 1, error: 0});
    expect(sent(emulator)).toEqual([
      `GET offers ${id}`,
      `PUT tracking ${id}`,
      `GET offers ${id}`,
    ]);
    expect(recordsOf(rt, 'Offers')[0].sync_message).toMatch(
      /^Pushed the tracking of offer \d+ \(support_server_click changed; also sent, as last refreshed: tracking_method APPSFLYER, click_url \(empty\)\): the answer was lost \(PUT tracking: HTTP 200 unexpected answer, an HTML page: 502 Bad Gateway\); reading it back confirmed it\.$/,
    );
  });

  it('sends it again when reading back shows the server still has the old value', () => {
    const {rt, emulator, id} = serverClickListed();
    emulator.faults.add(firstPut('drop', TRACKING_PATH, {applied: false}));

    expect(rt.call('pushTracking')).toMatchObject({ok: 1, error: 0});
    expect(sent(emulator)).toEqual([
      `GET offers ${id}`,
      `PUT tracking ${id}`,
      `GET offers ${id}`,
      `PUT tracking ${id}`,
    ]);
    expect(emulator.offerView(id)!.support_server_click).toBe('YES');
  });
});

describe('a value typed into a read-only column', () => {
  it('is named in the preview and the push, sends nothing for it, and the next refresh puts the server value back', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    const [typedOnly, withEdit] = ids;
    const bidRate = offer(typedOnly).bid_rate;
    typeInto(rt, 'Offers', offerRow(typedOnly), 'bid_rate', '2.5');
    typeInto(rt, 'Offers', offerRow(withEdit), 'offer_name', 'My better name');
    typeInto(rt, 'Offers', offerRow(withEdit), 'support_server_click', 'NO');
    typeInto(
      rt,
      'Offers',
      offerRow(withEdit),
      'click_url',
      'https://t.example.test/g',
    );
    const bidNote =
      'bid_rate is read-only: your value "2.5" is not sent, and will be replaced by the server\'s at the next refresh.';
    const nameNote =
      'offer_name is read-only: your value "My better name" is not sent, and will be replaced by the server\'s at the next refresh.';

    const preview = rt.call('pushTracking', {dryRun: true});
    expect(preview).toMatchObject({
      invalid: 1,
      wouldSend: [expect.objectContaining({offer_id: withEdit})],
    });
    expect(offer(typedOnly)).toMatchObject({
      sync_status: 'INVALID',
      sync_message: bidNote,
    });
    expect(offer(withEdit)).toMatchObject({
      sync_status: 'EDITED',
      sync_message: `Preview: a push sends the tracking of offer ${withEdit} (click_url, support_server_click changed; also sent, as last refreshed: tracking_method APPSFLYER). ${nameNote}`,
    });
    expect(emulator.requests).toEqual([]);

    expect(rt.call('pushTracking')).toMatchObject({ok: 1, invalid: 1});
    expect(trackingPuts(emulator)).toEqual([
      {
        offer_id: withEdit,
        tracking_method: 'APPSFLYER',
        click_url: 'https://t.example.test/g',
        support_server_click: 'NO',
      },
    ]);
    expect(offer(typedOnly)).toMatchObject({
      bid_rate: 2.5,
      sync_status: 'INVALID',
      sync_message: bidNote,
    });
    expect(offer(withEdit)).toMatchObject({
      sync_status: 'OK',
      sync_message: `Pushed the tracking of offer ${withEdit} (click_url, support_server_click changed; also sent, as last refreshed: tracking_method APPSFLYER). ${nameNote}`,
    });

    rt.call('refreshOffers');
    expect(offer(typedOnly).bid_rate).toEqual(bidRate);
    expect(offer(withEdit).offer_name).not.toBe('My better name');
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 0, invalid: 0});
    expect(emulator.requests).toEqual([]);
  });

  it('is named in Budgets and Campaigns too, and a refresh then a push flags nothing', () => {
    const {rt, emulator, ids} = fiveEdited();
    const campaignId = [...emulator.account('demo_adv').campaigns.keys()][0];
    emulator.updateCampaign(campaignId, {maintain_by: 'ADV'});
    rt.call('refreshCampaigns');
    expect(rt.call('pushCampaigns')).toMatchObject({invalid: 0, ok: 0});
    const campaignRow =
      recordsOf(rt, 'Campaigns').findIndex(r => r.campaign_id === campaignId) +
      2;
    typeInto(rt, 'Campaigns', campaignRow, 'status', 'RUNNING NOW');
    typeInto(rt, 'Budgets', rowOf(rt, ids[0]), 'target_geo', 'US,FR');
    emulator.clearRequests();

    expect(rt.call('pushCampaigns')).toMatchObject({invalid: 1, requests: 0});
    expect(recordsOf(rt, 'Campaigns')[campaignRow - 2].sync_message).toBe(
      'status is read-only: your value "RUNNING NOW" is not sent, and will be replaced by the server\'s at the next refresh.',
    );
    expect(rt.call('pushBudgets')).toMatchObject({ok: 5});
    expect(statuses(rt, ids)[0]).toEqual([
      'OK',
      `Pushed the budget of offer ${ids[0]} (1 group). target_geo is read-only: your value "US,FR" is not sent, and will be replaced by the server's at the next refresh.`,
    ]);
    expect(emulator.requests.filter(r => r.method !== 'PUT')).toEqual([]);
  });
});

describe('pushCampaigns: a lost answer', () => {
  it('reads the campaign back by campaign_id, judging only the fields it sent', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const campaignId = [...emulator.account('demo_adv').campaigns.keys()][0];
    emulator.updateCampaign(campaignId, {
      maintain_by: 'ADV',
      promotion_type: 'APP',
      min_version: '5.0',
    });
    rt.call('refreshCampaigns');
    const row =
      recordsOf(rt, 'Campaigns').findIndex(r => r.campaign_id === campaignId) +
      2;
    typeInto(rt, 'Campaigns', row, 'min_version', '7.0.1');
    // Someone else renames the product meanwhile: not this push's business.
    emulator.updateCampaign(campaignId, {product_name: 'Renamed elsewhere'});
    emulator.faults.add(firstPut('drop', '/api/open/v3/campaign'));
    emulator.clearRequests();

    expect(rt.call('pushCampaigns')).toMatchObject({ok: 1, error: 0});
    expect(
      emulator.requests.map(r => [r.method, r.query.campaign_id ?? r.body]),
    ).toEqual([
      ['PUT', {campaign_id: campaignId, min_version: '7.0.1'}],
      ['GET', String(campaignId)],
    ]);
    expect(recordsOf(rt, 'Campaigns')[row - 2].sync_message).toMatch(
      /^Pushed min_version: the answer was lost \(PUT campaign: network error: .+\); reading it back confirmed it\.$/,
    );
  });

  it('confirms an icon typed in capitals: the md5 went (and is listed) in lower case', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const campaignId = [...emulator.account('demo_adv').campaigns.keys()][0];
    emulator.updateCampaign(campaignId, {maintain_by: 'ADV', icon: ''});
    const icon = [...emulator.account('demo_adv').materials.values()].find(
      m => m.resolution === '512x512',
    )!.creative_md5;
    rt.call('refreshCampaigns');
    const row =
      recordsOf(rt, 'Campaigns').findIndex(r => r.campaign_id === campaignId) +
      2;
    typeInto(rt, 'Campaigns', row, 'icon', icon.toUpperCase());
    emulator.faults.add(firstPut('drop', '/api/open/v3/campaign'));
    emulator.clearRequests();

    expect(rt.call('pushCampaigns')).toMatchObject({ok: 1, error: 0});
    // Not sent again: the server has it, in the spelling the add-on sent.
    expect(
      emulator.requests.map(r => [r.method, r.query.campaign_id ?? r.body]),
    ).toEqual([
      ['PUT', {campaign_id: campaignId, icon}],
      ['GET', String(campaignId)],
    ]);
    expect(recordsOf(rt, 'Campaigns')[row - 2].sync_message).toMatch(
      /^Pushed icon: the answer was lost \(PUT campaign: network error: .+\); reading it back confirmed it\.$/,
    );
  });
});
