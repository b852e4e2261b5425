/**
 * A workbook of the release before accounts (test/fixtures/release-2, built from commit
 * 191e6a3: one account at a time, no `account` column, state version 2) read by this one
 * (issue 25): nothing untouched is sent, an edit made under the old release goes out signed by
 * the account that pulled it, and a refresh as another account leaves those rows as they were.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {editableOffer, signedRequests} from '../support/accounts';
import {
  newOffersTyped,
  offerDesk,
  recordsOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';

const RELEASE_2 = join(__dirname, '..', 'fixtures', 'release-2');
const DIST = join(__dirname, '..', '..', 'dist', 'Code.js');
const SUB = DEMO_ACCOUNTS.subA.name;

/** Release 2 pulled everything as the sub-account, a cap edited; then this release loaded. */
function upgraded() {
  const desk = offerDesk({}, {distDir: RELEASE_2});
  const id = editableOffer(desk.emulator, SUB);
  desk.rt.call('setActingAccount', SUB);
  desk.rt.call('refreshAll');
  const row = recordsOf(desk.rt, 'Budgets').findIndex(r => r.offer_id === id);
  typeInto(desk.rt, 'Budgets', row + 2, 'daily_cap', '250');
  desk.rt.load(readFileSync(DIST, 'utf8'), 'Code.js');
  desk.emulator.clearRequests();
  return {...desk, id};
}

const writes = (desk: ReturnType<typeof upgraded>) =>
  signedRequests(desk.emulator).filter(r => !r.op.startsWith('GET'));

describe('a workbook of the release before accounts', () => {
  it('sends only the edit made under it, signed by the sub-account that pulled it, even acting as the main account', () => {
    const desk = upgraded();
    desk.rt.call('setActingAccount', '');
    for (const job of ['pushTracking', 'pushCampaigns'])
      expect(desk.rt.call(job)).toMatchObject({ok: 0, requests: 0});
    expect(desk.rt.call('pushBudgets')).toMatchObject({ok: 1, invalid: 0});
    expect(writes(desk).map(r => [r.op, r.signer])).toEqual([
      ['PUT offer/budget', SUB],
    ]);
    expect(desk.emulator.offerView(desk.id)!.budget[0]).toMatchObject({
      daily_cap: '250',
    });
    desk.emulator.clearRequests();
    expect(desk.rt.call('pushBudgets')).toMatchObject({ok: 0, requests: 0});
    expect(writes(desk)).toEqual([]);
  });

  it("a refresh as the main account adds its rows and leaves the sub-account's, then each is its own account's", () => {
    const desk = upgraded();
    const before = valuesOf(desk.rt, 'Offers').slice(1);
    desk.rt.call('setActingAccount', '');
    desk.rt.call('refreshOffers');
    const offers = recordsOf(desk.rt, 'Offers');
    const main = [...desk.emulator.account('demo_adv').offers.keys()];
    expect(
      offers.filter(r => r.account === '(main account)').map(r => r.offer_id),
    ).toEqual(main);
    // The old rows are kept as they were, the account column put back at the end empty: an
    // empty cell there is the sub-account's, which pulled them.
    const now = valuesOf(desk.rt, 'Offers');
    expect(now[0].at(-1)).toBe('account');
    expect(now.slice(1, before.length + 1)).toEqual(
      before.map(r => [...r, '']),
    );
    desk.emulator.clearRequests();
    desk.rt.call('pushBudgets');
    expect(writes(desk).map(r => [r.op, r.signer])).toEqual([
      ['PUT offer/budget', SUB],
    ]);
    desk.rt.call('setActingAccount', SUB);
    desk.rt.call('refreshOffers');
    expect(
      new Set(
        recordsOf(desk.rt, 'Offers')
          .filter(r => !main.includes(Number(r.offer_id)))
          .map(r => r.account),
      ),
    ).toEqual(new Set([SUB]));
  });

  it('a tracking whose answer it lost is read back, signed by the account that made the offer, and confirmed: not sent again', () => {
    const desk = newOffersTyped({offer_one: {}}, 3, {distDir: RELEASE_2});
    desk.emulator.faults.add({
      kind: 'drop',
      applied: true,
      method: 'PUT',
      path: '/api/open/v3/tracking',
      count: 1,
    });
    desk.rt.call('createOffers');
    const [row] = recordsOf(desk.rt, 'New Offers');
    expect(row.sync_message).toMatch(
      /^Offer \d+ exists \(offer_id filled in\), but the answer to setting its tracking was lost/,
    );
    desk.emulator.faults.clear();
    desk.rt.load(readFileSync(DIST, 'utf8'), 'Code.js');
    desk.emulator.clearRequests();

    desk.rt.call('createOffers');

    expect(signedRequests(desk.emulator).map(r => [r.op, r.signer])).toEqual([
      ['GET offers', DEMO_ACCOUNTS.main.name],
    ]);
    expect(recordsOf(desk.rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${row.offer_id} exists; tracking set (the answer to setting it was lost; reading it back confirmed it).`,
    });
  });
});
