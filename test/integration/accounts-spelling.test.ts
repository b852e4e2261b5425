/**
 * Issue 33, DESIGN 4.3: an account is written one way in every sheet, History, Scheduled and
 * Alerts included, as the record sheets write it (a sub-account's bare name, readable in a
 * narrow column; the main account as the add-on's label), so one filter finds its rows
 * everywhere. Rows an earlier release wrote ("main account", "sub-account NAME") are still
 * read: reverted, and found by the filter.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {MAIN_ACCOUNT_CELL} from '../../src/sheets/accounts';
import {editCap, threeAccounts} from '../support/accounts';
import {recordsOf, sheetOf} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;
const SUB_A = DEMO_ACCOUNTS.subA.name;
const SUB_B = DEMO_ACCOUNTS.subB.name;
const HOUR_S = 3600;

/** The account cells of a sheet's rows that the filter shows. */
const shownAccounts = (rt: Runtime, sheet: string) => {
  const s = sheetOf(rt, sheet);
  return recordsOf(rt, sheet).flatMap((r, k) =>
    s.isRowHiddenByFilter(k + 2) ? [] : [String(r.account)],
  );
};

describe('an account written one way in every sheet', () => {
  it('History, Scheduled and Alerts write each account as Budgets does, and one filter finds its rows in each', () => {
    const {rt, emulator, ids} = threeAccounts();
    const cellOf = (id: number) =>
      recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!.account;
    editCap(rt, ids[MAIN], '150');
    editCap(rt, ids[SUB_A], '160');
    rt.call('pushBudgets');
    editCap(rt, ids[SUB_B], '170');
    rt.call('pushBudgets', {
      at: Math.floor(rt.clock.now() / 1000) + 2 * HOUR_S,
    });
    const [stopped] = [...emulator.account(SUB_A).offers.keys()].filter(
      id => id !== ids[SUB_A],
    );
    emulator.updateOffer(stopped, {status: 'STOPPED'});
    rt.call('refreshOffers');

    expect(cellOf(ids[MAIN])).toBe(MAIN_ACCOUNT_CELL);
    expect(cellOf(ids[SUB_A])).toBe(SUB_A);
    // The two pushed records, then the stop the refresh found on the server (DESIGN 4.7).
    expect(
      recordsOf(rt, 'History').map(r => [r.account, r.record, r.outcome]),
    ).toEqual([
      [MAIN_ACCOUNT_CELL, String(ids[MAIN]), 'OK'],
      [SUB_A, String(ids[SUB_A]), 'OK'],
      [SUB_A, String(stopped), 'SEEN'],
    ]);
    expect(recordsOf(rt, 'Scheduled').map(r => r.account)).toEqual([SUB_B]);
    expect(recordsOf(rt, 'Alerts').map(r => [r.account, r.offer_id])).toEqual([
      [SUB_A, stopped],
    ]);

    const shown = rt.call('showAccount', SUB_A) as {sheets: string[]};

    expect(shown.sheets).toEqual(
      expect.arrayContaining(['Budgets', 'History', 'Scheduled', 'Alerts']),
    );
    for (const sheet of ['Budgets', 'History', 'Alerts'])
      expect(new Set(shownAccounts(rt, sheet))).toEqual(new Set([SUB_A]));
    expect(shownAccounts(rt, 'Scheduled')).toEqual([]);
  });

  it("History rows an earlier release wrote ('sub-account NAME', 'main account') are found by the filter and reverted to their account", () => {
    const {rt, emulator, ids} = threeAccounts();
    editCap(rt, ids[SUB_A], '160');
    editCap(rt, ids[MAIN], '150');
    const pushed = rt.call('pushBudgets') as {changeId: string};
    // As the previous release spelled them.
    const history = sheetOf(rt, 'History');
    const column =
      (
        history
          .getRange(1, 1, 1, history.getLastColumn())
          .getValues()[0] as string[]
      ).indexOf('account') + 1;
    recordsOf(rt, 'History').forEach((r, k) =>
      history
        .getRange(k + 2, column)
        .setValue(
          r.account === SUB_A ? `sub-account ${SUB_A}` : 'main account',
        ),
    );

    rt.call('showAccount', SUB_A);
    expect(shownAccounts(rt, 'History')).toEqual([`sub-account ${SUB_A}`]);
    rt.call('showAccount', '*');

    rt.call('revertChange', pushed.changeId);
    expect(rt.call('pushBudgets')).toMatchObject({ok: 2, error: 0});
    expect(
      emulator.account(SUB_A).offers.get(ids[SUB_A])!.budget[0].daily_cap,
    ).toBe('100');
    expect(
      emulator.account(MAIN).offers.get(ids[MAIN])!.budget[0].daily_cap,
    ).toBe('100');
  });
});
