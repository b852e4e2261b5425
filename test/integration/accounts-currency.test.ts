/**
 * Issue 33: money shows its currency. Three accounts in two currencies (demo_adv and
 * demo_sub_a bill in USD, demo_sub_b in CNY): Budgets shows each row's currency, read-only,
 * beside the caps; the budget guard's question totals per currency.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {MAIN_ACCOUNT_CELL} from '../../src/sheets/accounts';
import {threeAccounts} from '../support/accounts';
import {recordsOf, typeInto} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;
const SUB_A = DEMO_ACCOUNTS.subA.name;
const SUB_B = DEMO_ACCOUNTS.subB.name;

const budgetRow = (rt: Runtime, id: number) =>
  recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!;

describe('money with its currency', () => {
  it("Budgets shows each row's currency, its account's, beside the caps", () => {
    const {rt, ids} = threeAccounts();

    const byAccount = new Map(
      recordsOf(rt, 'Budgets').map(r => [r.account, r.currency]),
    );
    expect(Object.fromEntries(byAccount)).toEqual({
      [MAIN_ACCOUNT_CELL]: 'USD',
      [SUB_A]: 'USD',
      [SUB_B]: 'CNY',
    });
    const headers = Object.keys(budgetRow(rt, ids[SUB_B]));
    expect(headers.slice(0, 6)).toEqual([
      'account',
      'offer_id',
      'offer_name',
      'target_geo',
      'currency',
      'country_code',
    ]);
    // Read-only: protected like the other cells a refresh fills.
    const protectedRanges = rt.spreadsheet
      .getSheetByName('Budgets')!
      .getProtections('RANGE')
      .map(p => p.getRange().getA1Notation());
    expect(protectedRanges).toContain('C2:E1000');
  });

  it("the guard's question totals the daily caps a push adds per currency, naming each offer's account", () => {
    const {rt, emulator, ids} = threeAccounts();
    for (const [name, cap] of [
      [MAIN, '1000'],
      [SUB_A, '500'],
      [SUB_B, '2000'],
    ] as const) {
      const row = recordsOf(rt, 'Budgets').findIndex(
        r => r.offer_id === ids[name],
      );
      typeInto(rt, 'Budgets', row + 2, 'daily_cap', cap);
    }
    emulator.clearRequests();
    rt.ui.answerNextAlert('NO');
    rt.run('menuPushBudgets');

    const [asked] = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(asked.prompt).toContain(
      'This push adds to the daily caps: CNY +1,900, USD +1,300.',
    );
    expect(asked.prompt).toContain(
      `• offer ${ids[SUB_B]} (${budgetRow(rt, ids[SUB_B]).offer_name}) of sub-account ${SUB_B}: daily_cap`,
    );
  });
});
