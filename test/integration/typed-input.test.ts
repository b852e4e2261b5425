/**
 * Issue 13, part 3: what the user types is read as they meant it. The built dist/Code.js in
 * the local Apps Script runtime against the Open API emulator; cells typed as a person would.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {CREATIVE_SETS} from '../../src/sheets/schemas/creative-sets';
import {NEW_OFFERS} from '../../src/sheets/schemas/new-offers';
import {
  cpiOfferRow as cpi,
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
} from '../support/offer-desk';

const OFFER = '/api/open/v3/offer';
const OFFERS = '/api/open/v3/offers';
const TRACKING = '/api/open/v3/tracking';

type Row = Record<string, string>;

interface Desk {
  rt: Runtime;
  emulator: Emulator;
  campaignId: number;
}

/** The sheets made, the account's materials listed, a campaign offers can be created in. */
function desk(): Desk {
  const {rt, emulator} = offerDesk();
  rt.call('refreshCreatives');
  rt.call('createOffers');
  const campaignId = [...emulator.account('demo_adv').campaigns.values()].find(
    c =>
      c.status === 'RUNNING' &&
      c.maintain_by === 'ADV' &&
      c.promotion_type === 'APP',
  )!.campaign_id;
  return {rt, emulator, campaignId};
}

/** New Offers rows from sheet row 2, each with one creative set using a listed material. */
function typeOffers({rt, emulator}: Desk, rows: Row[]): void {
  const md5 = [...emulator.account('demo_adv').materials.keys()][0];
  rows.forEach((row, i) => {
    for (const [header, text] of Object.entries(row))
      typeInto(rt, 'New Offers', 2 + i, header, text);
    const set: Row = {
      offer_name: row.offer_name,
      creative_set_name: 'main',
      geos: 'ALL',
      ad_outputs: '111',
      creatives: md5,
    };
    for (const [header, text] of Object.entries(set))
      typeInto(rt, 'Creative Sets', 2 + i, header, text);
  });
  emulator.clearRequests();
}

/** Each request sent, as `METHOD path`. */
const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path}`);

/** The body of each POST offer, by offer_name. */
function creates(emulator: Emulator): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    emulator.requests
      .filter(r => r.method === 'POST' && r.path === OFFER)
      .map(r => {
        const body = r.body as Record<string, unknown>;
        return [String(body.offer_name), body];
      }),
  );
}

/** The requests of two offers created with their tracking: each name looked up first. */
const TWO_CREATED = [
  `GET ${OFFERS}`,
  `GET ${OFFERS}`,
  `POST ${OFFER}`,
  `POST ${OFFER}`,
  `PUT ${TRACKING}`,
  `PUT ${TRACKING}`,
];

/** offer_name, sync_status and sync_message of every New Offers row. */
const statuses = (rt: Runtime) =>
  recordsOf(rt, 'New Offers').map(r => [
    r.offer_name,
    r.sync_status,
    r.sync_message,
  ]);

const offerIdOf = (rt: Runtime, name: string) =>
  recordsOf(rt, 'New Offers').find(r => r.offer_name === name)!.offer_id;

describe('a number is read as the user sees it', () => {
  it('a formula result such as =D2*1.1 (110.00000000000001) is 110, and 110 is sent', () => {
    const d = desk();
    typeOffers(d, [
      cpi(d.campaignId, 'formula_cap'),
      cpi(d.campaignId, 'four_decimals', {bid_rate: '1.2345'}),
    ]);
    // Typed as a person would; the runtime evaluates constant arithmetic as Sheets does.
    typeInto(d.rt, 'New Offers', 2, 'daily_cap', '=100*1.1');
    typeInto(d.rt, 'New Offers', 2, 'bid_rate', '=1.1*1.1');
    typeInto(d.rt, 'New Offers', 2, 'total_budget', '=0.1+0.2+1000');
    const formulaCell = recordsOf(d.rt, 'New Offers')[0];
    expect(formulaCell.daily_cap).toBe(110.00000000000001);
    expect(formulaCell.bid_rate).toBe(1.2100000000000002);

    d.rt.call('createOffers');

    expect(sent(d.emulator)).toEqual([
      `GET ${OFFERS}`,
      `POST ${OFFER}`,
      `PUT ${TRACKING}`,
    ]);
    expect(creates(d.emulator).formula_cap).toMatchObject({
      daily_cap: 110,
      bid_rate: 1.21,
      total_budget: 1000.3,
    });
    expect(JSON.stringify(d.emulator.requests[1].body)).toContain(
      '"bid_rate":1.21,',
    );
    expect(statuses(d.rt)).toEqual([
      [
        'formula_cap',
        'OK',
        `Offer ${offerIdOf(d.rt, 'formula_cap')} created; tracking set.`,
      ],
      [
        'four_decimals',
        'INVALID',
        'bid_rate may have at most 3 decimals (got 1.2345). Nothing was sent.',
      ],
    ]);
  });
});

describe('a 50,000-character cell', () => {
  it('makes its own row INVALID with a short message; the other rows are sent', () => {
    const d = desk();
    const url = 'https://track.example.com/click?q=';
    const longUrl = url + 'a'.repeat(50000 - url.length);
    typeOffers(d, [
      cpi(d.campaignId, 'before_long'),
      cpi(d.campaignId, 'long_url', {click_url: longUrl}),
      cpi(d.campaignId, 'long_ad_type', {target_ad_type: 'B'.repeat(50000)}),
      cpi(d.campaignId, 'after_long'),
    ]);

    const summary = d.rt.call('createOffers') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 2, invalid: 2, error: 0});
    expect(sent(d.emulator)).toEqual(TWO_CREATED);
    expect(Object.keys(creates(d.emulator))).toEqual([
      'before_long',
      'after_long',
    ]);
    const rows = statuses(d.rt);
    expect(rows[1]).toEqual([
      'long_url',
      'INVALID',
      `click_url may have 2048 characters at most (it has 50000: "${url}aaa..." (50000 characters)). Nothing was sent.`,
    ]);
    expect(rows[2]).toEqual([
      'long_ad_type',
      'INVALID',
      `target_ad_type may have 4000 characters at most (it has 50000: "${'B'.repeat(37)}..." (50000 characters)). Nothing was sent.`,
    ]);
    for (const [, , message] of rows)
      expect(String(message).length).toBeLessThan(300);
    expect([rows[0][1], rows[3][1]]).toEqual(['OK', 'OK']);
    // Nothing the user typed is lost.
    expect(recordsOf(d.rt, 'New Offers')[1].click_url).toBe(longUrl);
  });
});

describe('a 50,000-character cell in any column of New Offers or Creative Sets', () => {
  const columns = [NEW_OFFERS, CREATIVE_SETS].flatMap(schema =>
    schema.columns.map(c => [schema.name, c.header] as const),
  );

  it.each(columns)(
    '%s %s: its row INVALID, messages bounded, the other row created',
    (sheet, header) => {
      const d = desk();
      typeOffers(d, [
        cpi(d.campaignId, 'long_row'),
        cpi(d.campaignId, 'fine_row'),
      ]);
      typeInto(d.rt, sheet, 2, header, 'x'.repeat(50000));

      d.rt.call('createOffers');

      expect(Object.keys(creates(d.emulator))).toEqual(['fine_row']);
      const offers = recordsOf(d.rt, 'New Offers');
      expect([offers[0].sync_status, offers[1].sync_status]).toEqual([
        'INVALID',
        'OK',
      ]);
      const messages = [...offers, ...recordsOf(d.rt, 'Creative Sets')].map(r =>
        String(r.sync_message),
      );
      // A message quotes at most two excerpts of 40 characters.
      for (const message of messages) expect(message.length).toBeLessThan(400);
    },
  );
});

describe('start_time and end_time', () => {
  it('Unix seconds are sent as typed; a date typed as text or into a date-formatted cell reads the same', () => {
    const d = desk();
    typeOffers(d, [
      cpi(d.campaignId, 'unix_seconds', {
        start_time: '1790000000',
        end_time: '1790086400',
      }),
      cpi(d.campaignId, 'typed_date', {
        start_time: '2026-09-21 10:00',
        end_time: '2026-09-22',
      }),
      cpi(d.campaignId, 'date_cell'),
    ]);
    const sheet = sheetOf(d.rt, 'New Offers');
    const headers = Object.keys(recordsOf(d.rt, 'New Offers')[0]);
    const start = sheet.getRange(4, headers.indexOf('start_time') + 1);
    expect(start.getNumberFormat()).toBe('@');
    // A user who formats the cell as a date and types one there.
    start.setNumberFormat('yyyy-mm-dd hh:mm');
    typeInto(d.rt, 'New Offers', 4, 'start_time', '2026-09-21 10:00');
    expect(Object.prototype.toString.call(start.getValue())).toBe(
      '[object Date]',
    );
    d.emulator.clearRequests();

    d.rt.call('createOffers');

    const bodies = creates(d.emulator);
    expect(bodies.unix_seconds).toMatchObject({
      start_time: 1790000000,
      end_time: 1790086400,
    });
    const sept21 = Date.UTC(2026, 8, 21, 10) / 1000;
    expect(bodies.typed_date).toMatchObject({
      start_time: sept21,
      end_time: Date.UTC(2026, 8, 22) / 1000,
    });
    expect(bodies.date_cell.start_time).toBe(sept21);
    expect(statuses(d.rt).map(r => r[1])).toEqual(['OK', 'OK', 'OK']);
    expect(
      d.emulator.offerView(Number(offerIdOf(d.rt, 'unix_seconds'))),
    ).toMatchObject({start_time: 1790000000, end_time: 1790086400});
  });
});

describe('os_version_min and os_version_max', () => {
  it('take two-digit majors (14.5, 10, 12.0.0), sent as typed', () => {
    const d = desk();
    typeOffers(d, [
      cpi(d.campaignId, 'ios_fourteen', {
        os_version_min: '10',
        os_version_max: '14.5',
      }),
      cpi(d.campaignId, 'android_twelve', {os_version_min: '12.0.0'}),
    ]);

    d.rt.call('createOffers');

    const bodies = creates(d.emulator);
    expect(bodies.ios_fourteen).toMatchObject({
      os_version_min: '10',
      os_version_max: '14.5',
    });
    expect(bodies.android_twelve).toMatchObject({os_version_min: '12.0.0'});
    expect(bodies.android_twelve).not.toHaveProperty('os_version_max');
    expect(statuses(d.rt).map(r => r[1])).toEqual(['OK', 'OK']);
    expect(
      d.emulator.offerView(Number(offerIdOf(d.rt, 'ios_fourteen'))),
    ).toMatchObject({os_version_max: '14.5'});
  });
});

describe('fields the API ignores or fills for the billing type', () => {
  it('are left out of the request, and the row says so', () => {
    const d = desk();
    typeOffers(d, [
      cpi(d.campaignId, 'cpi_with_event', {
        settlement_event: 'first_purchase',
      }),
      cpi(d.campaignId, 'ocpi_with_bid', {
        billing_type: 'OCPI',
        bid_goal: 'Target-ROAS',
        target_agg_event: 'purchase',
        target_goal_window: 'D7',
        target_goal: '150',
      }),
    ]);

    d.rt.call('createOffers');

    expect(sent(d.emulator)).toEqual(TWO_CREATED);
    const bodies = creates(d.emulator);
    expect(bodies.cpi_with_event).not.toHaveProperty('settlement_event');
    expect(bodies.cpi_with_event).toMatchObject({
      billing_type: 'CPI',
      bid_rate: 1.5,
    });
    expect(bodies.ocpi_with_bid).not.toHaveProperty('bid_rate');
    expect(bodies.ocpi_with_bid).not.toHaveProperty('target_ad_type');
    expect(statuses(d.rt)).toEqual([
      [
        'cpi_with_event',
        'OK',
        `Offer ${offerIdOf(d.rt, 'cpi_with_event')} created; tracking set. settlement_event is left out: only CPE offers use it.`,
      ],
      [
        'ocpi_with_bid',
        'OK',
        `Offer ${offerIdOf(d.rt, 'ocpi_with_bid')} created; tracking set. bid_rate is left out: OCPI offers are not sent one (the bid follows target_goal). target_ad_type is left out: the API fills it for OCPI.`,
      ],
    ]);
    // What the user typed stays in the sheet.
    expect(recordsOf(d.rt, 'New Offers')[0].settlement_event).toBe(
      'first_purchase',
    );

    d.emulator.clearRequests();
    expect(d.rt.call('createOffers')).toMatchObject({requests: 0});
    expect(d.emulator.requests).toEqual([]);
  });
});
