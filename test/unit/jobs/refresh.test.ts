import {ApiError, ConfigError} from '../../../src/api/errors';
import {listCreativeAds} from '../../../src/jobs/creative-ads';
import {refreshCampaigns, refreshOffers} from '../../../src/jobs/refresh';
import {refreshAll} from '../../../src/jobs/refresh-all';
import {LockBusyError} from '../../../src/jobs/run';
import {STATE_SHEET} from '../../../src/sheets/state';
import {emulatorPlatform} from '../../support/emulator-platform';

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
  it('asks for ids or a package name, with a clear message', () => {
    const {platform} = emulatorPlatform();
    expect(() => listCreativeAds(platform, {})).toThrow(
      new ConfigError(
        'List creative ads: give creative ad ids (comma-separated, e.g. 1001,1002) or a package name.',
      ),
    );
    expect(() => listCreativeAds(platform, {adIds: '12, x1'})).toThrow(
      new ConfigError(
        'List creative ads: "x1" is not a creative ad id: ids are whole numbers separated by commas.',
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
