/**
 * What createOffers sends, body for body, for amounts a user may type: nothing for a number
 * that would not go out as typed, as the built dist/Code.js runs in the local Apps Script
 * runtime against the Open API emulator.
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
