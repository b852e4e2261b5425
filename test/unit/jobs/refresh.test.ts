import {DEMO_ACCOUNTS} from '../../../local/emulator';
import {ApiError, ConfigError} from '../../../src/api/errors';
import {listCreativeAds} from '../../../src/jobs/refresh/creative-ads';
import {
  refreshCampaigns,
  refreshOffers,
} from '../../../src/jobs/refresh/refresh';
import {refreshAll} from '../../../src/jobs/refresh/refresh-all';
import {LockBusyError} from '../../../src/jobs/run';
import {setActingAccount} from '../../../src/jobs/host/settings';
import {SettingsStore} from '../../../src/jobs/settings-store';
import type {HttpRequest} from '../../../src/platform/ports';
import {SUB_ACCOUNTS} from '../../../src/sheets/schemas/sub-accounts';
import {STATE_SHEET} from '../../../src/state/book';
import {SheetWriter} from '../../../src/sheets/writer';
import {emulatorPlatform} from '../../support/emulator-platform';
import {queryOf} from '../../support/fakes';
import {fill} from './create-support';

type Desk = ReturnType<typeof emulatorPlatform>;

/**
 * Records each round trip from now on: a fetchAll batch, or a single fetch as a batch of one,
 * each request as [path tail, page, access-key] (or the name looked up instead of a page).
 */
function roundTrips({platform}: Desk): string[][][] {
  const trips: string[][][] = [];
  const inner = platform.http;
  const shown = (r: HttpRequest) => {
    const q = queryOf(r);
    return [
      new URL(r.url).pathname.split('/').pop()!,
      q.page ?? `name ${q.sub_adv_user_name}`,
      r.headers['access-key'],
    ];
  };
  platform.http = {
    send(r) {
      trips.push([shown(r)]);
      return inner.send(r);
    },
    sendAll(rs) {
      trips.push(rs.map(shown));
      return inner.sendAll(rs);
    },
  };
  return trips;
}

const MAIN = DEMO_ACCOUNTS.main.accessKey;
const SUB = DEMO_ACCOUNTS.subA.accessKey;

describe('refreshOffers', () => {
  it('fills Offers and Budgets from one listing of ceil(N/50) requests', () => {
    const {platform, emulator, workbook} = emulatorPlatform({offers: 120});
    const summary = refreshOffers(platform);
    const listed = emulator.requests.filter(r => r.path.endsWith('/offers'));
    expect(listed.map(r => [r.query.page, r.query.limit])).toEqual([
      ['1', '50'],
      ['2', '50'],
      ['3', '50'],
    ]);
    expect(summary).toMatchObject({
      job: 'refreshOffers',
      account: 'main account',
      ok: 120,
      invalid: 0,
      error: 0,
      requests: 3,
      message:
        'Refreshed 120 offers (main account): Offers: 120 new, 0 removed; Budgets: 120 new, 0 removed.',
    });
    expect(workbook.records('Offers')).toHaveLength(120);
    const offerIds = new Set(workbook.records('Budgets').map(r => r.offer_id));
    expect(offerIds.size).toBe(120);
    expect(workbook.sheet(STATE_SHEET)!.hidden).toBe(true);
  });

  it('lets the job forget a sheet once written: its values and rows are not held to the end', () => {
    const {platform, workbook} = emulatorPlatform({offers: 120});
    refreshOffers(platform);
    workbook.edit('Budgets', 0, 'daily_cap', 777);
    const flushed: string[] = [];
    const original = SheetWriter.prototype.flush;
    const spy = jest
      .spyOn(SheetWriter.prototype, 'flush')
      .mockImplementation(function (this: SheetWriter<unknown>) {
        flushed.push(this.table.schema.name);
        return original.call(this);
      });
    try {
      refreshOffers(platform);
    } finally {
      spy.mockRestore();
    }
    // Each sheet's writer flushed once, as it is written; the job's save at its end flushes
    // neither again (it held both sheets' values and rows until then).
    expect(flushed).toEqual(['Offers', 'Budgets']);
    expect(workbook.records('Budgets')[0]).toMatchObject({
      daily_cap: 777,
      sync_status: 'EDITED',
    });
  });

  it('keeps an edited budget row through the next refresh, and says so', () => {
    const {platform, workbook} = emulatorPlatform();
    refreshOffers(platform);
    workbook.edit('Budgets', 0, 'daily_cap', 777);
    const summary = refreshOffers(platform);
    expect(workbook.records('Budgets')[0]).toMatchObject({
      daily_cap: 777,
      sync_status: 'EDITED',
    });
    expect(summary).toMatchObject({edited: 1, skipped: 1});
    expect(summary.message).toContain('1 kept with unpushed edits');
  });
});

describe('refreshAll', () => {
  it('changes no sheet when the API fails mid-pull, and throws why', () => {
    const {platform, emulator, workbook} = emulatorPlatform({offers: 120});
    refreshAll(platform);
    const before = [...workbook.sheets.keys()].map(name => [
      name,
      workbook.grid(name),
    ]);
    emulator.updateCampaign(
      emulator.account('demo_adv').campaigns.keys().next().value!,
      {campaign_name: 'Changed'},
    );
    emulator.faults.configure({
      rules: [{kind: 'error', status: 503, path: '/api/open/v3/offers'}],
    });
    let error: unknown;
    try {
      refreshAll(platform);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe(
      'GET offers: HTTP 503 unexpected answer: 503 Service Unavailable (emulator fault)',
    );
    expect(
      [...workbook.sheets.keys()].map(name => [name, workbook.grid(name)]),
    ).toEqual(before);
  });

  it('refuses to run while another job holds the spreadsheet', () => {
    const {platform} = emulatorPlatform();
    platform.documentLock().tryAcquire(0);
    expect(() => refreshAll(platform)).toThrow(LockBusyError);
  });
});

describe('refreshAll round trips', () => {
  it('sends the first pages of all four listings in one fetchAll, then all other pages in one', () => {
    const desk = emulatorPlatform({offers: 120, campaigns: 60, materials: 3});
    const trips = roundTrips(desk);
    const summary = refreshAll(desk.platform);
    expect(trips).toEqual([
      [
        ['campaign', '1', MAIN],
        ['offers', '1', MAIN],
        ['source', '1', MAIN],
        ['sub_adv_account', '1', MAIN],
      ],
      [
        ['campaign', '2', MAIN],
        ['offers', '2', MAIN],
        ['offers', '3', MAIN],
      ],
    ]);
    expect(summary).toMatchObject({ok: 183, requests: 7});
    expect(summary.message).toMatch(
      /^Refreshed 60 campaigns, 120 offers, 3 creative materials, 0 sub-accounts \(main account\)/,
    );
    // The bar follows all listings together: page 1 of each, then the rest.
    expect(desk.platform.progress.reports.map(r => [r.done, r.total])).toEqual([
      [103, 183],
      [183, 183],
    ]);
  });

  it("acting as a sub-account, signs its listings with its keys and the sub-accounts listing with the main account's, in the same batches", () => {
    const desk = emulatorPlatform({offers: 600, campaigns: 60, materials: 3});
    setActingAccount(desk.platform, DEMO_ACCOUNTS.subA.name);
    fill(desk.workbook, SUB_ACCOUNTS, [
      {sub_adv_user_name: DEMO_ACCOUNTS.subA.name},
    ]);
    const trips = roundTrips(desk);
    const summary = refreshAll(desk.platform);
    // The sub-account has 60 offers and 12 campaigns. The emulator refuses the nameless
    // sub-accounts listing, so the name in the sheet is looked up after the shared phases.
    expect(trips).toEqual([
      [
        ['campaign', '1', SUB],
        ['offers', '1', SUB],
        ['source', '1', SUB],
        ['sub_adv_account', '1', MAIN],
      ],
      [['offers', '2', SUB]],
      [['sub_adv_account', `name ${DEMO_ACCOUNTS.subA.name}`, MAIN]],
    ]);
    expect(summary).toMatchObject({
      account: `sub-account ${DEMO_ACCOUNTS.subA.name}`,
      requests: 6,
    });
    expect(
      desk.workbook
        .records('Sub-accounts')
        .map(r => [r.sub_adv_user_name, r.access_key]),
    ).toEqual([[DEMO_ACCOUNTS.subA.name, SUB]]);
    expect(desk.workbook.records('Offers')).toHaveLength(60);
  });

  it('looks refused sub-account keys up once and sends again just the first pages they signed', () => {
    const desk = emulatorPlatform({offers: 600, campaigns: 60, materials: 3});
    setActingAccount(desk.platform, DEMO_ACCOUNTS.subA.name);
    new SettingsStore(desk.platform.userProperties).put(
      DEMO_ACCOUNTS.subA.name,
      {accessKey: SUB, apiKey: 'stale-api-key-000000000000000000'},
    );
    const trips = roundTrips(desk);
    refreshAll(desk.platform);
    expect(trips.slice(0, 4)).toEqual([
      [
        ['campaign', '1', SUB],
        ['offers', '1', SUB],
        ['source', '1', SUB],
        ['sub_adv_account', '1', MAIN],
      ],
      [['sub_adv_account', `name ${DEMO_ACCOUNTS.subA.name}`, MAIN]],
      [
        ['campaign', '1', SUB],
        ['offers', '1', SUB],
        ['source', '1', SUB],
      ],
      [['offers', '2', SUB]],
    ]);
    expect(desk.workbook.records('Offers')).toHaveLength(60);
  });
});

describe('refreshCampaigns', () => {
  it('lists the acting account only', () => {
    const {platform, emulator, workbook} = emulatorPlatform({campaigns: 7});
    refreshCampaigns(platform);
    const ids = workbook
      .records('Campaigns')
      .map(r => r.campaign_id)
      .sort();
    expect(ids).toEqual(
      [...emulator.account('demo_adv').campaigns.keys()].sort(),
    );
  });
});

describe('listCreativeAds', () => {
  it('asks for ids (a package name alone is refused by the API, 4.8), with a clear message', () => {
    const {platform, emulator} = emulatorPlatform();
    expect(() => listCreativeAds(platform, {})).toThrow(
      new ConfigError(
        'List creative ads: give creative ad ids (comma-separated, e.g. 1001,1002).',
      ),
    );
    expect(() =>
      listCreativeAds(platform, {packageName: 'com.example.game'}),
    ).toThrow(
      new ConfigError(
        'List creative ads: give creative ad ids (comma-separated, e.g. 1001,1002): the API refuses a package name alone (4.8: ad_ids is required), and with ids it only narrows them to the package "com.example.game". Nothing was sent.',
      ),
    );
    expect(emulator.requests).toEqual([]);
    expect(() => listCreativeAds(platform, {adIds: '12, x1'})).toThrow(
      new ConfigError(
        'List creative ads: "x1" is not a creative ad id: ids are whole numbers separated by commas.',
      ),
    );
    expect(() =>
      listCreativeAds(platform, {adIds: `12, ${'y'.repeat(5000)}`}),
    ).toThrow(
      new ConfigError(
        `List creative ads: "${'y'.repeat(37)}..." (5000 characters) is not a creative ad id: ids are whole numbers separated by commas.`,
      ),
    );
  });

  it('fills Creative Ads, one row per creative', () => {
    const {platform, emulator, workbook} = emulatorPlatform();
    const ads = [...emulator.account('demo_adv').creativeAds.values()].slice(
      0,
      2,
    );
    const summary = listCreativeAds(platform, {
      adIds: ads.map(a => a.ad_id).join(','),
    });
    const rows = workbook.records('Creative Ads');
    expect(summary.ok).toBe(2);
    expect(new Set(rows.map(r => r.ad_id))).toEqual(
      new Set(ads.map(a => a.ad_id)),
    );
    const creatives = (ad: object) =>
      (ad as {creatives: unknown[]}).creatives.length;
    expect(rows).toHaveLength(
      ads.reduce((n, a) => n + Math.max(1, creatives(a)), 0),
    );
    expect(rows.every(r => /^[0-9a-f]{32}$/.test(String(r.creative_md5)))).toBe(
      true,
    );
    expect(workbook.grid('Creative Ads')[0]).not.toContain('sync_status');
  });
});
