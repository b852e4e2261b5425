/**
 * The hidden "Offer Desk state" sheet deleted by a user, on the built dist/Code.js in the local
 * runtime against the emulator: what the add-on wrote on the rows still lets a re-run go on.
 */
import {recordsOf, sheetOf, newOffersTyped} from '../support/offer-desk';

const TRACKING = '/api/open/v3/tracking';

describe('createOffers after a tracking that failed, with the state sheet deleted', () => {
  it('resumes at the tracking of the offer its row says exists: sets it once, creates nothing', () => {
    const {rt, emulator} = newOffersTyped({offer_one: {}});
    emulator.faults.configure({
      rules: [{kind: 'error', method: 'PUT', path: TRACKING, status: 503}],
    });
    rt.call('createOffers');
    const [row] = recordsOf(rt, 'New Offers');
    expect(row.sync_status).toBe('ERROR');
    emulator.faults.configure({rules: []});
    rt.spreadsheet.deleteSheet(sheetOf(rt, 'Offer Desk state'));
    emulator.clearRequests();

    rt.call('createOffers');

    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      `PUT ${TRACKING}`,
    ]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: row.offer_id,
      sync_status: 'OK',
      sync_message: `Offer ${row.offer_id} exists; tracking set.`,
    });
    emulator.clearRequests();
    rt.call('createOffers');
    expect(emulator.requests).toEqual([]);
  });
});
