/**
 * Issue 33: a summary names each account whose records a job sent, with its count, never
 * only the acting one; rows "Show rows of" hides are told before a push sends them (preview,
 * and a Yes/No question); a History card names each account of its change.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  AGENCY_SUB_ACCOUNTS,
  editableOffer,
  editCap,
  subAccountNames,
  threeAccounts,
} from '../support/accounts';
import {offerDesk, recordsOf} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;
const SUB_A = DEMO_ACCOUNTS.subA.name;
const SUB_B = DEMO_ACCOUNTS.subB.name;

const puts = (emulator: ReturnType<typeof threeAccounts>['emulator']) =>
  emulator.requests
    .filter(r => r.method === 'PUT')
    .map(r => (r.body as {offer_id: number}).offer_id);

describe('a summary names each account it touched', () => {
  it("acting as a sub-account, a push that sent the main account's row names the main account, not the one acting", () => {
    const {rt, ids} = threeAccounts();
    editCap(rt, ids[MAIN], '150');
    rt.call('setActingAccount', SUB_B);

    const summary = rt.call('pushBudgets') as {message: string};

    expect(summary.message).toMatch(
      /^1 OK, 0 invalid, 0 error, \d+ unchanged budget rows \(main account: 1 record\)\.$/,
    );
  });

  it('acting as every account, the push, its sidebar lines and its History card name each account with its count', () => {
    const {rt, ids} = threeAccounts();
    editCap(rt, ids[MAIN], '150');
    editCap(rt, ids[SUB_B], '170');

    const summary = rt.call('pushBudgets') as {
      message: string;
      accounts: Array<{account: string; records: number}>;
    };

    expect(summary.message).toContain(
      `(main account: 1 record, sub-account ${SUB_B}: 1 record).`,
    );
    expect(summary.accounts).toEqual([
      {account: 'main account', records: 1},
      {account: `sub-account ${SUB_B}`, records: 1},
    ]);
    const {runs} = rt.call('listChanges') as {
      runs: Array<{account: string}>;
    };
    expect(runs[0].account).toBe(
      `main account: 1 record, sub-account ${SUB_B}: 1 record`,
    );
  });
});

describe('a revert names each account it put back', () => {
  it('acting as a sub-account, a revert of a change across two accounts names both, with their records', () => {
    const {rt, ids} = threeAccounts();
    editCap(rt, ids[MAIN], '150');
    editCap(rt, ids[SUB_B], '170');
    const {changeId} = rt.call('pushBudgets') as {changeId: string};
    rt.call('setActingAccount', SUB_A);

    const summary = rt.call('revertChange', changeId) as {
      message: string;
      accounts: Array<{account: string; records: number}>;
    };

    expect(summary.message).toMatch(
      new RegExp(
        `^2 rows put back as EDITED: .* Records of main account: 1 record, sub-account ${SUB_B}: 1 record\\.$`,
      ),
    );
    expect(summary.accounts).toEqual([
      {account: 'main account', records: 1},
      {account: `sub-account ${SUB_B}`, records: 1},
    ]);
  });
});

describe('a push across many accounts', () => {
  it('names five accounts in its line and counts the rest; the sidebar lists each', () => {
    const {rt, emulator} = offerDesk({
      subAccounts: AGENCY_SUB_ACCOUNTS,
      listsSubAccounts: true,
    });
    const subs = subAccountNames(emulator).slice(0, 7);
    const ids = subs.map(name => editableOffer(emulator, name));
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    for (const id of ids) editCap(rt, id, '150');

    const summary = rt.call('pushBudgets') as {
      message: string;
      accounts: unknown[];
    };

    expect(summary.message).toContain(
      `(${subs
        .slice(0, 5)
        .map(name => `sub-account ${name}: 1 record`)
        .join(', ')} and 2 accounts more (the sidebar lists each)).`,
    );
    expect(summary.accounts).toHaveLength(7);
  });
});

describe('rows the filter hides', () => {
  function filtered() {
    const desk = threeAccounts();
    const {rt, ids} = desk;
    editCap(rt, ids[MAIN], '150');
    editCap(rt, ids[SUB_A], '160');
    editCap(rt, ids[SUB_B], '170');
    rt.call('showAccount', SUB_A);
    desk.emulator.clearRequests();
    return desk;
  }

  it('the preview says which accounts the hidden rows are of', () => {
    const {rt} = filtered();
    const summary = rt.call('pushBudgets', {dryRun: true}) as {
      message: string;
    };
    expect(summary.message).toContain(
      `The filter (Show rows of) hides 1 row of the main account and 1 row of the sub-account ${SUB_B} of them: a push asks first whether to send those.`,
    );
  });

  it('a push asks before sending them, naming the accounts; No sends the shown rows only, the hidden keep their edits', () => {
    const {rt, emulator, ids} = filtered();
    rt.ui.answerNextAlert('NO');
    rt.run('menuPushBudgets');

    const [asked] = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(asked.title).toBe('Send rows the filter hides?');
    expect(asked.prompt).toContain(
      `this push would also send 1 row of the main account and 1 row of the sub-account ${SUB_B}, which the filter hides.`,
    );
    expect(puts(emulator)).toEqual([ids[SUB_A]]);
    const row = (id: number) =>
      recordsOf(rt, 'Budgets').find(r => r.offer_id === id)!;
    expect(row(ids[MAIN])).toMatchObject({
      daily_cap: 150,
      sync_status: 'EDITED',
    });
    expect(row(ids[SUB_B]).sync_message).toMatch(/^Not sent: the filter/);
  });

  it('Yes sends them all', () => {
    const {rt, emulator, ids} = filtered();
    rt.ui.answerNextAlert('YES');
    rt.run('menuPushBudgets');
    expect(puts(emulator).sort()).toEqual(
      [ids[MAIN], ids[SUB_A], ids[SUB_B]].sort(),
    );
  });
});
