/**
 * Issue 37: the state book stored by column (version 4, src/state/columns.ts). A workbook the
 * release before left (test/fixtures/release-3: state version 3, one object per record), with
 * edits typed into Budgets, Offers and Campaigns, is refreshed and pushed by this release: the
 * refresh keeps every edit and writes the state as version 4, in far fewer characters, and the
 * pushes send exactly the three edits, nothing untouched.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Runtime} from '../../local/runtime';
import {RELEASE_3, upgradeToThisRelease} from '../support/releases';
import {offerDesk, recordsOf, sheetOf, typeInto} from '../support/offer-desk';

/** Each section of the state sheet as stored: its chunks joined and parsed. */
function stateSections(rt: Runtime): Map<string, {v: number}> {
  const state = sheetOf(rt, 'Offer Desk state');
  const grid = state
    .getRange(1, 1, state.getLastRow(), state.getLastColumn())
    .getValues();
  return new Map(
    grid[0].map((name, c) => {
      const chunks: string[] = [];
      for (const row of grid.slice(1)) {
        const cell = String(row[c]);
        if (!cell.startsWith('j')) break;
        chunks.push(cell.slice(1));
      }
      return [String(name), JSON.parse(chunks.join('')) as {v: number}];
    }),
  );
}

/** The characters of the pulled sheets' sections (the memos are stored as before). */
const stateChars = (rt: Runtime) =>
  ['Budgets', 'Offers', 'Campaigns'].reduce(
    (n, sheet) => n + JSON.stringify(stateSections(rt).get(sheet)).length,
    0,
  );

/** Release 3 pulled everything; a person typed one edit per sheet; this release loaded. */
function editedUnderRelease3() {
  const {rt, emulator} = offerDesk({offers: 200}, {distDir: RELEASE_3});
  rt.call('refreshAll');
  const offers = recordsOf(rt, 'Offers');
  const adv = new Set(
    offers.filter(o => o.maintain_by === 'ADV').map(o => o.offer_id),
  );
  const budgetAt = recordsOf(rt, 'Budgets').findIndex(
    r => adv.has(r.offer_id) && r.daily_cap !== '',
  );
  const budget = recordsOf(rt, 'Budgets')[budgetAt];
  const offerAt = offers.findIndex(o => o.offer_id === budget.offer_id);
  const campaignAt = recordsOf(rt, 'Campaigns').findIndex(
    c => c.maintain_by === 'ADV',
  );
  const campaign = recordsOf(rt, 'Campaigns')[campaignAt];
  const cap = String(Number(budget.daily_cap) + 1);
  const url = 'https://track.example.com/click?c=typed&clickid={click_id}';
  const description = 'Typed before the upgrade.';
  typeInto(rt, 'Budgets', budgetAt + 2, 'daily_cap', cap);
  typeInto(rt, 'Offers', offerAt + 2, 'click_url', url);
  // The offers list never tells it: a tracking push needs it typed (or a default).
  typeInto(rt, 'Offers', offerAt + 2, 'support_server_click', 'NO');
  typeInto(rt, 'Campaigns', campaignAt + 2, 'description', description);
  const before = stateChars(rt);
  upgradeToThisRelease(rt);
  emulator.clearRequests();
  return {
    rt,
    emulator,
    before,
    offerId: Number(budget.offer_id),
    trackingMethod: offers[offerAt].tracking_method,
    campaignId: Number(campaign.campaign_id),
    budget,
    cap,
    url,
    description,
    rows: {budget: budgetAt + 2, offer: offerAt + 2, campaign: campaignAt + 2},
  };
}

describe('a workbook of state version 3, refreshed and pushed by this release', () => {
  it('keeps every edit, writes version 4 in under a third of the characters, and sends exactly the edits', () => {
    const d = editedUnderRelease3();
    const {rt, emulator} = d;
    const cell = (sheet: string, row: number, header: string) =>
      recordsOf(rt, sheet)[row - 2][header];

    expect(stateSections(rt).get('Offers')?.v).toBe(3);
    expect(rt.call('refreshAll')).toMatchObject({error: 0, invalid: 0});
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(
      [
        ['Budgets', d.rows.budget, 'daily_cap'],
        ['Offers', d.rows.offer, 'click_url'],
        ['Campaigns', d.rows.campaign, 'description'],
      ].map(([sheet, row, header]) => [
        cell(sheet as string, row as number, header as string),
        cell(sheet as string, row as number, 'sync_status'),
      ]),
    ).toEqual([
      [Number(d.cap), 'EDITED'],
      [d.url, 'EDITED'],
      [d.description, 'EDITED'],
    ]);
    for (const sheet of ['Budgets', 'Offers', 'Campaigns']) {
      expect(stateSections(rt).get(sheet)?.v).toBe(4);
      expect(
        recordsOf(rt, sheet).filter(r => r.sync_status !== '').length,
      ).toBe(1);
    }
    expect(stateChars(rt)).toBeLessThan(d.before / 3);

    emulator.clearRequests();
    rt.call('pushBudgets');
    rt.call('pushTracking');
    rt.call('pushCampaigns');
    expect(
      emulator.requests
        .filter(r => r.method !== 'GET')
        .map(r => [r.method, r.path, r.body]),
    ).toEqual([
      [
        'PUT',
        '/api/open/v3/offer/budget',
        {
          offer_id: d.offerId,
          budget: [
            {
              country_code: d.budget.country_code,
              daily_cap_type: d.budget.daily_cap_type,
              daily_cap: Number(d.cap),
              total_budget: d.budget.total_budget,
            },
          ],
        },
      ],
      [
        'PUT',
        '/api/open/v3/tracking',
        {
          offer_id: d.offerId,
          tracking_method: d.trackingMethod,
          click_url: d.url,
          support_server_click: 'NO',
        },
      ],
      [
        'PUT',
        '/api/open/v3/campaign',
        {campaign_id: d.campaignId, description: d.description},
      ],
    ]);
    expect([
      [
        cell('Budgets', d.rows.budget, 'daily_cap'),
        cell('Budgets', d.rows.budget, 'sync_status'),
      ],
      [
        cell('Offers', d.rows.offer, 'click_url'),
        cell('Offers', d.rows.offer, 'sync_status'),
      ],
      [
        cell('Campaigns', d.rows.campaign, 'description'),
        cell('Campaigns', d.rows.campaign, 'sync_status'),
      ],
    ]).toEqual([
      [Number(d.cap), 'OK'],
      [d.url, 'OK'],
      [d.description, 'OK'],
    ]);
  });
});

describe('a workbook of state version 4, pushed by the release before', () => {
  it('reads the state as none: sends nothing and says to refresh first', () => {
    const {rt, emulator} = offerDesk({offers: 20});
    rt.call('refreshAll');
    const at = recordsOf(rt, 'Budgets').findIndex(r => r.daily_cap !== '');
    const cap = Number(recordsOf(rt, 'Budgets')[at].daily_cap) + 1;
    typeInto(rt, 'Budgets', at + 2, 'daily_cap', String(cap));
    expect(stateSections(rt).get('Budgets')?.v).toBe(4);
    rt.load(readFileSync(join(RELEASE_3, 'Code.js'), 'utf8'), 'Code.js');
    emulator.clearRequests();

    expect(() => rt.call('pushBudgets')).toThrow(
      'Budgets has not been refreshed in this spreadsheet yet',
    );
    expect(emulator.requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(recordsOf(rt, 'Budgets')[at].daily_cap).toBe(cap);
  });
});
