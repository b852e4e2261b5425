/**
 * Issue 33, DESIGN 4.4: one failing account is named and left as it was, whatever failed,
 * and every other account's work goes on: a push where one sub-account is deleted and another
 * answers 503, and a revert across three accounts where one answers 503.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {editCap, threeAccounts} from '../support/accounts';
import {recordsOf} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;
const SUB_A = DEMO_ACCOUNTS.subA.name;
const SUB_B = DEMO_ACCOUNTS.subB.name;

const rowOf = (rt: Runtime, id: number) =>
  recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!;

describe('one failing account holds back no other', () => {
  it('a push: one sub-account deleted, another answering 503; each ERROR naming why, the main account pushed', () => {
    const {rt, emulator, ids} = threeAccounts();
    for (const name of [MAIN, SUB_A, SUB_B]) editCap(rt, ids[name], '150');
    emulator.deleteSubAccount(SUB_B);
    emulator.faults.add({kind: 'error', status: 503, account: SUB_A});

    const summary = rt.call('pushBudgets') as {ok: number; error: number};

    expect(summary).toMatchObject({ok: 1, error: 2});
    expect(emulator.offerView(ids[MAIN])!.budget[0].daily_cap).toBe('150');
    expect(rowOf(rt, ids[MAIN]).sync_status).toBe('OK');
    for (const name of [SUB_A, SUB_B]) {
      expect(rowOf(rt, ids[name])).toMatchObject({
        daily_cap: 150,
        sync_status: 'ERROR',
      });
    }
    expect(String(rowOf(rt, ids[SUB_A]).sync_message)).toMatch(/503/);
    expect(String(rowOf(rt, ids[SUB_B]).sync_message)).toContain(SUB_B);
  });

  it('a revert across three accounts, one answering 503: the others put back', () => {
    const {rt, emulator, ids} = threeAccounts();
    for (const name of [MAIN, SUB_A, SUB_B]) editCap(rt, ids[name], '150');
    const pushed = rt.call('pushBudgets') as {changeId: string};
    emulator.faults.add({kind: 'error', status: 503, account: SUB_B});

    rt.call('revertChange', pushed.changeId);
    const summary = rt.call('pushBudgets') as {ok: number; error: number};

    expect(summary).toMatchObject({ok: 2, error: 1});
    expect(emulator.offerView(ids[MAIN])!.budget[0].daily_cap).toBe('100');
    expect(emulator.offerView(ids[SUB_A])!.budget[0].daily_cap).toBe('100');
    expect(emulator.offerView(ids[SUB_B])!.budget[0].daily_cap).toBe('150');
    expect(rowOf(rt, ids[SUB_B]).sync_status).toBe('ERROR');
  });
});
