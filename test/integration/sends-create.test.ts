/**
 * What createOffers sends, body for body, for amounts and times a user may type: nothing for
 * a number that would not go out as typed, nor for a time the clocks skip, as the built
 * dist/Code.js runs in the local Apps Script runtime against the Open API emulator.
 */
import {newOffersTyped, recordsOf} from '../support/offer-desk';

const OFFER_PATH = '/api/open/v3/offer';

describe('createOffers sends', () => {
  it.each([
    ['total_budget', '123456789012345678901', '123456789012345680000'],
    ['bid_rate', '1e20', '100000000000000000000'],
  ])(
    'nothing for a %s of %s, which would not go out as typed',
    (field, typed, quoted) => {
      const {rt, emulator} = newOffersTyped({huge_amount: {[field]: typed}});

      expect(rt.call('createOffers')).toMatchObject({invalid: 1, ok: 0});

      expect(emulator.requests.filter(r => r.path === OFFER_PATH)).toEqual([]);
      const [row] = recordsOf(rt, 'New Offers');
      expect([row.sync_status, row.sync_message]).toEqual([
        'INVALID',
        `${field} is too large to send as typed: at most 15 digits before the decimal point (got "${quoted}"). Nothing was sent.`,
      ]);
    },
  );
});

describe('createOffers reads a typed start_time in the spreadsheet time zone (America/New_York)', () => {
  function typedAt(start_time: string) {
    const desk = newOffersTyped({dst_offer: {start_time}});
    desk.rt.spreadsheet.setSpreadsheetTimeZone('America/New_York');
    return desk;
  }
  const sentStart = (desk: ReturnType<typeof typedAt>) =>
    desk.emulator.requests
      .filter(r => r.path === OFFER_PATH)
      .map(r => (r.body as {start_time: number}).start_time);

  it('sends nothing for a time the clocks skip (2026-03-08 02:30), saying so', () => {
    const desk = typedAt('2026-03-08 02:30');

    expect(desk.rt.call('createOffers')).toMatchObject({invalid: 1, ok: 0});

    expect(sentStart(desk)).toEqual([]);
    const [row] = recordsOf(desk.rt, 'New Offers');
    expect([row.sync_status, row.sync_message]).toEqual([
      'INVALID',
      'start_time names a time that does not exist in the spreadsheet\'s time zone ("2026-03-08 02:30": the clocks jump ahead over it): type a time after the jump, or Unix seconds. Nothing was sent.',
    ]);
  });

  it.each([
    // 03:30 EDT, just after the jump.
    ['2026-03-08 03:30', Date.UTC(2026, 2, 8, 7, 30) / 1000],
    // Clocks repeat 01:00-02:00: the first 01:30, in EDT.
    ['2026-11-01 01:30', Date.UTC(2026, 10, 1, 5, 30) / 1000],
    ['2026-07-01 10:00', Date.UTC(2026, 6, 1, 14, 0) / 1000],
  ])('sends %s as %d', (typed, seconds) => {
    const desk = typedAt(typed);

    expect(desk.rt.call('createOffers')).toMatchObject({ok: 1});

    expect(sentStart(desk)).toEqual([seconds]);
  });
});
