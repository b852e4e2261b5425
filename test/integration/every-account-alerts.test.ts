/**
 * Alert conditions belong to their account's records (issue 25, section 3): a refresh as a
 * sub-account neither forgets the main account's open conditions nor tells them twice, and the
 * alerts of a sub-account's offers name it in the sheet and in the email.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf} from '../support/offer-desk';

const HOUR = 3600_000;
const SUB = DEMO_ACCOUNTS.subA.name;

const alerts = (rt: Runtime) =>
  rt.spreadsheet.getSheetByName('Alerts')
    ? recordsOf(rt, 'Alerts').map(r => [r.account, r.offer_id, r.what])
    : [];

const hourLater = (rt: Runtime) => rt.runDueTriggers(rt.clock.now() + HOUR);

function running() {
  const desk = offerDesk({offers: 3, listsSubAccounts: true});
  const main = [...desk.emulator.account('demo_adv').offers.keys()];
  const sub = [...desk.emulator.account(SUB).offers.keys()];
  for (const id of [...main, ...sub])
    desk.emulator.updateOffer(id, {status: 'RUNNING', offer_stop_reason: ''});
  return {...desk, main, sub};
}

describe('alerts of every account', () => {
  it('a refresh as a sub-account between two scheduled runs of the main account loses none of its alerts and tells none twice', () => {
    const {rt, emulator, main} = running();
    rt.call('refreshOffers');
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    emulator.updateOffer(main[1], {status: 'STOPPED'});

    // Another editor's refresh as a sub-account does not list the main account's offers.
    rt.call('setActingAccount', SUB);
    rt.call('refreshOffers');
    rt.call('setActingAccount', '');
    hourLater(rt);
    expect(alerts(rt)).toEqual([
      ['(main account)', main[1], 'status left RUNNING'],
    ]);
    expect(rt.outbox.sent).toHaveLength(1);
    expect(rt.outbox.sent[0].body).toContain(`• offer ${main[1]} (`);

    // A round trip to the sub-account and back tells it no second time.
    rt.call('setActingAccount', SUB);
    rt.call('refreshOffers');
    rt.call('setActingAccount', '');
    hourLater(rt);
    expect(alerts(rt)).toHaveLength(1);
    expect(rt.outbox.sent).toHaveLength(1);
  });

  it("acting as every account, a sub-account's stopped offer is an Alerts row of that sub-account, and the email names it", () => {
    const {rt, emulator, sub} = running();
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    emulator.updateOffer(sub[0], {status: 'STOPPED'});

    hourLater(rt);

    expect(
      (rt.call('getSchedule') as {lastRun: {message: string}}).lastRun.message,
    ).toMatch(
      /^Refresh offers and budgets: Refreshed \d+ offers \(every account: the main account and 2 sub-accounts\)/,
    );
    expect(alerts(rt)).toEqual([[SUB, sub[0], 'status left RUNNING']]);
    expect(rt.outbox.sent).toHaveLength(1);
    expect(rt.outbox.sent[0].body).toContain(
      `• offer ${sub[0]} (${emulator.offerView(sub[0])!.offer_name}) of sub-account ${SUB}: status left RUNNING`,
    );
  });
});

describe('a scheduled refresh of every account', () => {
  it('that leaves an account out emails its owner naming it, the others refreshed', () => {
    const {rt, emulator} = running();
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    emulator.faults.add({kind: 'error', status: 503, account: SUB});

    hourLater(rt);

    const run = (rt.call('getSchedule') as {lastRun: {outcome: string}})
      .lastRun;
    expect(run.outcome).toBe('attention');
    expect(rt.outbox.sent).toHaveLength(1);
    const [mail] = rt.outbox.sent;
    expect(mail.subject).toBe(
      `Offer Desk: the scheduled refresh of "${rt.spreadsheet.getName()}" left accounts out`,
    );
    expect(mail.body).toContain('and left 1 account out');
    expect(mail.body).toContain(
      `Not refreshed, rows left as they were: sub-account ${SUB} (`,
    );
  });
});
