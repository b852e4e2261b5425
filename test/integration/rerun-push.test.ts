/**
 * "A re-run always moves forward: nothing stuck, nothing twice", for the pushes: runs
 * interrupted (a lost answer, a kill while a batch is out), then run again, and again. The
 * built dist/Code.js in the local runtime against the emulator.
 */
import type {Emulator} from '../../local/emulator';
import {offersPulled, typeInto} from '../support/offer-desk';

const TRACKING = '/api/open/v3/tracking';
/** Each request as `METHOD path-tail`. */
const sent = (emulator: Emulator) =>
  emulator.requests.map(
    r => `${r.method} ${r.path.replace('/api/open/v3/', '')}`,
  );

describe('a lost answer that reading back can never settle', () => {
  it('pushTracking of support_server_click alone: the push after "cannot tell" sends it, instead of reading back forever', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    const [id] = ids;
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'NO');
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/f',
    );
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    typeInto(rt, 'Offers', offerRow(id), 'support_server_click', 'YES');
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: TRACKING,
      count: 1,
    });
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
    });
    expect(rt.call('pushTracking')).toMatchObject({ok: 0, error: 1});
    expect(offer(id).sync_message).toMatch(
      /^Unknown outcome: .*reading it back failed/,
    );

    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 0, error: 1});
    expect(sent(emulator)).toEqual(['GET offers']);
    expect(offer(id).sync_message).toMatch(
      /reading it back cannot tell: the API's list does not return support_server_click\. The next push sends it again/,
    );

    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 1, error: 0});
    expect(sent(emulator)).toEqual(['PUT tracking']);
    expect(offer(id)).toMatchObject({
      sync_status: 'OK',
      support_server_click: 'YES',
    });
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({requests: 0});
  });
});
