/**
 * The hidden "Offer Desk state" sheet deleted by a user, on the built dist/Code.js in the local
 * runtime against the emulator: what the add-on wrote on the rows still lets a re-run go on.
 */
import {
  cpiOfferRow,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  sheetOf,
  typeRows,
} from '../support/offer-desk';

const TRACKING = '/api/open/v3/tracking';

describe('createOffers after a tracking that failed, with the state sheet deleted', () => {
  it('resumes at the tracking of the offer its row says exists: sets it once, creates nothing', () => {
    const {rt, emulator} = offerDesk({offers: 3});
    rt.call('refreshCreatives');
    rt.call('createOffers');
    const md5 = [...emulator.account('demo_adv').materials.keys()][0];
    typeRows(rt, 'New Offers', [
      cpiOfferRow(deliverableCampaign(emulator), 'offer_one'),
    ]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: 'offer_one',
        creative_set_name: 'main',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: md5,
      },
    ]);
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
