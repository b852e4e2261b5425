/**
 * Issue 14, "Done when": the History sheet and revert, as the built dist/Code.js runs them in
 * the local Apps Script runtime against the Open API emulator.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  budgetsPulled,
  capChangedOnServer,
  splitPushed,
} from '../support/history';
import {recordsOf, sheetOf, typeInto, valuesOf} from '../support/offer-desk';

const HEADERS = [
  'time',
  'change_id',
  'job',
  'account',
  'user',
  'sheet',
  'record',
  'field',
  'before',
  'after',
  'outcome',
  'message',
];

interface Summary {
  message: string;
  ok: number;
  edited?: number;
  conflict?: number;
  changeId?: string;
  problems: Array<{row: number; status: string; message: string}>;
}

/** Offers delivering to US,GB with one ALL budget each, maintained by ADV, pulled. */
const pulled = (offers: number) => budgetsPulled(offers, {}, 'US,GB');

const puts = (emulator: Emulator) =>
  emulator.requests.filter(r => r.method === 'PUT' || r.method === 'POST');

/** History data rows as objects, times as ms. */
function history(rt: Runtime): Array<Record<string, unknown>> {
  return recordsOf(rt, 'History').map(r => ({
    ...r,
    time: r.time instanceof Date ? r.time.getTime() : r.time,
  }));
}

/** Counts setValues on the History sheet from now on. */
function countHistoryWrites(rt: Runtime): () => number {
  const sheet = sheetOf(rt, 'History');
  let writes = 0;
  const getRange = sheet.getRange.bind(sheet) as (...a: unknown[]) => {
    setValues: (v: unknown) => unknown;
  };
  (sheet as unknown as {getRange: unknown}).getRange = (...args: unknown[]) => {
    const range = getRange(...args);
    const setValues = range.setValues.bind(range);
    range.setValues = (v: unknown) => {
      writes++;
      return setValues(v);
    };
    return range;
  };
  return () => writes;
}

describe('History of a budget push, and its revert', () => {
  it('a push of 50 budget edits appends exactly its 50 History rows in one block; revert puts the 50 before values back as EDITED without sending; a push restores the server exactly', () => {
    const {rt, emulator, ids, rowOf, budget} = pulled(60);
    // A first push makes the History sheet, so the second one's writes can be counted.
    typeInto(rt, 'Budgets', rowOf(ids[59]), 'total_budget', '2000');
    rt.spreadsheet.setActiveSheet(sheetOf(rt, 'Budgets'));
    rt.call('pushBudgets');
    expect(history(rt)).toHaveLength(1);
    // Made in the background: the user stays on the sheet they pushed from.
    expect(rt.spreadsheet.getActiveSheet().getName()).toBe('Budgets');
    const writes = countHistoryWrites(rt);

    const edited = ids.slice(0, 50);
    const server = new Map(
      edited.map(id => [id, structuredClone(emulator.offerView(id)!.budget)]),
    );
    edited.forEach((id, k) =>
      typeInto(rt, 'Budgets', rowOf(id), 'daily_cap', String(101 + k)),
    );
    const pushed = rt.call('pushBudgets') as Summary;
    expect(pushed.ok).toBe(50);
    expect(pushed.changeId).toMatch(/^\d{8}-\d{6}-[0-9a-z]{4}$/);
    expect(writes()).toBe(1);

    expect(valuesOf(rt, 'History')[0]).toEqual(HEADERS);
    const rows = history(rt).slice(1);
    expect(rows).toEqual(
      edited.map((id, k) => ({
        time: rows[0].time,
        change_id: pushed.changeId,
        job: 'pushBudgets',
        account: '(main account)',
        user: 'user@example.com',
        sheet: 'Budgets',
        record: String(id),
        field: 'daily_cap [ALL]',
        before: '100',
        after: String(101 + k),
        outcome: 'OK',
        message: `Pushed the budget of offer ${id} (1 group).`,
      })),
    );
    // One time for the run: when its answers arrived, before the push returned.
    expect(rows[0].time).toBeLessThanOrEqual(rt.clock.now());
    expect(rows[0].time).toBeGreaterThan(rt.clock.now() - 60_000);

    emulator.clearRequests();
    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(emulator.requests).toEqual([]);
    expect(reverted.edited).toBe(50);
    expect(reverted.conflict).toBe(0);
    expect(reverted.message).toBe(
      '50 rows put back as EDITED: preview and push to send them. Nothing was sent.',
    );
    edited.forEach((id, k) => {
      const row = budget(id);
      expect(row.daily_cap).toBe(100);
      expect(row.sync_status).toBe('EDITED');
      expect(row.sync_message).toBe(
        `Reverts change ${pushed.changeId} (daily_cap [ALL]: ${101 + k} back to 100): not pushed yet. Preview, then push to send it.`,
      );
    });
    // Nothing else moved: the offer pushed before keeps its own row.
    expect(budget(ids[59]).total_budget).toBe(2000);

    const back = rt.call('pushBudgets') as Summary;
    expect(back.ok).toBe(50);
    expect(puts(emulator)).toHaveLength(50);
    for (const id of edited)
      expect(emulator.offerView(id)!.budget).toEqual(server.get(id));
    // The push back is a change of its own, revertible in turn.
    const again = history(rt).filter(r => r.change_id === back.changeId);
    expect(again).toHaveLength(50);
    expect(again[0]).toMatchObject({before: '101', after: '100'});

    // Reverting the same change again finds nothing to put back.
    emulator.clearRequests();
    const twice = rt.call('revertChange', pushed.changeId) as Summary;
    expect(twice.message).toBe(
      'Nothing put back; 50 records needed nothing. Nothing was sent.',
    );
    expect(twice.conflict).toBe(0);
    expect(emulator.requests).toEqual([]);
  });

  it('times every row of a change by the second its run started, over batches too', () => {
    const {rt, ids, rowOf} = pulled(120);
    ids.forEach(id => typeInto(rt, 'Budgets', rowOf(id), 'daily_cap', '150'));
    const pushed = rt.call('pushBudgets') as Summary;
    expect(pushed.ok).toBe(120);
    // fetchAll batches of 100, each appended as it was answered, under one time and id.
    const times = history(rt).map(r => r.time as number);
    expect(new Set(times).size).toBe(1);
    expect(times[0] % 1000).toBe(0);
    expect(new Set(history(rt).map(r => r.change_id)).size).toBe(1);
  });

  it('a record the server changed since the change becomes CONFLICT, untouched; the others are put back', () => {
    const {rt, emulator, ids, rowOf, budget} = pulled(5);
    ids.forEach(id => typeInto(rt, 'Budgets', rowOf(id), 'daily_cap', '150'));
    const pushed = rt.call('pushBudgets') as Summary;
    capChangedOnServer(emulator, ids[0], '999');
    rt.call('refreshOffers');

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.edited).toBe(4);
    expect(reverted.conflict).toBe(1);
    const conflict = budget(ids[0]);
    expect(conflict.daily_cap).toBe(999);
    expect(conflict.sync_status).toBe('CONFLICT');
    expect(conflict.sync_message).toBe(
      `Not reverted: the server changed daily_cap [ALL] of offer_id ${ids[0]} since change ${pushed.changeId} (as last refreshed). Your rows are unchanged; edit them by hand if you still want the old values.`,
    );
    expect(reverted.problems).toEqual([
      {
        sheet: 'Budgets',
        row: rowOf(ids[0]),
        status: 'CONFLICT',
        message: conflict.sync_message,
      },
    ]);
    for (const id of ids.slice(1))
      expect(budget(id)).toMatchObject({
        daily_cap: 100,
        sync_status: 'EDITED',
      });

    emulator.clearRequests();
    rt.call('pushBudgets');
    expect(puts(emulator).map(r => r.body)).toHaveLength(4);
    expect(emulator.offerView(ids[0])!.budget).toEqual([
      expect.objectContaining({daily_cap: '999'}),
    ]);
  });

  it('a row with edits not pushed yet is not overwritten: CONFLICT, and the edit stays', () => {
    const {rt, ids, rowOf, budget} = pulled(2);
    typeInto(rt, 'Budgets', rowOf(ids[0]), 'daily_cap', '150');
    const pushed = rt.call('pushBudgets') as Summary;
    typeInto(rt, 'Budgets', rowOf(ids[0]), 'daily_cap', '175');

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.edited).toBe(0);
    expect(budget(ids[0])).toMatchObject({
      daily_cap: 175,
      sync_status: 'CONFLICT',
      sync_message: `Not reverted: offer_id ${ids[0]} has edits not pushed yet, which reverting change ${pushed.changeId} would overwrite. Push or undo them, then revert again.`,
    });
  });

  it('a value typed while the revert runs is kept, and the summary says so', () => {
    const {rt, ids, rowOf, budget} = pulled(2);
    typeInto(rt, 'Budgets', rowOf(ids[0]), 'daily_cap', '150');
    const pushed = rt.call('pushBudgets') as Summary;
    // Once the revert has read Budgets, someone types over the cell it puts 100 back into.
    rt.collaborator.afterRead('Budgets', () =>
      typeInto(rt, 'Budgets', rowOf(ids[0]), 'daily_cap', '175'),
    );

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;

    expect(budget(ids[0]).daily_cap).toBe(175);
    expect(reverted.message).toContain(
      `1 row of Budgets kept what someone typed into it while the revert ran, instead of the value it put back: check it, then revert ${pushed.changeId} again if you still want it.`,
    );
  });

  it('a budget split into per-geo groups is reverted to its one ALL group, and pushed back exactly', () => {
    const {rt, emulator, ids, rowOf} = pulled(3);
    const [id] = ids;
    const before = structuredClone(emulator.offerView(id)!.budget);
    const row = rowOf(id);
    const pushed = splitPushed(rt, id, row);
    expect(pushed.ok).toBe(2);
    expect(
      history(rt).map(r => [r.record, r.field, r.before, r.after, r.outcome]),
    ).toEqual([
      [String(id), 'country_code [ALL]', 'ALL', '', 'OK'],
      [String(id), 'daily_cap_type [ALL]', 'BUDGET', '', 'OK'],
      [String(id), 'daily_cap [ALL]', '100', '', 'OK'],
      [String(id), 'total_budget [ALL]', '1000', '', 'OK'],
      [String(id), 'country_code [GB]', '', 'GB', 'OK'],
      [String(id), 'daily_cap_type [GB]', '', 'BUDGET', 'OK'],
      [String(id), 'daily_cap [GB]', '', '70', 'OK'],
      [String(id), 'total_budget [GB]', '', '500', 'OK'],
      [String(id), 'country_code [US]', '', 'US', 'OK'],
      [String(id), 'daily_cap_type [US]', '', 'BUDGET', 'OK'],
      [String(id), 'daily_cap [US]', '', '60', 'OK'],
      [String(id), 'total_budget [US]', '', '1000', 'OK'],
    ]);

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.edited).toBe(1);
    const rows = recordsOf(rt, 'Budgets').filter(r => r.offer_id === id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      country_code: 'ALL',
      daily_cap_type: 'BUDGET',
      daily_cap: 100,
      total_budget: 1000,
      sync_status: 'EDITED',
    });
    expect(recordsOf(rt, 'Budgets').map(r => r.offer_id)).toEqual(ids);

    rt.call('pushBudgets');
    expect(emulator.offerView(id)!.budget).toEqual(before);
  });

  it('an unknown change id changes nothing and says where to look', () => {
    const {rt} = pulled(1);
    expect(() => rt.call('revertChange', '20260101-000000-zzzz')).toThrow(
      'Change 20260101-000000-zzzz is not in the History sheet: check the id (the sidebar lists the last runs), or it was moved to a History archive sheet. Nothing was changed.',
    );
  });
});
