/**
 * Issue 33: alerts are quiet on each account's first refresh, not on the workbook's. A
 * sub-account refreshed for the first time beside a main account pulled before has nothing to
 * compare with: its offers PENDING long past their start are noted, not told; once compared,
 * a newly PENDING offer of it is told.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf} from '../support/offer-desk';

const SUB = DEMO_ACCOUNTS.subB.name;
const DAY_S = 86_400;

const alerts = (rt: Runtime) =>
  rt.spreadsheet.getSheetByName('Alerts')
    ? recordsOf(rt, 'Alerts').map(r => [r.account, r.offer_id, r.what])
    : [];

describe("alerts on an account's first refresh", () => {
  it('a sub-account first refreshed beside the main account tells none of its old PENDING offers; a later one is told', () => {
    const {rt, emulator} = offerDesk({offers: 20, listsSubAccounts: true});
    const started = Math.floor(rt.clock.now() / 1000) - 3 * DAY_S;
    const sub = [...emulator.account(SUB).offers.keys()];
    const main = [...emulator.account(DEMO_ACCOUNTS.main.name).offers.keys()];
    for (const id of [...main, ...sub])
      emulator.updateOffer(id, {status: 'RUNNING', offer_stop_reason: ''});
    emulator.updateOffer(sub[0], {status: 'PENDING', start_time: started});
    rt.call('refreshOffers');

    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    expect(alerts(rt)).toEqual([]);

    emulator.updateOffer(sub[1], {status: 'PENDING', start_time: started});
    rt.call('refreshOffers');
    expect(alerts(rt)).toEqual([
      [SUB, sub[1], 'status left RUNNING'],
      [SUB, sub[1], 'still PENDING 6 hours after start_time'],
    ]);
  });
});
