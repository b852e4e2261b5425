/**
 * Issue 33, DESIGN 4.4: a sub-account that leaves (deleted, or no longer listed) is named by a
 * refresh of every account ("not refreshed"), its rows carried as they were; the other
 * accounts are refreshed.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf, sheetOf} from '../support/offer-desk';

const SUB_A = DEMO_ACCOUNTS.subA.name;
const SUB_B = DEMO_ACCOUNTS.subB.name;

const rowsOf = (rt: Runtime, account: string) =>
  recordsOf(rt, 'Offers').filter(r => r.account === account);

describe('a sub-account no longer listed', () => {
  it('is named in the summary and the sidebar lines, its rows carried as they were; the others refreshed', () => {
    const {rt, emulator} = offerDesk({offers: 20, listsSubAccounts: true});
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const kept = rowsOf(rt, SUB_B);
    expect(kept.length).toBeGreaterThan(0);
    const [renamed] = emulator.account(SUB_A).offers.keys();
    emulator.updateOffer(renamed, {offer_name: 'renamed_on_server'});
    emulator.deleteSubAccount(SUB_B);

    const summary = rt.call('refreshOffers') as {
      message: string;
      error: number;
      accounts: Array<{account: string; records: number; error?: string}>;
    };

    expect(summary.error).toBe(1);
    expect(summary.message).toContain(
      `Not refreshed, rows left as they were: sub-account ${SUB_B} (no longer listed: deleted, or no longer a sub-account of the main account; its rows are as the last refresh left them)`,
    );
    expect(
      summary.accounts.find(l => l.account === `sub-account ${SUB_B}`),
    ).toMatchObject({
      records: 0,
      error: expect.stringContaining('no longer listed'),
    });
    expect(rowsOf(rt, SUB_B)).toEqual(kept);
    expect(
      rowsOf(rt, SUB_A).find(r => r.offer_id === renamed)!.offer_name,
    ).toBe('renamed_on_server');

    // Its rows deleted, the refresh after next names it no more.
    for (const sheet of ['Offers', 'Budgets']) {
      const rows = recordsOf(rt, sheet);
      for (let i = rows.length - 1; i >= 0; i--)
        if (rows[i].account === SUB_B) sheetOf(rt, sheet).deleteRow(i + 2);
    }
    rt.call('refreshOffers');
    expect(
      (rt.call('refreshOffers') as {message: string}).message,
    ).not.toContain(SUB_B);
  });
});
