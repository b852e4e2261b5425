import {ConfigError} from '../../../src/api/errors';
import {pushBudgets} from '../../../src/jobs/push/push-budgets';
import {pushCampaigns} from '../../../src/jobs/push/push-campaigns';
import {pushTracking} from '../../../src/jobs/push/push-tracking';
import {
  refreshCampaigns,
  refreshOffers,
} from '../../../src/jobs/refresh/refresh';
import {SettingsStore} from '../../../src/jobs/settings-store';
import {emulatorPlatform} from '../../support/emulator-platform';
import {DEMO_ACCOUNTS} from '../../../local/emulator/demo-accounts';

const ALL = {
  target_geo: 'ALL',
  total_budget: '1000',
  daily_cap_type: 'BUDGET' as const,
  daily_cap: '100',
};

/** Three ADV offers delivering to US,GB with one ALL budget each, pulled into the sheets. */
function pulled(offers = 3) {
  const setup = emulatorPlatform({offers});
  const ids = [...setup.emulator.account('demo_adv').offers.keys()].sort(
    (a, b) => a - b,
  );
  for (const id of ids) {
    setup.emulator.updateOffer(id, {
      target_geo: 'US,GB',
      budget: [ALL],
      maintain_by: 'ADV',
    });
  }
  refreshOffers(setup.platform);
  const rowOf = (id: number) =>
    setup.workbook.records('Budgets').findIndex(r => r.offer_id === id);
  const puts = () => setup.emulator.requests.filter(r => r.method === 'PUT');
  return {...setup, ids, rowOf, puts};
}

describe('pushBudgets', () => {
  it('sends the changed offer only, marks its row OK, and sends nothing when run again', () => {
    const {platform, emulator, workbook, ids, rowOf, puts} = pulled();
    workbook.edit('Budgets', rowOf(ids[1]), 'daily_cap', 250);
    const summary = pushBudgets(platform);
    expect(puts().map(r => r.body)).toEqual([
      {
        offer_id: ids[1],
        budget: [
          {
            country_code: 'ALL',
            daily_cap_type: 'BUDGET',
            daily_cap: 250,
            total_budget: 1000,
          },
        ],
      },
    ]);
    expect(emulator.offerView(ids[1])!.budget).toEqual([
      {...ALL, daily_cap: '250'},
    ]);
    expect(workbook.records('Budgets')[rowOf(ids[1])]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Pushed the budget of offer ${ids[1]} (1 group).`,
      synced_at: new Date(platform.clock.now()),
    });
    expect(summary).toMatchObject({
      ok: 1,
      invalid: 0,
      error: 0,
      skipped: 2,
      remaining: 0,
      requests: 1,
    });
    emulator.clearRequests();
    expect(pushBudgets(platform)).toMatchObject({ok: 0, requests: 0});
    expect(puts()).toEqual([]);
  });

  it('replaces the whole budget with the rows of the offer: a split into per-geo groups', () => {
    const {platform, emulator, workbook, ids, rowOf} = pulled();
    const row = rowOf(ids[0]);
    workbook.edit('Budgets', row, 'country_code', 'US');
    const sheet = workbook.sheet('Budgets')!;
    const end = workbook.grid('Budgets').length + 1;
    [
      'offer_id',
      'country_code',
      'daily_cap_type',
      'daily_cap',
      'total_budget',
    ].forEach((h, i) =>
      sheet.type(
        end,
        workbook.grid('Budgets')[0].indexOf(h) + 1,
        [ids[0], 'GB', 'CONVERSION', 60, 'OPEN'][i],
      ),
    );
    pushBudgets(platform);
    expect(emulator.offerView(ids[0])!.budget).toEqual([
      {
        target_geo: 'US',
        total_budget: '1000',
        daily_cap_type: 'BUDGET',
        daily_cap: '100',
      },
      {
        target_geo: 'GB',
        total_budget: 'OPEN',
        daily_cap_type: 'CONVERSION',
        daily_cap: '60',
      },
    ]);
    const statuses = workbook
      .records('Budgets')
      .filter(r => r.offer_id === ids[0])
      .map(r => r.sync_status);
    expect(statuses).toEqual(['OK', 'OK']);
  });

  it('refuses a broken budget for every row of the offer and sends nothing for it', () => {
    const {platform, workbook, ids, rowOf, puts} = pulled();
    workbook.edit('Budgets', rowOf(ids[0]), 'daily_cap', 10);
    workbook.edit('Budgets', rowOf(ids[1]), 'country_code', 'FR');
    workbook.edit('Budgets', rowOf(ids[2]), 'total_budget', 'lots');
    const summary = pushBudgets(platform);
    expect(puts()).toEqual([]);
    const rows = workbook.records('Budgets');
    expect(
      [ids[0], ids[1], ids[2]].map(id => [
        rows[rowOf(id)].sync_status,
        rows[rowOf(id)].sync_message,
      ]),
    ).toEqual([
      ['INVALID', 'daily_cap: at least 50'],
      [
        'INVALID',
        'country_code: FR cannot take a budget: it is not a delivery geo of the offer (allowed geos: US,GB); budget: delivery geos without a budget: US,GB: per-geo budgets must cover every delivery geo once',
      ],
      ['INVALID', 'total_budget: must be a number or OPEN (not "lots")'],
    ]);
    expect(summary).toMatchObject({invalid: 3, ok: 0});
    expect(summary.problems[0]).toMatchObject({
      sheet: 'Budgets',
      status: 'INVALID',
    });
  });

  it('tells the rows of a refused offer which row broke the rule', () => {
    const {platform, workbook, ids, rowOf} = pulled();
    workbook.edit('Budgets', rowOf(ids[0]), 'country_code', 'US');
    const sheet = workbook.sheet('Budgets')!;
    const end = workbook.grid('Budgets').length + 1;
    sheet.type(end, 2, ids[0]);
    sheet.type(end, 5, 'GB');
    sheet.type(end, 6, 'BUDGET');
    sheet.type(end, 7, 20);
    sheet.type(end, 8, 100);
    pushBudgets(platform);
    const rows = workbook.records('Budgets');
    expect(rows[rowOf(ids[0])].sync_message).toBe(
      `Not sent: another row of offer ${ids[0]} is refused (row ${end}: daily_cap: at least 50).`,
    );
    expect(rows[end - 2].sync_message).toBe('daily_cap: at least 50');
  });

  it('previews: marks rows EDITED or INVALID, returns the requests, sends nothing', () => {
    const {platform, workbook, ids, rowOf, puts} = pulled();
    workbook.edit('Budgets', rowOf(ids[0]), 'daily_cap', 300);
    workbook.edit('Budgets', rowOf(ids[1]), 'daily_cap', 3);
    const summary = pushBudgets(platform, {dryRun: true});
    expect(puts()).toEqual([]);
    expect(summary).toMatchObject({
      dryRun: true,
      edited: 1,
      invalid: 1,
      requests: 0,
      wouldSend: [
        {
          offer_id: ids[0],
          budget: [
            {
              country_code: 'ALL',
              daily_cap_type: 'BUDGET',
              daily_cap: 300,
              total_budget: 1000,
            },
          ],
        },
      ],
      message:
        'Preview (nothing sent): 1 row would be sent in 1 request; 1 row INVALID: see sync_message in Budgets (main account).',
    });
    expect(workbook.records('Budgets')[rowOf(ids[0])]).toMatchObject({
      sync_status: 'EDITED',
      sync_message: `Preview: a push sends the budget of offer ${ids[0]} (1 group).`,
    });
    expect(pushBudgets(platform)).toMatchObject({ok: 1, invalid: 1});
  });

  it('refuses edits of an offer the account manager maintains', () => {
    const {platform, emulator, workbook, ids, rowOf, puts} = pulled();
    emulator.updateOffer(ids[0], {maintain_by: 'AM'});
    refreshOffers(platform);
    workbook.edit('Budgets', rowOf(ids[0]), 'daily_cap', 300);
    pushBudgets(platform);
    expect(puts()).toEqual([]);
    expect(workbook.records('Budgets')[rowOf(ids[0])]).toMatchObject({
      sync_status: 'INVALID',
      sync_message:
        'maintain_by: this record is managed by your account manager (maintain_by AM): you may view it, not change it. Nothing was sent.',
    });
  });

  it('shows the API refusal with its code, msg and field messages', () => {
    const {platform, emulator, workbook, ids, rowOf} = pulled();
    emulator.updateOffer(ids[0], {maintain_by: 'AM'});
    workbook.edit('Budgets', rowOf(ids[0]), 'daily_cap', 300);
    const summary = pushBudgets(platform);
    expect(workbook.records('Budgets')[rowOf(ids[0])]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: `PUT offer/budget: code 10007 offer is maintained by AM and cannot be edited [offer_id: The offer ${ids[0]} is maintained by AM: view only.]: change the row to send it again.`,
    });
    expect(summary).toMatchObject({error: 1});
    // The same rows would be refused again: a re-run sends nothing and keeps the reason.
    emulator.clearRequests();
    expect(pushBudgets(platform)).toMatchObject({ok: 0, error: 0, requests: 0});
    expect(workbook.records('Budgets')[rowOf(ids[0])].sync_status).toBe(
      'ERROR',
    );
    // After a refresh (the edit is kept) the push tries again.
    emulator.updateOffer(ids[0], {maintain_by: 'ADV'});
    refreshOffers(platform);
    expect(workbook.records('Budgets')[rowOf(ids[0])].sync_status).toBe(
      'ERROR',
    );
    expect(pushBudgets(platform)).toMatchObject({ok: 1});
  });

  it('reads back after a dropped connection, sends once more, says so, and a re-run completes the rows', () => {
    const {platform, emulator, workbook, ids, rowOf} = pulled();
    workbook.edit('Budgets', rowOf(ids[0]), 'daily_cap', 300);
    emulator.faults.configure({
      rules: [{kind: 'drop', method: 'PUT', applied: false}],
    });
    emulator.clearRequests();
    pushBudgets(platform);
    expect(
      emulator.requests.map(r => `${r.method} ${r.path.split('/').pop()}`),
    ).toEqual(['PUT budget', 'GET offers', 'PUT budget', 'GET offers']);
    expect(workbook.records('Budgets')[rowOf(ids[0])]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: expect.stringMatching(
        /^Not applied: the answer was lost \(PUT offer\/budget: network error: .*\), and reading it back shows the server does not have it: the next push sends it again\.$/,
      ),
    });
    emulator.faults.clear();
    expect(pushBudgets(platform)).toMatchObject({ok: 1, error: 0});
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('300');
  });

  it('stops starting batches near the time limit and leaves the rest EDITED for the next run', () => {
    const {platform, emulator, workbook, ids, rowOf, transport} = pulled(250);
    // 3 times the pulled 100 at most: no budget guard question in the way.
    for (const id of ids) workbook.edit('Budgets', rowOf(id), 'daily_cap', 300);
    const sendAll = transport.sendAll.bind(transport);
    transport.sendAll = requests => {
      platform.clock.ms += 130_000;
      return sendAll(requests);
    };
    const first = pushBudgets(platform);
    expect(first).toMatchObject({ok: 200, remaining: 50, requests: 200});
    expect(first.message).toBe(
      '200 OK, 0 invalid, 0 error, 0 unchanged budget rows (main account). 50 rows left for lack of time: run it again to continue.',
    );
    const left = workbook
      .records('Budgets')
      .filter(r => r.sync_status === 'EDITED');
    expect(left).toHaveLength(50);
    expect(left[0].sync_message).toBe(
      'Not sent yet: the time ran out. Run the push again to send it.',
    );
    const second = pushBudgets(platform);
    expect(second).toMatchObject({ok: 50, remaining: 0});
    expect(
      ids.every(id => emulator.offerView(id)!.budget[0].daily_cap === '300'),
    ).toBe(true);
  });

  it('asks for a refresh first; acting as another account, signs each row with its own account', () => {
    const fresh = emulatorPlatform();
    expect(() => pushBudgets(fresh.platform)).toThrow(
      new ConfigError(
        'There is no Budgets sheet yet: run "Refresh offers and budgets" first, then edit and push.',
      ),
    );
    const {platform, workbook, ids, rowOf, puts} = pulled();
    new SettingsStore(platform.userProperties).setActingAccount(
      'doc-1',
      'demo_sub_a',
    );
    workbook.edit('Budgets', rowOf(ids[0]), 'daily_cap', 250);
    expect(pushBudgets(platform)).toMatchObject({ok: 1, requests: 1});
    expect(puts().map(r => r.accessKey)).toEqual([
      DEMO_ACCOUNTS.main.accessKey,
    ]);
  });
});

describe('pushCampaigns', () => {
  it('sends only the changed fields with campaign_id', () => {
    const {platform, emulator, workbook} = emulatorPlatform({campaigns: 3});
    const ids = [...emulator.account('demo_adv').campaigns.keys()];
    for (const id of ids)
      emulator.updateCampaign(id, {
        maintain_by: 'ADV',
        promotion_type: 'APP',
        min_version: '5.0',
      });
    refreshCampaigns(platform);
    const row = workbook
      .records('Campaigns')
      .findIndex(r => r.campaign_id === ids[0]);
    workbook.edit('Campaigns', row, 'description', 'New words');
    workbook.edit('Campaigns', row, 'min_version', '6.1');
    const summary = pushCampaigns(platform);
    expect(
      emulator.requests.filter(r => r.method === 'PUT').map(r => r.body),
    ).toEqual([
      {campaign_id: ids[0], description: 'New words', min_version: '6.1'},
    ]);
    expect(summary.ok).toBe(1);
    expect(workbook.records('Campaigns')[row]).toMatchObject({
      sync_status: 'OK',
      sync_message: 'Pushed description, min_version.',
    });
    expect(emulator.campaignView(ids[0])).toMatchObject({
      description: 'New words',
      min_version: '6.1',
    });
  });

  it('refuses a rule break and an AM campaign without sending', () => {
    const {platform, emulator, workbook} = emulatorPlatform({campaigns: 3});
    const ids = [...emulator.account('demo_adv').campaigns.keys()];
    emulator.updateCampaign(ids[0], {maintain_by: 'ADV'});
    emulator.updateCampaign(ids[1], {maintain_by: 'AM'});
    refreshCampaigns(platform);
    const rowOf = (id: number) =>
      workbook.records('Campaigns').findIndex(r => r.campaign_id === id);
    workbook.edit('Campaigns', rowOf(ids[0]), 'app_size', 1.234);
    workbook.edit('Campaigns', rowOf(ids[1]), 'campaign_name', 'Mine now');
    pushCampaigns(platform);
    expect(emulator.requests.filter(r => r.method === 'PUT')).toEqual([]);
    const rows = workbook.records('Campaigns');
    expect(rows[rowOf(ids[0])].sync_message).toBe(
      'app_size: app_size may have two decimals at most',
    );
    expect(rows[rowOf(ids[1])].sync_message).toBe(
      'maintain_by: this record is managed by your account manager (maintain_by AM): you may view it, not change it. Nothing was sent.',
    );
  });
});

describe('pushTracking', () => {
  it('needs support_server_click picked, then sends all four fields; the refresh shows the new test status', () => {
    const {platform, emulator, workbook, ids} = pulled();
    const row = workbook
      .records('Offers')
      .findIndex(r => r.offer_id === ids[0]);
    workbook.edit(
      'Offers',
      row,
      'click_url',
      'https://track.example.test/new?c=1',
    );
    pushTracking(platform);
    expect(workbook.records('Offers')[row]).toMatchObject({
      sync_status: 'INVALID',
      sync_message:
        'support_server_click: the server\'s value is not known to the add-on (the offers list does not return it, and no push from here sent it), so a tracking push cannot keep it: fill the support_server_click column down with YES or NO, or set "support_server_click when not known" in the sidebar settings.',
    });
    workbook.edit('Offers', row, 'support_server_click', 'yes');
    pushTracking(platform);
    const put = emulator.requests.filter(r => r.method === 'PUT');
    expect(put.map(r => r.body)).toEqual([
      {
        offer_id: ids[0],
        tracking_method: workbook.records('Offers')[row].tracking_method,
        click_url: 'https://track.example.test/new?c=1',
        support_server_click: 'YES',
      },
    ]);
    expect(workbook.records('Offers')[row].sync_status).toBe('OK');
    refreshOffers(platform);
    expect(workbook.records('Offers')[row]).toMatchObject({
      click_url: 'https://track.example.test/new?c=1',
      click_url_status: 'PENDDING',
      support_server_click: 'YES',
      sync_status: 'OK',
    });
  });
});
