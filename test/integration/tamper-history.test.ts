/**
 * History rows a user copied, on the built dist/Code.js in the local runtime against the
 * emulator: revert reads a copy whole as the one row it is, and a copy typed over as what it
 * is, never as the server having changed.
 */
import type {Runtime} from '../../local/runtime';
import {budgetsPulled} from '../support/history';
import {recordsOf, sheetOf, typeInto} from '../support/offer-desk';

/** Copies History row `from` (1-based) onto row `to`. */
function copyRow(rt: Runtime, from: number, to: number): void {
  const history = sheetOf(rt, 'History');
  const cells = history.getRange(from, 1, 1, 12).getValues();
  history.getRange(to, 1, 1, 12).setValues(cells);
}

const budgets = (rt: Runtime) =>
  recordsOf(rt, 'Budgets').map(r => [
    r.offer_id,
    r.daily_cap,
    r.sync_status,
    r.sync_message,
  ]);

describe('revertChange over History rows a user copied', () => {
  it('a copy whole: reverts as if it were not there', () => {
    const d = budgetsPulled(2);
    d.cap(d.ids[0], '200');
    const {changeId} = d.rt.call('pushBudgets') as {changeId: string};
    copyRow(d.rt, 2, 3);

    d.rt.call('revertChange', changeId);

    expect(budgets(d.rt)[0]).toEqual([
      d.ids[0],
      100,
      'EDITED',
      `Reverts change ${changeId} (daily_cap [ALL]: 200 back to 100): not pushed yet. Preview, then push to send it.`,
    ]);
  });

  it('a copy typed over: says History holds two rows for the field, puts nothing back for it, and the other record is reverted', () => {
    const d = budgetsPulled(2);
    d.cap(d.ids[0], '200');
    d.cap(d.ids[1], '300');
    const {changeId} = d.rt.call('pushBudgets') as {changeId: string};
    const row = recordsOf(d.rt, 'History').findIndex(
      r => r.record === String(d.ids[0]),
    );
    copyRow(d.rt, row + 2, 4);
    typeInto(d.rt, 'History', 4, 'before', '150');
    d.emulator.clearRequests();

    d.rt.call('revertChange', changeId);

    expect(d.emulator.requests).toEqual([]);
    expect(budgets(d.rt)).toEqual([
      [
        d.ids[0],
        200,
        'OK',
        `Not reverted: History holds two different rows for daily_cap [ALL] of offer_id ${d.ids[0]} in change ${changeId} (a row copied or typed over): delete the one Offer Desk did not write, then revert again. Your rows are unchanged.`,
      ],
      [
        d.ids[1],
        100,
        'EDITED',
        `Reverts change ${changeId} (daily_cap [ALL]: 300 back to 100): not pushed yet. Preview, then push to send it.`,
      ],
    ]);
  });
});
