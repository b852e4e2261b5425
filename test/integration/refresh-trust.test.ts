/**
 * Issue 13, what a refresh does to the user's sheet, as the built dist/Code.js runs it in the
 * local Apps Script runtime against the Open API emulator: a column put back is filled from the
 * server and is no edit; a formula whose value the server still has stays; switching accounts
 * keeps unpushed edits without a false CONFLICT; a creative-ad query replaces the last one.
 */
import {DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';
import {capSent} from '../support/history';

/** Every offer and campaign maintained by ADV (a push would send), pulled. */
function pulled(offers: number) {
  const desk = offerDesk({offers});
  const main = desk.emulator.account('demo_adv');
  const ids = [...main.offers.keys()];
  // One ALL group with a daily cap of 100, and a click URL each.
  const fields = (id: number) => ({
    maintain_by: 'ADV' as const,
    target_geo: 'US,GB',
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1000',
        daily_cap_type: 'BUDGET' as const,
        daily_cap: '100',
      },
    ],
    tracking_method: 'APPSFLYER',
    click_url: `https://track.example.test/click?o=${id}`,
  });
  for (const id of ids) desk.emulator.updateOffer(id, fields(id));
  for (const id of main.campaigns.keys()) {
    desk.emulator.updateCampaign(id, {maintain_by: 'ADV'});
  }
  desk.rt.call('refreshAll');
  desk.emulator.clearRequests();
  return {...desk, ids};
}

const puts = (emulator: Emulator) =>
  emulator.requests.filter(r => r.method === 'PUT');

/** The 1-based sheet column of a header. */
const columnOf = (rt: Runtime, sheet: string, header: string) =>
  valuesOf(rt, sheet)[0].indexOf(header) + 1;

/** A column's cells below the header, as shown. */
const cellsOf = (rt: Runtime, sheet: string, header: string) =>
  recordsOf(rt, sheet).map(r => r[header]);

describe('a column the user renamed or deleted', () => {
  it('(click_url renamed in Offers) comes back filled from the server, no row EDITED, and pushTracking sends nothing', () => {
    const {rt, emulator, ids} = pulled(6);
    const urls = ids.map(id => emulator.offerView(id)!.click_url);
    expect(urls.every(u => typeof u === 'string' && u !== '')).toBe(true);
    typeInto(rt, 'Offers', 1, 'click_url', 'old click_url');

    expect(() => rt.call('pushTracking')).toThrow(
      'The Offers sheet has no click_url column: refresh it to put the column back, or restore the header text.',
    );
    rt.call('refreshOffers');

    const headers = valuesOf(rt, 'Offers')[0];
    expect(headers.at(-1)).toBe('click_url');
    expect(cellsOf(rt, 'Offers', 'click_url')).toEqual(urls);
    // The renamed column is the user's now: kept as it was.
    expect(cellsOf(rt, 'Offers', 'old click_url')).toEqual(urls);
    expect(cellsOf(rt, 'Offers', 'sync_status')).toEqual(ids.map(() => ''));

    const summary = rt.call('pushTracking') as Record<string, unknown>;
    expect(summary).toMatchObject({ok: 0, error: 0, invalid: 0});
    expect(puts(emulator)).toEqual([]);
    expect(ids.map(id => emulator.offerView(id)!.click_url)).toEqual(urls);
  });

  it('(description deleted in Campaigns) comes back filled from the server, an edit elsewhere still EDITED, and pushCampaigns sends only that edit', () => {
    const {rt, emulator} = pulled(2);
    const campaigns = recordsOf(rt, 'Campaigns');
    const descriptions = campaigns.map(c => c.description);
    expect(descriptions.filter(d => d !== '').length).toBeGreaterThan(0);
    const sheet = sheetOf(rt, 'Campaigns');
    sheet.deleteColumn(columnOf(rt, 'Campaigns', 'description'));
    typeInto(rt, 'Campaigns', 2, 'min_version', '7.0.1');

    expect(() => rt.call('pushCampaigns')).toThrow(
      'The Campaigns sheet has no description column: refresh it to put the column back, or restore the header text.',
    );
    rt.call('refreshCampaigns');

    expect(valuesOf(rt, 'Campaigns')[0].at(-1)).toBe('description');
    expect(cellsOf(rt, 'Campaigns', 'description')).toEqual(descriptions);
    expect(cellsOf(rt, 'Campaigns', 'sync_status')).toEqual([
      'EDITED',
      ...campaigns.slice(1).map(() => ''),
    ]);

    rt.call('pushCampaigns');
    expect(puts(emulator).map(r => r.body)).toEqual([
      {campaign_id: campaigns[0].campaign_id, min_version: '7.0.1'},
    ]);
  });

  it('(description deleted, nothing else edited) pushCampaigns sends nothing', () => {
    const {rt, emulator} = pulled(2);
    const descriptions = cellsOf(rt, 'Campaigns', 'description');
    sheetOf(rt, 'Campaigns').deleteColumn(
      columnOf(rt, 'Campaigns', 'description'),
    );
    rt.call('refreshCampaigns');
    expect(cellsOf(rt, 'Campaigns', 'description')).toEqual(descriptions);
    expect(cellsOf(rt, 'Campaigns', 'sync_status').every(s => s === '')).toBe(
      true,
    );
    rt.call('pushCampaigns');
    expect(puts(emulator)).toEqual([]);
  });
});

describe('a deleted id column', () => {
  it('(offer_id deleted in Offers) is refused by the refresh and the push, the sheet left as it was', () => {
    const {rt, emulator} = pulled(3);
    sheetOf(rt, 'Offers').deleteColumn(columnOf(rt, 'Offers', 'offer_id'));
    const before = valuesOf(rt, 'Offers');
    const refused =
      "The Offers sheet has no offer_id column: rows are matched with the API's records by it, so it cannot come back empty: restore the header text.";
    expect(() => rt.call('refreshOffers')).toThrow(refused);
    expect(() => rt.call('pushTracking')).toThrow(refused);
    expect(valuesOf(rt, 'Offers')).toEqual(before);
    expect(puts(emulator)).toEqual([]);
  });
});

describe('a formula in an editable column', () => {
  it('survives a refresh while its value is the server’s; one whose value differs is EDITED, kept, and pushed', () => {
    const {rt, emulator, ids} = pulled(3);
    const rowOf = (id: number) =>
      recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
    const cap = columnOf(rt, 'Budgets', 'daily_cap');
    typeInto(rt, 'Budgets', rowOf(ids[0]), 'daily_cap', '=50*2');
    typeInto(rt, 'Budgets', rowOf(ids[1]), 'daily_cap', '=100*3');
    // Renamed on the server: the refresh writes a block across daily_cap.
    for (const id of ids)
      emulator.updateOffer(id, {offer_name: `renamed ${id}`});

    rt.call('refreshOffers');

    const formulas = sheetOf(rt, 'Budgets')
      .getRange(2, cap, ids.length, 1)
      .getFormulas()
      .map(r => r[0]);
    const byId = new Map(
      recordsOf(rt, 'Budgets').map((r, i) => [r.offer_id, i]),
    );
    expect(formulas[byId.get(ids[0])!]).toBe('=50*2');
    expect(formulas[byId.get(ids[1])!]).toBe('=100*3');
    expect(formulas[byId.get(ids[2])!]).toBe('');
    const rows = recordsOf(rt, 'Budgets');
    expect(rows.map(r => r.offer_name)).toEqual(
      rows.map(r => `renamed ${r.offer_id}`),
    );
    expect(rows[byId.get(ids[0])!]).toMatchObject({
      daily_cap: 100,
      sync_status: '',
    });
    expect(rows[byId.get(ids[1])!]).toMatchObject({
      daily_cap: 300,
      sync_status: 'EDITED',
      sync_message: 'Edited here, not pushed yet.',
    });

    rt.call('pushBudgets');
    expect(puts(emulator).map(r => r.body)).toEqual([capSent(ids[1], 300)]);
  });
});

describe('refreshing as another account', () => {
  it("adds its records beside the main account's, leaves the main account's rows and edits exactly as they were, and a push as it sends the main account's edits signed by the main account", () => {
    const {rt, emulator, ids} = pulled(8);
    const rowOf = (id: number) =>
      recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
    typeInto(rt, 'Budgets', rowOf(ids[2]), 'daily_cap', '222');
    typeInto(rt, 'Budgets', rowOf(ids[5]), 'daily_cap', '555');
    const before = valuesOf(rt, 'Budgets');
    const sub = DEMO_ACCOUNTS.subA.name;
    const subIds = [...emulator.account(sub).offers.keys()];
    expect(subIds.length).toBeGreaterThan(0);

    rt.call('setActingAccount', sub);
    rt.call('refreshOffers');

    const asSub = valuesOf(rt, 'Budgets');
    expect(asSub.slice(0, before.length)).toEqual(before);
    const added = recordsOf(rt, 'Budgets').slice(before.length - 1);
    expect([...new Set(added.map(r => r.offer_id))]).toEqual(subIds);
    expect(new Set(added.map(r => r.account))).toEqual(new Set([sub]));
    expect(cellsOf(rt, 'Offers', 'offer_id')).toEqual([...ids, ...subIds]);

    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(puts(emulator).map(r => [r.accessKey, r.body])).toEqual([
      [DEMO_ACCOUNTS.main.accessKey, capSent(ids[2], 222)],
      [DEMO_ACCOUNTS.main.accessKey, capSent(ids[5], 555)],
    ]);
  });
});

describe('refreshAll as another account', () => {
  it("adds that account's records in every sheet, each row saying whose it is, and leaves the main account's rows as they were", () => {
    const {rt, emulator} = offerDesk({offers: 6, materials: 3});
    const listed = (account: string) => {
      const data = emulator.account(account);
      return {
        Campaigns: [...data.campaigns.keys()],
        Offers: [...data.offers.keys()],
        Creatives: [...data.materials.values()].map(m => m.creative_md5),
      };
    };
    const shown = (account: string) => {
      const of = (sheet: string, id: string) =>
        recordsOf(rt, sheet)
          .filter(r => r.account === account)
          .map(r => r[id]);
      return {
        Campaigns: of('Campaigns', 'campaign_id'),
        Offers: of('Offers', 'offer_id'),
        Creatives: of('Creatives', 'creative_md5'),
      };
    };
    const statuses = () =>
      ['Campaigns', 'Offers', 'Budgets', 'Creatives'].flatMap(sheet =>
        cellsOf(rt, sheet, 'sync_status').filter(s => s !== ''),
      );
    rt.call('refreshAll');
    const main = {
      Campaigns: valuesOf(rt, 'Campaigns'),
      Offers: valuesOf(rt, 'Offers'),
    };
    const sub = DEMO_ACCOUNTS.subA.name;
    rt.call('setActingAccount', sub);
    rt.call('refreshAll');
    expect(shown(sub)).toEqual(listed(sub));
    expect(shown('(main account)')).toEqual(listed('demo_adv'));
    expect(valuesOf(rt, 'Campaigns').slice(0, main.Campaigns.length)).toEqual(
      main.Campaigns,
    );
    expect(valuesOf(rt, 'Offers').slice(0, main.Offers.length)).toEqual(
      main.Offers,
    );
    expect(statuses()).toEqual([]);
    rt.call('setActingAccount', '');
    rt.call('refreshAll');
    expect(shown(sub)).toEqual(listed(sub));
    expect(shown('(main account)')).toEqual(listed('demo_adv'));
    expect(statuses()).toEqual([]);
  });
});

describe('listCreativeAds', () => {
  it('replaces the rows of the last query, user cells travelling with a record listed again, and says which query the rows answer', () => {
    const {rt, emulator} = offerDesk();
    const ads = [...emulator.account('demo_adv').creativeAds.values()];
    expect(ads.length).toBeGreaterThanOrEqual(3);
    const [a, b, c] = ads.map(ad => ad.ad_id);
    const rowsOf = (...ids: number[]) =>
      ids.flatMap(id => {
        const ad = ads.find(x => x.ad_id === id)!;
        return ad.creatives.length > 0
          ? ad.creatives.map(k => [id, k.creative_md5])
          : [[id, '']];
      });
    const shown = () =>
      recordsOf(rt, 'Creative Ads').map(r => [r.ad_id, r.creative_md5]);
    const note = () =>
      sheetOf(rt, 'Creative Ads')
        .getRange(1, columnOf(rt, 'Creative Ads', 'ad_id'))
        .getNote();

    rt.call('listCreativeAds', {adIds: `${a},${b}`});
    expect(shown()).toEqual(rowsOf(a, b));
    expect(note()).toMatch(
      /\n\nThe rows answer the list of ad_ids \d+,\d+, as the main account, \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
    );
    expect(note()).toContain(`ad_ids ${a},${b},`);
    typeInto(rt, 'Creative Ads', 1, 'mine', 'mine');
    recordsOf(rt, 'Creative Ads').forEach((r, i) =>
      typeInto(rt, 'Creative Ads', i + 2, 'mine', `note ${r.ad_id}`),
    );

    const summary = rt.call('listCreativeAds', {adIds: `${b},${c}`}) as Record<
      string,
      unknown
    >;
    expect(shown()).toEqual(rowsOf(b, c));
    expect(note()).toContain(`The rows answer the list of ad_ids ${b},${c},`);
    expect(summary.message).toMatch(
      new RegExp(
        `^Refreshed 2 creative ads for ad_ids ${b},${c} \\(main account\\)`,
      ),
    );
    expect(cellsOf(rt, 'Creative Ads', 'mine')).toEqual(
      rowsOf(b, c).map(([id]) => (id === b ? `note ${b}` : '')),
    );
  });
});

describe('Budgets refreshed beside Offers rows old and new', () => {
  it('shows each offer’s budget as the server has it, whether its Offers row was rewritten or written anew', () => {
    const {rt, emulator, ids} = pulled(6);
    const offerRows = recordsOf(rt, 'Offers').map(r => r.offer_id);
    // The first two Offers rows deleted: the next refresh writes them anew (whole rows), the
    // other four it rewrites in place; one of each has a new cap on the server.
    sheetOf(rt, 'Offers').deleteRows(2, 2);
    const [fresh, kept] = [offerRows[0], offerRows[5]] as number[];
    for (const id of [fresh, kept]) {
      emulator.updateOffer(id, {
        budget: [
          {
            target_geo: 'ALL',
            total_budget: '1000',
            daily_cap_type: 'BUDGET',
            daily_cap: '150',
          },
        ],
      });
    }
    rt.call('refreshOffers');
    const caps = new Map(
      recordsOf(rt, 'Budgets').map(r => [r.offer_id, r.daily_cap]),
    );
    expect([...caps.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect([id, caps.get(id)]).toEqual([
        id,
        id === fresh || id === kept ? 150 : 100,
      ]);
    }
    expect(
      recordsOf(rt, 'Budgets').map(r => [r.offer_id, r.offer_name, r.currency]),
    ).toEqual(
      recordsOf(rt, 'Budgets').map(r => {
        const listed = emulator.offerView(r.offer_id as number)!;
        return [r.offer_id, listed.offer_name, listed.currency];
      }),
    );
  });
});
