/**
 * A server that keeps click_url in its own form (2.3 says it normalises impression_url; of
 * click_url it says nothing): emulator option `normalisesClickUrl`, scheme and host in lower
 * case. When the answer to a PUT tracking is lost, reading it back shows neither what was sent
 * nor what the offer had: the add-on must not take that for "not applied" and send it again
 * (every PUT tracking restarts the click-URL test); the row says what the server shows, and a
 * re-run sends nothing.
 */
import type {Emulator} from '../../local/emulator';
import {normalisedTrackingEdit, recordsOf} from '../support/offer-desk';

const TRACKING = '/api/open/v3/tracking';

const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path}`);

describe('a lost PUT tracking on a server that normalises click_url', () => {
  it('reads it back, sends it no second time, and says what the server shows', () => {
    const {rt, emulator, id} = normalisedTrackingEdit();
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: TRACKING,
      count: 1,
    });
    emulator.clearRequests();

    rt.call('pushTracking');

    expect(sent(emulator)).toEqual([
      'GET /api/open/v3/offers',
      `PUT ${TRACKING}`,
      'GET /api/open/v3/offers',
    ]);
    expect(emulator.offerView(id)!.click_url).toBe(
      'https://track.example.com/c?Id=7',
    );
    const [row] = recordsOf(rt, 'Offers');
    expect(row.sync_status).toBe('ERROR');
    expect(row.sync_message).toMatch(
      /^Unknown outcome: the answer was lost \(PUT tracking: network error: .+\), and reading it back shows click_url "https:\/\/track\.example\.com\/c\?Id=7", neither what was sent nor what it was \(the server's own form of it, or a change made since\): not sent again\. Refresh to see what the server has; change the row to send it again\.$/,
    );

    emulator.clearRequests();
    rt.call('pushTracking');
    expect(emulator.requests).toEqual([]);
    rt.call('refreshOffers');
    expect(recordsOf(rt, 'Offers')[0].click_url).toBe(
      'https://track.example.com/c?Id=7',
    );
    emulator.clearRequests();
    rt.call('pushTracking');
    expect(emulator.requests).toEqual([]);
  });
});
