/**
 * Issue 14: the sidebar's list of the last job runs (listChanges), its History size setting,
 * and the History's user column where Apps Script hides the email. The built dist/Code.js in
 * the local Apps Script runtime against the Open API emulator.
 */
import {budgetsPulled} from '../support/history';
import {offerDesk, recordsOf, sheetOf, typeInto} from '../support/offer-desk';

interface ChangeRun {
  changeId: string;
  at: number;
  job: string;
  lines: string[];
}

interface HistoryView {
  runs: ChangeRun[];
  timeZone: string;
  limit: number;
}

describe('listChanges: the last runs, newest first', () => {
  it('offers Revert for a push the API refused whole: revert takes the refused values out of the rows', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(1);
    emulator.faults.add({
      kind: 'busy',
      method: 'PUT',
      path: '/api/open/v3/offer/budget',
      count: 10,
      code: 10999,
      msg: 'internal failure',
    });
    cap(ids[0], '150');
    const push = rt.call('pushBudgets') as {changeId: string; error: number};
    expect(push.error).toBe(1);
    const [run] = (rt.call('listChanges') as HistoryView).runs;
    expect(run).toMatchObject({
      changeId: push.changeId,
      ok: 0,
      error: 1,
      revertible: true,
    });
    rt.call('revertChange', push.changeId);
    expect(budget(ids[0])).toMatchObject({daily_cap: 100, sync_status: ''});
  });

  it('lists a push, a create and a revert pushed back, with their counts, lines and whether they can be reverted', () => {
    const {rt, ids, cap} = budgetsPulled();
    const [a, b] = ids;
    cap(a, '150');
    cap(b, '160');
    const push = rt.call('pushBudgets') as {changeId: string};
    rt.call('refreshSubAccounts');
    const subRow = recordsOf(rt, 'Sub-accounts').length + 2;
    typeInto(rt, 'Sub-accounts', subRow, 'sub_adv_user_name', 'team_lisbon');
    typeInto(rt, 'Sub-accounts', subRow, 'password', 'pa55-word!');
    const create = rt.call('createSubAccounts') as {changeId: string};
    rt.call('revertChange', push.changeId);
    const back = rt.call('pushBudgets') as {changeId: string};

    const view = rt.call('listChanges') as HistoryView;
    expect(view.limit).toBe(50000);
    expect(view.timeZone).toBe(rt.spreadsheet.getSpreadsheetTimeZone());
    const common = {
      account: 'main account',
      user: 'user@example.com',
      at: expect.any(Number),
      error: 0,
      unknown: 0,
      more: 0,
    };
    const budgetsRun = (changeId: string, lines: string[]) => ({
      ...common,
      changeId,
      job: 'pushBudgets',
      ok: 2,
      records: 2,
      sheets: ['Budgets'],
      revertible: true,
      lines,
    });
    expect(view.runs).toEqual([
      budgetsRun(back.changeId, [
        `Budgets ${a} daily_cap [ALL]: 150 → 100`,
        `Budgets ${b} daily_cap [ALL]: 160 → 100`,
      ]),
      {
        ...common,
        changeId: create.changeId,
        job: 'createSubAccounts',
        ok: 2,
        records: 1,
        sheets: ['Sub-accounts'],
        revertible: false,
        lines: [
          'Sub-accounts team_lisbon sub-account created: (empty) → team_lisbon',
          'Sub-accounts team_lisbon password: (empty) → (set)',
        ],
      },
      budgetsRun(push.changeId, [
        `Budgets ${a} daily_cap [ALL]: 100 → 150`,
        `Budgets ${b} daily_cap [ALL]: 100 → 160`,
      ]),
    ]);
    const times = view.runs.map(r => r.at);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it('gives a change one time, to the second: every History row, its change id and the sidebar agree (issue 28)', () => {
    const {rt, ids, cap} = budgetsPulled(3);
    for (const [k, id] of ids.entries()) cap(id, String(150 + k));
    const push = rt.call('pushBudgets') as {changeId: string};
    const history = sheetOf(rt, 'History');
    const rows = history.getLastRow() - 1;
    const times = history.getRange(2, 1, rows, 1);
    const [at] = times.getValues()[0] as [Date];
    expect(times.getValues()).toEqual(Array.from({length: 3}, () => [at]));
    expect(at.getTime() % 1000).toBe(0);
    // The sheet rounds to the second where the sidebar's clock and the change id cut: the
    // same second either way.
    const stamp = push.changeId.slice(0, 15);
    expect(at.toISOString().replace(/[-:]/g, '').replace('T', '-')).toMatch(
      new RegExp(`^${stamp}`),
    );
    expect(rt.spreadsheet.getSpreadsheetTimeZone()).toBe('Etc/UTC');
    expect(times.getDisplayValues()[0][0]).toBe(
      `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)} ${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}`,
    );
    const [run] = (rt.call('listChanges') as HistoryView).runs;
    expect(run).toMatchObject({changeId: push.changeId, at: at.getTime()});
  });

  it('lists exactly the last 20 of 22 runs', () => {
    const {rt, ids, cap} = budgetsPulled();
    const changeIds: string[] = [];
    for (let k = 0; k < 22; k++) {
      cap(ids[0], String(101 + k));
      changeIds.push((rt.call('pushBudgets') as {changeId: string}).changeId);
    }
    const {runs} = rt.call('listChanges') as HistoryView;
    expect(runs.map(r => r.changeId)).toEqual(changeIds.slice(2).reverse());
    expect(runs[0].lines).toEqual([
      `Budgets ${ids[0]} daily_cap [ALL]: 121 → 122`,
    ]);
  });

  it('with no History sheet lists nothing', () => {
    const {rt} = budgetsPulled();
    expect(rt.call('listChanges')).toMatchObject({runs: [], limit: 50000});
  });
});

describe('setHistoryLimit', () => {
  it.each(['abc', 999, 600000])('refuses %p and keeps the size', rows => {
    const {rt} = offerDesk({offers: 1});
    expect(() => rt.call('setHistoryLimit', rows)).toThrow(
      `History size not saved: it must be a whole number of rows from 1,000 to 500,000, not "${rows}".`,
    );
    expect(rt.call('listChanges')).toMatchObject({limit: 50000});
  });

  it('takes "50,000" as 50000 rows', () => {
    const {rt} = offerDesk({offers: 1});
    expect(rt.call('setHistoryLimit', '20,000')).toBe(20000);
    expect(rt.call('setHistoryLimit', '50,000')).toBe(50000);
    expect(rt.call('listChanges')).toMatchObject({limit: 50000});
  });
});

describe('the user column where Apps Script hides the email', () => {
  it('is left empty, and the push, its statuses and its History rows are written as usual', () => {
    const {rt, emulator, ids, cap} = budgetsPulled(2, {hideEmail: true});
    cap(ids[0], '150');
    const pushed = rt.call('pushBudgets') as {
      ok: number;
      message: string;
      changeId: string;
    };
    expect(pushed.ok).toBe(1);
    expect(pushed.message).toBe(
      '1 OK, 0 invalid, 0 error, 1 unchanged budget row (main account).',
    );
    expect(
      recordsOf(rt, 'Budgets').find(r => r.offer_id === ids[0]),
    ).toMatchObject({sync_status: 'OK'});
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('150');
    expect(recordsOf(rt, 'History')).toEqual([
      expect.objectContaining({
        change_id: pushed.changeId,
        account: '(main account)',
        user: '',
        record: String(ids[0]),
        field: 'daily_cap [ALL]',
        outcome: 'OK',
      }),
    ]);
    expect(
      (rt.call('listChanges') as {runs: Array<{user: string}>}).runs,
    ).toEqual([expect.objectContaining({user: ''})]);
  });
});
