/**
 * Issue 20, "Number formats as Sheets shows them": what every number column of the built add-on
 * shows (getDisplayValue) once a job has filled it, in the runtime that renders number formats
 * with SheetJS's ssf as Sheets does. A whole number never gets a trailing point (`-5`, not
 * `-5.`), money keeps its decimals, a timestamp reads as a date.
 */
import type {Runtime} from '../../local/runtime';
import {
  cpiOfferRow,
  deliverableCampaign,
  offerDesk,
  sheetOf,
  typeRows,
} from '../support/offer-desk';

/** What sheet row `row` shows under each of `headers`, by header. */
function shown(
  rt: Runtime,
  sheet: string,
  row: number,
  headers: string[],
): Record<string, string> {
  const range = sheetOf(rt, sheet).getDataRange();
  const [names, ...rows] = range.getDisplayValues() as string[][];
  return Object.fromEntries(
    headers.map(h => {
      const column = names.indexOf(h);
      if (column < 0) throw new Error(`no ${h} in ${sheet}`);
      return [h, rows[row - 2][column]];
    }),
  );
}

const unix = (iso: string) => Date.parse(iso) / 1000;

describe('display values of every number column after a refresh', () => {
  const {rt, emulator} = offerDesk({offers: 2, campaigns: 1, materials: 1});
  const account = emulator.account('demo_adv');
  const [campaign] = account.campaigns.values();
  const [first, second] = account.offers.values();
  const [material] = account.materials.values();
  Object.assign(campaign, {app_size: 12});
  Object.assign(first, {
    promote_timezone: -5,
    start_time: unix('2026-01-02T13:30:00Z'),
    end_time: 0,
    bid_rate: 1.5,
    target_goal: 0,
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1000',
        daily_cap_type: 'CONVERSION',
        daily_cap: '20',
      },
    ],
  });
  Object.assign(second, {
    promote_timezone: 5.5,
    start_time: unix('2026-03-04T05:06:07Z'),
    end_time: unix('2026-12-31T23:59:59Z'),
    bid_rate: 0.015,
    target_goal: 2.5,
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1234.567',
        daily_cap_type: 'BUDGET',
        daily_cap: '50.5',
      },
    ],
  });
  Object.assign(material, {size: 516.98});
  rt.call('refreshAll');
  rt.call('refreshCreatives');
  const [ad] = account.creativeAds.values();
  rt.call('listCreativeAds', {adIds: String(ad.ad_id)});
  /** The sheet row whose cell under `header` holds `id`. */
  const rowOf = (sheet: string, header: string, id: number): number => {
    const [names, ...rows] = sheetOf(rt, sheet)
      .getDataRange()
      .getValues() as unknown[][];
    return rows.findIndex(r => r[names.indexOf(header)] === id) + 2;
  };

  it('Campaigns: campaign_id whole, app_size as it is', () => {
    expect(shown(rt, 'Campaigns', 2, ['campaign_id', 'app_size'])).toEqual({
      campaign_id: String(campaign.campaign_id),
      app_size: '12',
    });
  });

  it('Offers: ids whole, a time zone of -5 as -5 and 5.5 as 5.5, money with two decimals or more, times as dates', () => {
    const headers = [
      'campaign_id',
      'offer_id',
      'promote_timezone',
      'start_time',
      'end_time',
      'bid_rate',
      'target_goal',
    ];
    expect(
      shown(rt, 'Offers', rowOf('Offers', 'offer_id', first.offer_id), headers),
    ).toEqual({
      campaign_id: String(campaign.campaign_id),
      offer_id: String(first.offer_id),
      promote_timezone: '-5',
      start_time: '2026-01-02 13:30:00',
      end_time: '',
      bid_rate: '1.50',
      target_goal: '',
    });
    expect(
      shown(
        rt,
        'Offers',
        rowOf('Offers', 'offer_id', second.offer_id),
        headers,
      ),
    ).toEqual({
      campaign_id: String(campaign.campaign_id),
      offer_id: String(second.offer_id),
      promote_timezone: '5.5',
      start_time: '2026-03-04 05:06:07',
      end_time: '2026-12-31 23:59:59',
      bid_rate: '0.015',
      target_goal: '2.5',
    });
  });

  it('Budgets: a conversion cap of 20 as 20, budgets as money', () => {
    const headers = ['offer_id', 'daily_cap', 'total_budget'];
    expect(
      shown(
        rt,
        'Budgets',
        rowOf('Budgets', 'offer_id', first.offer_id),
        headers,
      ),
    ).toEqual({
      offer_id: String(first.offer_id),
      daily_cap: '20',
      total_budget: '1000.00',
    });
    expect(
      shown(
        rt,
        'Budgets',
        rowOf('Budgets', 'offer_id', second.offer_id),
        headers,
      ),
    ).toEqual({
      offer_id: String(second.offer_id),
      daily_cap: '50.5',
      total_budget: '1234.567',
    });
  });

  it('Creatives: a size as it is', () => {
    expect(shown(rt, 'Creatives', 2, ['size'])).toEqual({size: '516.98'});
  });

  it('Creative Ads: every id and code whole', () => {
    expect(
      shown(rt, 'Creative Ads', 2, [
        'ad_id',
        'offer_id',
        'creative_set_id',
        'combination_method',
        'ad_output',
        'creative_id',
      ]),
    ).toEqual({
      ad_id: String(ad.ad_id),
      offer_id: String(ad.offer_id),
      creative_set_id: String(ad.creative_set_id),
      combination_method: String(ad.combination_method),
      ad_output: String(ad.ad_output),
      creative_id: expect.stringMatching(/^\d+$/),
    });
  });
});

describe('display values of the columns a create fills or a user types', () => {
  it('New Offers: what was typed shows as typed, money with two decimals, the new id whole', () => {
    const {rt, emulator} = offerDesk({offers: 1, campaigns: 2, materials: 1});
    rt.call('createOffers');
    const [material] = emulator.account('demo_adv').materials.values();
    typeRows(rt, 'Creatives', [
      {
        creative_md5: material.creative_md5,
        creative_name: material.creative_name,
      },
    ]);
    const campaignId = deliverableCampaign(emulator);
    typeRows(rt, 'New Offers', [
      cpiOfferRow(campaignId, 'display_values', {
        promote_timezone: '-5',
        bid_rate: '0.5',
        daily_cap_type: 'CONVERSION',
        daily_cap: '20',
        total_budget: '1000',
      }),
    ]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: 'display_values',
        creative_set_name: 'set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: material.creative_md5,
      },
    ]);
    rt.call('createOffers');
    const created = [...emulator.account('demo_adv').offers.values()].find(
      o => o.offer_name === 'display_values',
    )!;
    expect(
      shown(rt, 'New Offers', 2, [
        'campaign_id',
        'promote_timezone',
        'target_goal',
        'bid_rate',
        'daily_cap',
        'total_budget',
        'offer_id',
        'sync_status',
      ]),
    ).toEqual({
      campaign_id: String(campaignId),
      promote_timezone: '-5',
      target_goal: '',
      bid_rate: '0.50',
      daily_cap: '20',
      total_budget: '1000.00',
      offer_id: String(created.offer_id),
      sync_status: 'OK',
    });
    expect(shown(rt, 'New Offers', 2, ['synced_at']).synced_at).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
  });

  it('Sub-accounts: the credit a create answers, as money', () => {
    const {rt} = offerDesk({offers: 1, campaigns: 1, materials: 1});
    rt.call('refreshSubAccounts');
    typeRows(rt, 'Sub-accounts', [
      {sub_adv_user_name: 'team_lisbon', password: 'Correct-horse-9'},
    ]);
    rt.call('createSubAccounts');
    expect(shown(rt, 'Sub-accounts', 2, ['credit', 'sync_status'])).toEqual({
      credit: '0.00',
      sync_status: 'OK',
    });
  });
});
