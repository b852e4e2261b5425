/**
 * Issue 35 (DESIGN 4.7): a refresh records in History the fields changed on the server outside
 * Offer Desk, one row per field (job `changed on the server`, outcome SEEN), and never what
 * Offer Desk wrote itself. The built dist/Code.js in the local runtime against the emulator.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {budgetsPulled, capChangedOnServer} from '../support/history';
import {
  normalisedTrackingEdit,
  offerDesk,
  recordsOf,
} from '../support/offer-desk';

const HOUR_S = 3600;
const SUB = DEMO_ACCOUNTS.subA.name;
const SERVER = 'changed on the server';

const nowS = (rt: Runtime) => Math.floor(rt.clock.now() / 1000);

/** History's rows of changes found on the server: what a user reads of each. */
const seen = (rt: Runtime) =>
  rt.spreadsheet.getSheetByName('History')
    ? recordsOf(rt, 'History')
        .filter(r => r.job === SERVER)
        .map(r => [
          r.account,
          r.sheet,
          r.record,
          r.field,
          r.before,
          r.after,
          r.outcome,
        ])
    : [];

const refresh = (rt: Runtime) =>
  rt.call('refreshOffers') as {message: string; changeId?: string};

describe('History of the changes made outside Offer Desk', () => {
  it('a cap and a bid changed on the server: one row per field, with before and after; the summary counts them', () => {
    const {rt, emulator, ids} = budgetsPulled(2);
    const bid = String(emulator.offerView(ids[1])!.bid_rate);
    capChangedOnServer(emulator, ids[0], '150');
    emulator.updateOffer(ids[1], {bid_rate: 2.25});
    const summary = refresh(rt);
    expect(seen(rt)).toEqual([
      [
        'main account',
        'Offers',
        String(ids[1]),
        'bid_rate',
        bid,
        '2.25',
        'SEEN',
      ],
      [
        'main account',
        'Budgets',
        String(ids[0]),
        'daily_cap [ALL]',
        '100',
        '150',
        'SEEN',
      ],
    ]);
    expect(summary.message).toContain(
      ' 2 fields changed on the server, see History.',
    );
    const [row] = recordsOf(rt, 'History').filter(r => r.job === SERVER);
    expect(row.message).toMatch(
      /^Changed on the server since the refresh of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, by no write of Offer Desk\.$/,
    );
    // Told once: the next refresh finds nothing new.
    expect(refresh(rt).message).not.toContain('changed on the server');
    expect(seen(rt)).toHaveLength(2);
  });
});
