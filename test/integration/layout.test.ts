/**
 * Issue 15, "The add-on lays out its own sheets": what the built dist/Code.js sets in the local
 * Apps Script runtime when a job creates each sheet (widths, clipping, number formats and what
 * they display, protections with a warning, header notes), and that a width the user changed
 * is never set over.
 */
import type {Runtime} from '../../local/runtime';
import {ProtectionType} from '../../local/runtime/spreadsheet/protection';
import {offerDesk, sheetOf, typeInto, valuesOf} from '../support/offer-desk';

const HEADERS =
  'Offer Desk finds its columns by these headers: renaming one makes it a column of your own.';
const DATA =
  'Offer Desk fills this column from the API: a refresh replaces what you type here, and no push sends it.';

/** Sheet column (1-based) under `header`. */
function at(rt: Runtime, sheet: string, header: string): number {
  const column = valuesOf(rt, sheet)[0].indexOf(header) + 1;
  if (column === 0) throw new Error(`no ${header} in ${sheet}`);
  return column;
}

/** Widths of the columns under `headers`, by header. */
function widths(rt: Runtime, sheet: string, headers: string[]) {
  return Object.fromEntries(
    headers.map(h => [h, sheetOf(rt, sheet).getColumnWidth(at(rt, sheet, h))]),
  );
}

/** The cell under `header` in sheet row `row`: value, number format and what it shows. */
function cell(rt: Runtime, sheet: string, row: number, header: string) {
  const range = sheetOf(rt, sheet).getRange(row, at(rt, sheet, header));
  return {
    value: range.getValue(),
    format: range.getNumberFormat(),
    shown: range.getDisplayValue(),
  };
}

/** Every range protection: its block, whether it only warns, and what it says. */
function protections(rt: Runtime, sheet: string) {
  return sheetOf(rt, sheet)
    .getProtections(ProtectionType.RANGE)
    .map(p => ({
      range: p.getRange().getA1Notation(),
      warningOnly: p.isWarningOnly(),
      description: p.getDescription(),
    }));
}

const headerRow = (last: string) => ({
  range: `A1:${last}1`,
  warningOnly: true,
  description: HEADERS,
});
const readOnly = (range: string) => ({
  range,
  warningOnly: true,
  description: DATA,
});

/** The widths of a few columns, and the protections: the header row, then `readOnlyRanges`. */
function expectLayout(
  rt: Runtime,
  sheet: string,
  wanted: Record<string, number>,
  lastColumn: string,
  readOnlyRanges: string[],
): void {
  expect(widths(rt, sheet, Object.keys(wanted))).toEqual(wanted);
  expect(protections(rt, sheet)).toEqual([
    headerRow(lastColumn),
    ...readOnlyRanges.map(readOnly),
  ]);
}

function wrapOf(rt: Runtime, sheet: string, row: number, header: string) {
  return String(
    sheetOf(rt, sheet)
      .getRange(row, at(rt, sheet, header))
      .getWrapStrategy(),
  );
}

describe('Offers after a refresh', () => {
  function refreshed() {
    const desk = offerDesk({offers: 3, campaigns: 2, materials: 2});
    const [first, second] = [
      ...desk.emulator.account('demo_adv').offers.values(),
    ];
    Object.assign(first, {
      promote_timezone: -5,
      bid_rate: 1.5,
      target_goal: 0,
      start_time: 1767225600, // 2026-01-01 00:00 UTC
    });
    Object.assign(second, {promote_timezone: 5.5, bid_rate: 0.015});
    desk.rt.call('refreshOffers');
    return desk;
  }

  it('sizes columns by what they hold, clips JSON, and formats each number as it means', () => {
    const {rt} = refreshed();
    expect(
      widths(rt, 'Offers', [
        'offer_id',
        'campaign_id',
        'offer_name',
        'promote_timezone',
        'click_url',
        'budget',
        'support_server_click',
        'sync_message',
        'synced_at',
      ]),
    ).toEqual({
      offer_id: 80,
      campaign_id: 101,
      offer_name: 220,
      promote_timezone: 136,
      click_url: 220,
      budget: 300,
      support_server_click: 164,
      sync_message: 300,
      synced_at: 140,
    });
    expect(wrapOf(rt, 'Offers', 2, 'budget')).toBe('CLIP');
    expect(wrapOf(rt, 'Offers', 1000, 'custom_ad_schedule')).toBe('CLIP');
    expect(wrapOf(rt, 'Offers', 2, 'offer_name')).toBe('OVERFLOW');

    expect(cell(rt, 'Offers', 2, 'promote_timezone')).toEqual({
      value: -5,
      format: 'General',
      shown: '-5',
    });
    expect(cell(rt, 'Offers', 3, 'promote_timezone').shown).toBe('5.5');
    expect(cell(rt, 'Offers', 2, 'bid_rate')).toEqual({
      value: 1.5,
      format: '0.00##',
      shown: '1.50',
    });
    expect(cell(rt, 'Offers', 3, 'bid_rate').shown).toBe('0.015');
    // The API answers 0 for an offer without a goal: the cell is empty, not 0.00.
    expect(cell(rt, 'Offers', 2, 'target_goal')).toEqual({
      value: '',
      format: 'General',
      shown: '',
    });
    expect(cell(rt, 'Offers', 2, 'start_time')).toMatchObject({
      format: 'yyyy-mm-dd hh:mm:ss',
      shown: '2026-01-01 00:00:00',
    });
    expect(cell(rt, 'Offers', 2, 'offer_id')).toMatchObject({format: '0'});
    expect(cell(rt, 'Offers', 2, 'offer_id').shown).toMatch(/^\d+$/);
  });

  it('protects read-only columns with a warning; editable notes say what is sent and when', () => {
    const {rt} = refreshed();
    // offer_id (the id) and tracking_method, click_url, support_server_click (S:U) stay open.
    expect(protections(rt, 'Offers')).toEqual([
      headerRow('AO'),
      readOnly('A2:C1000'),
      readOnly('E2:R1000'),
      readOnly('V2:AO1000'),
    ]);
    const note = (header: string) =>
      sheetOf(rt, 'Offers')
        .getRange(1, at(rt, 'Offers', header))
        .getNote();
    expect(note('click_url')).toMatch(
      /\nEditable: Push tracking sends the offer's tracking_method, click_url and support_server_click together when any of them changed\.$/,
    );
    expect(note('bid_rate')).toMatch(
      /\nRead-only: a refresh overwrites it with the API value\.$/,
    );
  });

  it('never sets a width the user changed: not on a refresh, nor on a column it puts back', () => {
    const {rt} = refreshed();
    const sheet = sheetOf(rt, 'Offers');
    sheet.setColumnWidth(at(rt, 'Offers', 'offer_name'), 333);
    sheet.setColumnWidth(at(rt, 'Offers', 'budget'), 90);
    // Two JSON columns made the user's, two empty columns added, the first one sized.
    typeInto(rt, 'Offers', 1, 'custom_ad_schedule', 'my schedule');
    typeInto(rt, 'Offers', 1, 'target_goal_by_geo', 'my goals');
    sheet.insertColumnsAfter(41, 2);
    sheet.setColumnWidth(42, 150);

    rt.call('refreshOffers');

    const headers = valuesOf(rt, 'Offers')[0];
    expect(headers.slice(41)).toEqual([
      'custom_ad_schedule',
      'target_goal_by_geo',
    ]);
    expect(
      widths(rt, 'Offers', ['offer_name', 'budget', 'my schedule']),
    ).toEqual({offer_name: 333, budget: 90, 'my schedule': 300});
    expect(sheet.getColumnWidth(42)).toBe(150);
    expect(sheet.getColumnWidth(43)).toBe(300);
    expect(wrapOf(rt, 'Offers', 2, 'target_goal_by_geo')).toBe('CLIP');
    // The columns put back are protected as the sheet's own were.
    expect(protections(rt, 'Offers').slice(4)).toEqual([
      {range: 'AP1:AQ1', warningOnly: true, description: HEADERS},
      readOnly('AP2:AQ1000'),
    ]);
  });
});

describe('every sheet the add-on creates', () => {
  it('Campaigns, Budgets, Creatives, Creative Ads: widths, formats and protections', () => {
    const {rt, emulator} = offerDesk({offers: 3, campaigns: 2, materials: 2});
    const account = emulator.account('demo_adv');
    Object.assign([...account.campaigns.values()][0], {app_size: 12});
    Object.assign([...account.offers.values()][0], {
      budget: [
        {
          target_geo: 'ALL',
          total_budget: '1000',
          daily_cap_type: 'CONVERSION',
          daily_cap: '20',
        },
      ],
    });
    rt.call('refreshAll');
    rt.call('refreshCreatives');
    const ad = [...account.creativeAds.values()][0];
    rt.call('listCreativeAds', {adIds: String(ad.ad_id)});

    expectLayout(
      rt,
      'Campaigns',
      {campaign_id: 101, description: 220, is_coppa: 80},
      'T',
      ['A2:A1000', 'F2:G1000', 'L2:L1000', 'P2:T1000'],
    );
    expect(cell(rt, 'Campaigns', 2, 'app_size')).toEqual({
      value: 12,
      format: 'General',
      shown: '12',
    });

    // A conversion cap is a count, a budget is money.
    expect(cell(rt, 'Budgets', 2, 'daily_cap')).toEqual({
      value: 20,
      format: 'General',
      shown: '20',
    });
    expect(cell(rt, 'Budgets', 2, 'total_budget')).toEqual({
      value: 1000,
      format: '0.00##',
      shown: '1000.00',
    });
    expectLayout(
      rt,
      'Budgets',
      {
        account: 100,
        offer_id: 62,
        offer_name: 82,
        daily_cap_type: 108,
        currency: 66,
        sync_status: 85,
      },
      'M',
      ['A2:A1000', 'C2:E1000', 'J2:M1000'],
    );
    // At 1280 px with the sidebar open, Sheets shows some 860 px of columns: unscrolled,
    // every one from account (first in every record sheet, issue 25) through total_budget,
    // the currency beside the caps (issue 33); the sync columns trail (DESIGN 4.3).
    const headers = valuesOf(rt, 'Budgets')[0].map(String);
    expect(headers.slice(-4)).toEqual([
      'maintain_by',
      'sync_status',
      'sync_message',
      'synced_at',
    ]);
    const through = headers.slice(0, headers.indexOf('total_budget') + 1);
    expect(through[0]).toBe('account');
    const total = Object.values(widths(rt, 'Budgets', through)).reduce(
      (a, b) => a + b,
      0,
    );
    expect(total).toBeLessThanOrEqual(860);

    expect(cell(rt, 'Creatives', 2, 'size').format).toBe('General');
    // account, file, creative_md5 (the id) and creative_name are typed before an upload: open.
    expectLayout(rt, 'Creatives', {file: 120, creative_name: 220}, 'L', [
      'C2:C1000',
      'F2:L1000',
    ]);

    expectLayout(rt, 'Creative Ads', {ad_id: 80, creative_url: 220}, 'M', [
      'A2:A1000',
      'C2:M1000',
    ]);
    expect(cell(rt, 'Creative Ads', 2, 'ad_id')).toMatchObject({
      value: ad.ad_id,
      format: '0',
      shown: String(ad.ad_id),
    });
  });

  it('Sub-accounts, New Offers, Creative Sets: the columns the user types stay open', () => {
    const {rt} = offerDesk({offers: 1, campaigns: 1, materials: 1});
    rt.call('refreshSubAccounts');
    rt.call('createOffers');

    expect(cell(rt, 'Sub-accounts', 2, 'credit').format).toBe('0.00##');
    expectLayout(
      rt,
      'Sub-accounts',
      {sub_adv_user_name: 220, credit: 80},
      'H',
      // access_key, and what the create answered (credit): the add-on's alone.
      ['C2:H1000'],
    );

    expect(cell(rt, 'New Offers', 2, 'promote_timezone').format).toBe(
      'General',
    );
    expect(cell(rt, 'New Offers', 2, 'start_time').format).toBe('@');
    expectLayout(
      rt,
      'New Offers',
      {campaign_id: 101, offer_name: 220, custom_ad_schedule: 300},
      'AF',
      ['AD2:AF1000'],
    );
    expect(wrapOf(rt, 'New Offers', 2, 'custom_ad_schedule')).toBe('CLIP');
    expect(
      sheetOf(rt, 'New Offers')
        .getRange(1, at(rt, 'New Offers', 'bid_rate'))
        .getNote(),
    ).toMatch(
      /\nEditable: Create offers sends the row as a new offer while its offer_id is empty; once it has one, nothing here is sent again\.$/,
    );

    expectLayout(rt, 'Creative Sets', {offer_name: 220, geos: 120}, 'I', [
      'G2:I1000',
    ]);
  });

  it('the notes of the columns a user types say input, never read-only (issue 28)', () => {
    const {rt, emulator} = offerDesk({offers: 1});
    const [id] = emulator.account('demo_adv').offers.keys();
    emulator.updateOffer(id, {status: 'RUNNING'});
    rt.call('refreshSubAccounts');
    rt.call('refreshOffers');
    emulator.updateOffer(id, {status: 'STOPPED'});
    rt.call('refreshOffers');

    const header = (sheet: string, name: string) =>
      sheetOf(rt, sheet).getRange(1, at(rt, sheet, name));
    for (const [sheet, name] of [
      ['Sub-accounts', 'sub_adv_user_name'],
      ['Sub-accounts', 'password'],
      ['Alerts', 'seen'],
    ]) {
      expect(header(sheet, name).getNote()).toMatch(
        /\nInput: yours to type; no push sends it\.$/,
      );
      expect(header(sheet, name).getBackground()).toBe('#d9ead3');
    }
    expect(header('Sub-accounts', 'access_key').getNote()).toMatch(
      /\nRead-only: a refresh overwrites it with the API value\.$/,
    );
  });

  it('Alerts: offer_id a number as in Offers, what wide enough for the longest condition, seen narrow (issue 28)', () => {
    const {rt, emulator} = offerDesk({offers: 1});
    const [id] = emulator.account('demo_adv').offers.keys();
    emulator.updateOffer(id, {status: 'RUNNING'});
    rt.call('refreshOffers');
    emulator.updateOffer(id, {status: 'STOPPED'});
    rt.call('refreshOffers');

    expect(cell(rt, 'Alerts', 2, 'offer_id')).toEqual({
      value: id,
      format: '0',
      shown: String(id),
    });
    expect(
      widths(rt, 'Alerts', ['offer_name', 'what', 'reason', 'seen']),
    ).toEqual({offer_name: 180, what: 330, reason: 200, seen: 60});
  });
});
