/**
 * "A re-run always moves forward: nothing stuck, nothing twice", for Create new offers: Apps
 * Script stops the run while a batch of trackings is out (the server setting them), and the
 * job is run again. The built dist/Code.js in the local runtime against the emulator.
 */
import type {Emulator} from '../../local/emulator';
import {EXCEEDED_TIME} from '../../local/runtime';
import {newOffersTyped, recordsOf, typeInto} from '../support/offer-desk';

const TRACKING = '/api/open/v3/tracking';

const sent = (emulator: Emulator) =>
  emulator.requests.map(
    r => `${r.method} ${r.path.replace('/api/open/v3/', '')}`,
  );

describe('createOffers stopped while its trackings are out', () => {
  it('the rows say the outcome is unknown; the re-run reads them back and sends no tracking twice', () => {
    const {rt, emulator} = newOffersTyped({offer_aaa: {}, offer_bbb: {}});
    emulator.faults.add({
      kind: 'slow',
      method: 'PUT',
      path: TRACKING,
      latencyMs: 400000,
    });

    expect(() => rt.call('createOffers')).toThrow(EXCEEDED_TIME);
    expect(sent(emulator).filter(s => s.startsWith('PUT'))).toEqual([
      'PUT tracking',
      'PUT tracking',
    ]);
    for (const row of recordsOf(rt, 'New Offers')) {
      expect(row.sync_status).toBe('ERROR');
      expect(row.sync_message).toMatch(
        new RegExp(
          `^Offer ${row.offer_id} exists \\(offer_id filled in\\); its tracking was sent at \\S+, but the answer was never recorded: it may or may not be set\\. Run Create new offers again: it reads the tracking back and sends it only if it is not set\\.$`,
        ),
      );
    }

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('createOffers')).toMatchObject({ok: 2, error: 0});
    expect(sent(emulator)).toEqual(['GET offers']);
    for (const row of recordsOf(rt, 'New Offers')) {
      expect(row).toMatchObject({
        sync_status: 'OK',
        sync_message: `Offer ${row.offer_id} exists; tracking set (the answer to setting it was lost; reading it back confirmed it).`,
      });
    }
    emulator.clearRequests();
    expect(rt.call('createOffers')).toMatchObject({requests: 0});
  });

  it('a row whose tracking the offer is known to hold sends nothing, even with its status cleared', () => {
    const {rt, emulator} = newOffersTyped({offer_aaa: {}});
    rt.call('createOffers');
    const [row] = recordsOf(rt, 'New Offers');
    expect(row.sync_message).toBe(
      `Offer ${row.offer_id} created; tracking set.`,
    );
    typeInto(rt, 'New Offers', 2, 'sync_status', '');
    emulator.clearRequests();

    // A PUT tracking would restart the offer's click-URL test for nothing.
    expect(rt.call('createOffers')).toMatchObject({ok: 1, requests: 0});
    expect(sent(emulator)).toEqual([]);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${row.offer_id} exists.`,
    });
  });
});
