/**
 * createOffers when the answer to setting a new offer's tracking was lost, on the built
 * dist/Code.js in the local runtime against the emulator: the next run reads the tracking
 * back and sends it only if it is not set (every PUT tracking restarts the click-URL test).
 */
import {
  memoOf,
  newOffersTyped,
  recordsOf,
  typeInto,
} from '../support/offer-desk';
import {RELEASE_3, upgradeToThisRelease} from '../support/releases';

const TRACKING = '/api/open/v3/tracking';
const OFFERS = '/api/open/v3/offers';

/**
 * One new offer created, its tracking's answer lost (`applied`: whether the server took it),
 * by the add-on in `distDir` (this release's by default).
 */
function trackingLost(applied: boolean, distDir?: string) {
  const desk = newOffersTyped({offer_one: {}}, 3, {distDir});
  const {rt, emulator} = desk;
  emulator.faults.add({
    kind: 'drop',
    applied,
    method: 'PUT',
    path: TRACKING,
    count: 1,
  });
  rt.call('createOffers');
  const [row] = recordsOf(rt, 'New Offers');
  expect(row.sync_status).toBe('ERROR');
  expect(row.sync_message).toMatch(
    /^Offer \d+ exists \(offer_id filled in\), but the answer to setting its tracking was lost \(.+\): it may or may not be set\. Run Create new offers again: it reads the tracking back and sends it only if it is not set\.$/,
  );
  emulator.faults.clear();
  emulator.clearRequests();
  return {...desk, offerId: Number(row.offer_id)};
}

const sent = (d: ReturnType<typeof trackingLost>) =>
  d.emulator.requests.map(r => `${r.method} ${r.path}`);

describe('createOffers after the answer to a tracking was lost', () => {
  it('the server took it: the next run reads it back, sends nothing, and says so; History records it', () => {
    const d = trackingLost(true);
    // Out, its outcome unknown: in the outbox, with the account that signed it.
    expect(memoOf(d.rt, 'outbox')).toMatchObject({
      entries: [
        {
          kind: 'tracking',
          job: 'createOffers',
          account: '',
          record: String(d.offerId),
          request: {sent: [expect.any(Array)]},
          time: expect.stringMatching(/^\d{4}-/),
        },
      ],
    });

    d.rt.call('createOffers');

    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: []});

    expect(sent(d)).toEqual([`GET ${OFFERS}`]);
    const message = `Offer ${d.offerId} exists; tracking set (the answer to setting it was lost; reading it back confirmed it).`;
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: message,
    });
    const history = recordsOf(d.rt, 'History').filter(
      r => r.record === String(d.offerId) && r.field === 'click_url',
    );
    expect(history.map(r => [r.outcome, r.message])).toEqual([
      ['UNKNOWN', expect.stringMatching(/answer to setting its tracking/)],
      ['OK', message],
    ]);

    d.emulator.clearRequests();
    expect(d.rt.call('createOffers')).toMatchObject({requests: 0});
    expect(sent(d)).toEqual([]);
  });

  it('lost by the release before the outbox: this release reads its mark in, reads the offer back and sends nothing', () => {
    const d = trackingLost(true, RELEASE_3);
    upgradeToThisRelease(d.rt);

    d.rt.call('createOffers');

    expect(sent(d)).toEqual([`GET ${OFFERS}`]);
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${d.offerId} exists; tracking set (the answer to setting it was lost; reading it back confirmed it).`,
    });
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: []});
  });

  it('the server lists it neither as sent nor as it was (tracking_method in lower case, click_url rewritten): Unknown outcome, as a push says it; not sent again', () => {
    const d = trackingLost(true);
    d.emulator.updateOffer(d.offerId, {
      tracking_method: 'appsflyer',
      click_url: 'https://track.example.com/click?o=offer_one&src=x',
    } as never);

    d.rt.call('createOffers');

    expect(sent(d)).toEqual([`GET ${OFFERS}`]);
    const message = `Unknown outcome: Offer ${d.offerId} exists (offer_id filled in); the answer to setting its tracking was lost, and reading it back shows tracking_method "appsflyer", click_url "https://track.example.com/click?o=offer_one&src=x", neither what was sent nor what it was (the server's own form of it, or a change made since): not sent again. Refresh offers to see what the server has; change the row's tracking to send it again.`;
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: message,
    });
    const history = recordsOf(d.rt, 'History').filter(
      r => r.record === String(d.offerId) && r.field === 'click_url',
    );
    expect(history.map(r => r.outcome)).toEqual(['UNKNOWN', 'UNKNOWN']);
    expect(history[1].message).toBe(message);

    // What was sent is taken as what the offer holds: the next run sends nothing for it.
    d.emulator.clearRequests();
    expect(d.rt.call('createOffers')).toMatchObject({requests: 0});
    expect(sent(d)).toEqual([]);
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${d.offerId} exists.`,
    });
  });

  it('reading back does not list the offer: Unknown outcome, nothing sent; the run after reads it back again', () => {
    const d = trackingLost(true);
    d.emulator.faults.add({
      kind: 'page',
      page: 'short',
      method: 'GET',
      path: OFFERS,
      count: 1,
    });

    d.rt.call('createOffers');

    expect(sent(d)).toEqual([`GET ${OFFERS}`]);
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: `Offer ${d.offerId} exists (offer_id filled in); the answer to setting its tracking was lost, and reading it back did not list offer ${d.offerId}: nothing was sent. Run Create new offers again: it reads the tracking back before sending it.`,
    });

    d.emulator.faults.clear();
    d.emulator.clearRequests();
    d.rt.call('createOffers');
    expect(sent(d)).toEqual([`GET ${OFFERS}`]);
    expect(recordsOf(d.rt, 'New Offers')[0].sync_status).toBe('OK');
  });

  it('the server did not take it: the next run reads it back and sends it once, saying so as a push does', () => {
    const d = trackingLost(false);

    d.rt.call('createOffers');

    expect(sent(d)).toEqual([`GET ${OFFERS}`, `PUT ${TRACKING}`]);
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${d.offerId} exists; tracking set (sent again: the answer to setting it was lost, and reading it back showed it was not applied).`,
    });
    expect(d.emulator.offerView(d.offerId)!.click_url).toBe(
      'https://track.example.com/click?o=offer_one',
    );
  });

  it('reading back fails: nothing is sent and the row says so; the run after reads it back', () => {
    const d = trackingLost(true);
    d.emulator.faults.add({kind: 'error', status: 503, path: OFFERS});

    d.rt.call('createOffers');

    expect(sent(d).filter(s => s.startsWith('PUT'))).toEqual([]);
    expect(recordsOf(d.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      sync_message: expect.stringMatching(
        new RegExp(
          `^Offer ${d.offerId} exists \\(offer_id filled in\\); the answer to setting its tracking was lost, and reading it back failed \\(GET offers: HTTP 503 .+\\): nothing was sent\\. Run Create new offers again: it reads the tracking back before sending it\\.$`,
        ),
      ),
    });

    d.emulator.faults.clear();
    d.emulator.clearRequests();
    d.rt.call('createOffers');
    expect(sent(d)).toEqual([`GET ${OFFERS}`]);
    expect(recordsOf(d.rt, 'New Offers')[0].sync_status).toBe('OK');
  });

  it('the row changed its click_url meanwhile: the new tracking is sent, with no read back', () => {
    const d = trackingLost(true);
    typeInto(d.rt, 'New Offers', 2, 'click_url', 'https://t.example.test/new');

    d.rt.call('createOffers');

    expect(sent(d)).toEqual([`PUT ${TRACKING}`]);
    expect(d.emulator.offerView(d.offerId)!.click_url).toBe(
      'https://t.example.test/new',
    );
  });
});
