/**
 * Issue 22, "The tour and its messages": what a newcomer reads on the way through the tour of
 * docs/getting-started.md, as the built dist/Code.js says it in the local Apps Script runtime
 * against the Open API emulator. Each message is asserted word for word; the menu's alerts
 * are read as the user sees them (and with the rows behind them already written).
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {driveFiles} from '../support/materials';
import {
  EMULATOR_URL,
  cpiOfferRow,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  typeInto,
  typeRows,
} from '../support/offer-desk';

const SUB = DEMO_ACCOUNTS.subA.name;

/** The desk of the tour: the main account's offers ADV-maintained, a demo image in Drive. */
function tour() {
  const drive = driveFiles({'1BannerFileId': ['banner_320x50.png', 'banner']});
  const desk = offerDesk(
    {offers: 6, campaigns: 3, materials: 2},
    {
      drive,
      // Only the demo host answers, as in the playground: others are unknown hosts.
      fetch: request =>
        request.url.startsWith(EMULATOR_URL)
          ? desk.emulator.handle(request)
          : {kind: 'dropped', applied: false, latencyMs: 0},
    },
  );
  const main = desk.emulator.account('demo_adv');
  for (const id of main.offers.keys()) {
    desk.emulator.updateOffer(id, {
      maintain_by: 'ADV',
      target_geo: 'US,GB',
      budget: [
        {
          target_geo: 'ALL',
          total_budget: '1000',
          daily_cap_type: 'BUDGET',
          daily_cap: '100',
        },
      ],
    });
  }
  desk.rt.open('FULL');
  return desk;
}

/** The alerts shown since `from`, as their title and text. */
const alertsOf = (rt: Runtime, from = 0) =>
  rt.ui
    .alerts()
    .slice(from)
    .map(a => [a.title, a.prompt]);

const lastToast = (rt: Runtime) => rt.ui.toasts().at(-1)?.message;

const budgetRowOf = (rt: Runtime, id: number) =>
  recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;

describe('the tour, step by step', () => {
  it('refreshes everything: "0 sub-accounts (main account)", said once', () => {
    const {rt} = tour();
    rt.clickMenu('Refresh everything');
    expect(lastToast(rt)).toBe(
      'Refreshed 3 campaigns, 6 offers, 2 creative materials, 0 sub-accounts (main account): Campaigns: 3 new, 0 removed; Offers: 6 new, 0 removed; Budgets: 6 new, 0 removed; Creatives: 2 new, 0 removed.',
    );
    expect(rt.ui.alerts()).toEqual([]);
  });

  it('lists a sub-account once its name is in the Sub-accounts sheet: the API lists none without a name', () => {
    const {rt} = tour();
    rt.clickMenu('Refresh everything');
    typeInto(rt, 'Sub-accounts', 2, 'sub_adv_user_name', SUB);
    rt.clickMenu('Refresh sub-accounts');
    expect(lastToast(rt)).toBe('Refreshed 1 sub-account (main account).');
    expect(recordsOf(rt, 'Sub-accounts')).toEqual([
      expect.objectContaining({
        sub_adv_user_name: SUB,
        access_key: DEMO_ACCOUNTS.subA.accessKey,
      }),
    ]);
  });

  it("refuses a budget below 50 in the add-on's own words, and the alert opens over the written status", () => {
    const {rt, emulator} = tour();
    rt.clickMenu('Refresh everything');
    const id = [...emulator.account('demo_adv').offers.keys()][0];
    typeInto(rt, 'Budgets', budgetRowOf(rt, id), 'daily_cap', '10');
    rt.clickMenu('Push budgets');
    const row = budgetRowOf(rt, id);
    expect(alertsOf(rt)).toEqual([
      [
        'Push budgets',
        `0 OK, 1 invalid, 0 error, 5 unchanged budget rows (main account). See sync_message in Budgets.\n\nBudgets row ${row}: INVALID: daily_cap: at least 50`,
      ],
    ]);
    expect(rt.ui.alerts()[0].writesUnsent).toBe(false);
    expect(recordsOf(rt, 'Budgets')[row - 2]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: 'daily_cap: at least 50',
    });
  });

  it('reverts a push before the next edit: the summary names no title twice and says "send it" for one row', () => {
    const {rt, emulator} = tour();
    rt.clickMenu('Refresh everything');
    const id = [...emulator.account('demo_adv').offers.keys()][0];
    typeInto(rt, 'Budgets', budgetRowOf(rt, id), 'daily_cap', '120');
    const pushed = rt.call('pushBudgets') as {changeId: string};
    const revert = rt.call('revertChange', pushed.changeId) as {
      message: string;
    };
    expect(revert.message).toBe(
      '1 row put back as EDITED: preview and push to send it. Nothing was sent.',
    );
    expect(recordsOf(rt, 'Budgets')[budgetRowOf(rt, id) - 2]).toMatchObject({
      daily_cap: 100,
      sync_status: 'EDITED',
    });
  });

  it('previews a create: each Creative Sets row says what the preview found for its offer', () => {
    const {rt, emulator} = tour();
    rt.clickMenu('Refresh everything');
    rt.call('createOffers');
    typeRows(rt, 'New Offers', [
      cpiOfferRow(deliverableCampaign(emulator), 'playground_launch', {
        target_ad_type: 'BANNER',
      }),
    ]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: 'playground_launch',
        creative_set_name: 'launch_banners',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: recordsOf(rt, 'Creatives')[0].creative_md5 as string,
      },
    ]);
    rt.call('createOffers', {dryRun: true});
    const offer = recordsOf(rt, 'New Offers')[0];
    expect(offer.sync_status).toBe('EDITED');
    expect(recordsOf(rt, 'Creative Sets')[0]).toMatchObject({
      sync_status: 'EDITED',
      sync_message: `Not created yet: New Offers row 2 is EDITED: ${String(offer.sync_message)}`,
    });
    expect(offer.sync_message).toMatch(
      /^Preview: a run looks offer_name playground_launch up .*creates offer playground_launch/,
    );
  });

  it("uploads as the main account, then refreshes as a sub-account: the material stays the main account's row, no INVALID row", () => {
    const {rt, emulator} = tour();
    rt.clickMenu('Refresh everything');
    rt.call('createOffers');
    typeInto(rt, 'Creatives', 4, 'file', '1BannerFileId');
    typeInto(rt, 'Creatives', 4, 'creative_name', 'launch_banner');
    rt.clickMenu('Upload creative materials');
    const uploaded = recordsOf(rt, 'Creatives')[2];
    const stored = emulator
      .account('demo_adv')
      .materials.get(uploaded.creative_md5 as string)!;
    // Type and size are there at once, not at the next refresh.
    expect(uploaded).toMatchObject({
      creative_name: 'launch_banner',
      creative_type: 'IMAGE',
      size: stored.size,
      sync_status: 'OK',
      sync_message: `Uploaded: creative_md5 ${stored.creative_md5}, creative_name launch_banner.`,
    });

    rt.call('setActingAccount', SUB);
    const before = rt.ui.alerts().length;
    rt.clickMenu('Refresh everything');
    expect(alertsOf(rt, before)).toEqual([]);
    expect(lastToast(rt)).toMatch(
      new RegExp(
        `^Refreshed .*\\(sub-account ${SUB}\\): .*Creatives: \\d+ new, 0 removed`,
      ),
    );
    expect(
      recordsOf(rt, 'Creatives').find(
        r => r.creative_md5 === uploaded.creative_md5,
      ),
    ).toMatchObject({account: '(main account)', sync_status: 'OK'});
  });

  it('says of an id no refresh pulled that its account cell may be wrong, before "delete the row"', () => {
    const {rt} = tour();
    rt.clickMenu('Refresh everything');
    const md5 = '0123456789abcdef0123456789abcdef';
    typeInto(rt, 'Creatives', 4, 'creative_md5', md5);
    rt.clickMenu('Refresh creative materials');
    const message = `creative_md5 ${md5} is not among the records the main account lists, and no refresh here pulled it: check the id and the account cell, or delete the row.`;
    expect(alertsOf(rt)).toEqual([
      [
        'Refresh creative materials',
        `Refreshed 2 creative materials (main account): 1 row INVALID.\n\nCreatives row 4: INVALID: ${message}`,
      ],
    ]);
    // Written before the alert opened: the row behind it says the same.
    expect(rt.ui.alerts()[0].writesUnsent).toBe(false);
    expect(recordsOf(rt, 'Creatives')[2]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: message,
    });
  });

  it('keeps an edit made as the main account while acting as a sub-account, and pushes it signed by the main account', () => {
    const {rt, emulator} = tour();
    rt.clickMenu('Refresh everything');
    const id = [...emulator.account('demo_adv').offers.keys()][1];
    typeInto(rt, 'Budgets', budgetRowOf(rt, id), 'daily_cap', '150');

    rt.call('setActingAccount', SUB);
    rt.clickMenu('Refresh everything');
    expect(recordsOf(rt, 'Budgets')[budgetRowOf(rt, id) - 2]).toMatchObject({
      account: '(main account)',
      daily_cap: 150,
    });

    emulator.clearRequests();
    rt.clickMenu('Push budgets');
    expect(lastToast(rt)).toBe(
      '1 OK, 0 invalid, 0 error, 7 unchanged budget rows (main account: 1 record).',
    );
    expect(
      emulator.requests
        .filter(r => r.method === 'PUT')
        .map(r => [r.accessKey, r.body]),
    ).toEqual([
      [
        DEMO_ACCOUNTS.main.accessKey,
        {
          offer_id: id,
          budget: [
            expect.objectContaining({country_code: 'ALL', daily_cap: 150}),
          ],
        },
      ],
    ]);
    expect(recordsOf(rt, 'Budgets')[budgetRowOf(rt, id) - 2]).toMatchObject({
      sync_status: 'OK',
    });
  });
});

describe('connecting', () => {
  it('words a menu or sidebar job that cannot reach the API as Test connection does', () => {
    const {rt} = tour();
    rt.call('saveSettings', {
      baseUrl: 'https://api.wrong.test',
      accessKey: DEMO_ACCOUNTS.main.accessKey,
    });
    rt.clickMenu('Refresh campaigns');
    const url = 'https://api.wrong.test/api/open/v3/campaign';
    expect(alertsOf(rt)).toEqual([
      [
        'Refresh campaigns: not done',
        `Could not reach the API: GET campaign: network error: Address unavailable: ${url}?page=1&limit=50. Check the base URL (host and port) and that the server is up.`,
      ],
    ]);
    // The sidebar's Run button gets the same words (google.script.run passes the message).
    expect(() => rt.call('refreshCampaigns')).toThrow(
      new Error(
        `Could not reach the API: GET campaign: network error: Address unavailable: ${url}?page=1&limit=50. Check the base URL (host and port) and that the server is up.`,
      ),
    );
    expect(rt.call('testConnection')).toMatchObject({
      problem: 'network',
      message: `Could not reach the API: GET campaign: network error: Address unavailable: ${url}?page=1&limit=1. Check the base URL (host and port) and that the server is up.`,
    });
  });

  it('refuses at Save a base URL that ends in /api/open/v3', () => {
    const {rt} = tour();
    expect(() =>
      rt.call('saveSettings', {
        baseUrl: `${EMULATOR_URL}/api/open/v3`,
        accessKey: DEMO_ACCOUNTS.main.accessKey,
      }),
    ).toThrow(
      "Settings not saved: baseUrl must be the API's host only, without /api/open/v3: Offer Desk adds that path itself.",
    );
    expect(rt.call('getSettings')).toMatchObject({baseUrl: EMULATOR_URL});
  });
});

describe('sub-accounts', () => {
  it('creating one from the sidebar says where its password went: there was no cell', () => {
    const {rt, emulator} = tour();
    rt.call('refreshSubAccounts');
    rt.call('createSubAccount', 'team_faro', 'a-Password-1');
    expect(recordsOf(rt, 'Sub-accounts')).toEqual([
      expect.objectContaining({
        sub_adv_user_name: 'team_faro',
        access_key: emulator.account('team_faro').access_key,
        sync_status: 'OK',
        sync_message:
          'Created: sub-account team_faro. Its api key is kept in your user properties, never in the sheet; the password typed in the sidebar went to the API only and is kept nowhere.',
      }),
    ]);
  });
});
