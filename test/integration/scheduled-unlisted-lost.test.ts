/**
 * A scheduled tracking change, its PUT's answer lost, is read back in the run that lost it,
 * whichever shape the offers list gives support_server_click (left out as 2.3 does, YES/NO, or
 * a JSON boolean): the rows and History say what reading back can tell, and nothing is sent
 * twice. The built dist/Code.js in the local runtime against the emulator.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  EMULATOR_URL,
  offerDesk,
  recordsOf,
  rowOf,
  typeInto,
} from '../support/offer-desk';

const HOUR_MS = 3600_000;
const NEW_URL = 'https://t.example.test/new';
const HELD =
  'Read back at 2026-01-05 11:00 (Etc/UTC): the server holds it (the answer to its request was lost)';
const NOT_APPLIED =
  'Not applied: read back, the server does not hold it (its request got no answer). Not sent again: schedule it again if it is still wanted.';

/** One offer's click_url scheduled in 2 hours (support_server_click NO by default), run with its PUT's answer lost. */
function lostTracking(listsServerClick: boolean | 'boolean', applied: boolean) {
  const {rt, emulator} = offerDesk({offers: 1, listsServerClick});
  const [id] = [...emulator.account('demo_adv').offers.keys()];
  emulator.updateOffer(id, {maintain_by: 'ADV', tracking_method: 'APPSFLYER'});
  rt.call('refreshOffers');
  rt.call('saveSettings', {
    baseUrl: EMULATOR_URL,
    accessKey: DEMO_ACCOUNTS.main.accessKey,
    supportServerClick: 'NO',
  });
  typeInto(
    rt,
    'Offers',
    rowOf(rt, 'Offers', 'offer_id', id),
    'click_url',
    NEW_URL,
  );
  rt.call('pushTracking', {at: Math.floor(rt.clock.now() / 1000) + 2 * 3600});
  rt.call('setRefreshSchedule', 0);
  emulator.faults.add({
    kind: 'drop',
    applied,
    method: 'PUT',
    path: '/api/open/v3/tracking',
    count: 1,
  });
  rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
  rt.call('applyScheduledChanges');
  emulator.faults.clear();
  return {
    puts: emulator.requests.filter(r => r.method === 'PUT').length,
    clickUrl: emulator.offerView(id)!.click_url,
    rows: recordsOf(rt, 'Scheduled').map(r => [r.field, r.status, r.message]),
    history: recordsOf(rt, 'History')
      .filter(r => String(r.record) === String(id))
      .map(r => [r.job, r.field, r.before, r.after, r.outcome, r.message]),
  };
}

describe('a scheduled tracking change whose answer is lost, support_server_click in each list shape', () => {
  it('left out of the list: the offer read back holds it, and the unlisted field is said to be taken as sent with the rest', () => {
    const held = `${HELD}; support_server_click, which the server does not list, is taken as sent with the rest (a request is applied whole).`;
    expect(lostTracking(false, true)).toEqual({
      puts: 1,
      clickUrl: NEW_URL,
      rows: [
        ['click_url', 'OK', held],
        ['support_server_click', 'OK', held],
      ],
      history: [
        ['scheduled push', 'click_url', '', NEW_URL, 'OK', held],
        ['scheduled push', 'support_server_click', '', 'NO', 'OK', held],
      ],
    });
  });

  for (const shape of [true, 'boolean'] as const) {
    it(`listed (${shape === true ? 'YES/NO' : 'a JSON boolean'}): the value pulled is no change, and the read-back confirms click_url alone`, () => {
      const held = `${HELD}.`;
      expect(lostTracking(shape, true)).toEqual({
        puts: 1,
        clickUrl: NEW_URL,
        rows: [['click_url', 'OK', held]],
        history: [['scheduled push', 'click_url', '', NEW_URL, 'OK', held]],
      });
    });
  }

  it('not applied, the field left out of the list: every row of the request says so, nothing sent again', () => {
    expect(lostTracking(false, false)).toEqual({
      puts: 1,
      clickUrl: '',
      rows: [
        ['click_url', 'ERROR', NOT_APPLIED],
        ['support_server_click', 'ERROR', NOT_APPLIED],
      ],
      history: [
        ['scheduled push', 'click_url', '', NEW_URL, 'ERROR', NOT_APPLIED],
        [
          'scheduled push',
          'support_server_click',
          '',
          'NO',
          'ERROR',
          NOT_APPLIED,
        ],
      ],
    });
  });
});
