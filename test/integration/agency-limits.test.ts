/**
 * Issue 25, Scale and quotas, on the built add-on: a schedule whose runs would pass a day's
 * UrlFetch calls (20,000, a gmail.com account's) says so before it starts and what fits;
 * nothing is sent and no sheet changes. (A refresh past one execution refreshes less:
 * accounts-pricing.test.ts.)
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {AGENCY_SUB_ACCOUNTS, subAccountNames} from '../support/accounts';
import {offerDesk, valuesOf} from '../support/offer-desk';

/** The scheduled run's record, as the trigger answers it. */
interface Turn {
  outcome: string;
  message: string;
}

function scheduledTrigger(rt: Runtime): string {
  const trigger = rt.triggers.records.find(
    t => t.handler === 'scheduledRefresh',
  );
  if (!trigger) throw new Error('no scheduled refresh installed');
  return trigger.id;
}

describe('an agency past a day of UrlFetch calls', () => {
  // 15 accounts of 2,800 offers: 56 pages each, 841 requests a refresh with the sub-account
  // keys, 20,184 a day if hourly. The sizes are what it takes to pass 20,000 calls a day.
  const OFFERS = 2800;
  let rt: Runtime;
  let emulator: Emulator;
  let sub: string;

  beforeAll(() => {
    ({rt, emulator} = offerDesk({
      subAccounts: AGENCY_SUB_ACCOUNTS,
      listsSubAccounts: true,
      offers: OFFERS,
      otherOffers: OFFERS,
      campaigns: 5,
      otherCampaigns: 5,
    }));
    sub = subAccountNames(emulator)[0];
    rt.call('setActingAccount', '*');
    expect(rt.call('refreshOffers')).toMatchObject({
      ok: 15 * OFFERS,
      error: 0,
      requests: 15 * 56,
    });
  });

  it('setRefreshSchedule refuses an hourly refresh of every account, with calls a day against the quota and the interval that fits; the schedule before stays', () => {
    rt.call('setRefreshSchedule', 12, {job: 'refreshOffers'});
    emulator.clearRequests();
    expect(() =>
      rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'}),
    ).toThrow(
      'The scheduled refresh was not saved: A refresh of every account (15 accounts) every hour would make about 20,184 UrlFetch calls a day (841 a run, 24 runs), more than the 20,000 Google allows one person a day (the quota of a gmail.com account, which Offer Desk assumes; Google Workspace allows 100,000). To fit, choose every 2 hours (10,092 calls a day) or longer, or refresh fewer accounts: act as one account, or keep each group of accounts in a workbook of its own.',
    );
    expect(emulator.requests).toEqual([]);
    expect(rt.call('getSchedule')).toMatchObject({
      hours: 12,
      job: 'refreshOffers',
    });
    expect(rt.triggers.records).toHaveLength(1);
    // Every 2 hours fits, and so does every hour of one account.
    expect(
      rt.call('setRefreshSchedule', 2, {job: 'refreshOffers'}),
    ).toMatchObject({hours: 2});
    rt.call('setActingAccount', sub);
    expect(
      rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'}),
    ).toMatchObject({hours: 1});
    rt.call('setActingAccount', '*');
  });

  it('a scheduled run that would pass the quota (saved as one account, run as every account) sends nothing, changes no sheet and says what to change', () => {
    rt.call('setActingAccount', sub);
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    rt.call('setActingAccount', '*');
    const before = valuesOf(rt, 'Offers');
    emulator.clearRequests();

    const turn = rt.fireTrigger(scheduledTrigger(rt)) as Turn;

    expect(turn).toMatchObject({
      outcome: 'error',
      message:
        'Refresh offers and budgets failed: nothing was sent and no sheet changed. A refresh of every account (15 accounts) every hour would make about 20,184 UrlFetch calls a day (841 a run, 24 runs), more than the 20,000 Google allows one person a day (the quota of a gmail.com account, which Offer Desk assumes; Google Workspace allows 100,000). To fit, choose every 2 hours (10,092 calls a day) or longer, or refresh fewer accounts: act as one account, or keep each group of accounts in a workbook of its own.',
    });
    expect(emulator.requests).toEqual([]);
    expect(valuesOf(rt, 'Offers')).toEqual(before);
  });
});
