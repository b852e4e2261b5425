/**
 * Issue 14: a History sheet the add-on cannot write never costs a push its outcome: the push
 * sends, its statuses are written, and its summary says where the outcomes are. The built
 * dist/Code.js in the local Apps Script runtime against the Open API emulator.
 */
import {budgetsPulled} from '../support/history';
import {recordsOf, sheetOf} from '../support/offer-desk';

const LAYOUT =
  "Row 1 of the History sheet has no change_id header, so its rows are not Offer Desk's runs: if its header row was deleted, undo that; if the sheet is your own, rename it, and the next job makes a new History sheet";

interface Summary {
  ok: number;
  message: string;
  changeId?: string;
}

const cells = (rt: ReturnType<typeof budgetsPulled>['rt']) =>
  sheetOf(rt, 'History').getDataRange().getValues();

describe("a History sheet that is not the add-on's", () => {
  it("the user's own sheet named History: the push succeeds, nothing is written into it, and the summary says so", () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled();
    const own = rt.spreadsheet.insertSheet('History');
    own.getRange('A1:B3').setValues([
      ['Date', 'What we did'],
      ['week 1', 'launch'],
      ['week 2', 'more geos'],
    ]);
    const before = cells(rt);
    cap(ids[0], '150');

    const pushed = rt.call('pushBudgets') as Summary;
    expect(pushed.ok).toBe(1);
    expect(pushed.message).toBe(
      `1 OK, 0 invalid, 0 error, 1 unchanged budget row (main account). The History sheet could not be written (${LAYOUT}): this run's outcomes are in the rows' sync_message only.`,
    );
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('150');
    expect(budget(ids[0])).toMatchObject({
      sync_status: 'OK',
      sync_message: `Pushed the budget of offer ${ids[0]} (1 group).`,
    });
    expect(cells(rt)).toEqual(before);
    expect(own.getLastColumn()).toBe(2);
    expect(() => rt.call('listChanges')).toThrow(LAYOUT);

    // Renamed, it is left alone, and the next push makes the add-on's History.
    own.setName('Our notes');
    cap(ids[0], '160');
    const next = rt.call('pushBudgets') as Summary;
    expect(next.message).toBe(
      '1 OK, 0 invalid, 0 error, 1 unchanged budget row (main account).',
    );
    expect(recordsOf(rt, 'History')).toEqual([
      expect.objectContaining({
        change_id: next.changeId,
        field: 'daily_cap [ALL]',
        before: '150',
        after: '160',
      }),
    ]);
    expect(sheetOf(rt, 'Our notes').getDataRange().getValues()).toEqual(before);
  });

  it('its header row deleted: the older runs are not mistaken for headers, the push succeeds, revert says what to do', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled();
    cap(ids[0], '150');
    const first = rt.call('pushBudgets') as Summary;
    sheetOf(rt, 'History').deleteRow(1);
    const before = cells(rt);
    cap(ids[0], '160');

    const pushed = rt.call('pushBudgets') as Summary;
    expect(pushed.message).toBe(
      `1 OK, 0 invalid, 0 error, 1 unchanged budget row (main account). The History sheet could not be written (${LAYOUT}): this run's outcomes are in the rows' sync_message only.`,
    );
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('160');
    expect(budget(ids[0]).sync_status).toBe('OK');
    expect(cells(rt)).toEqual(before);
    expect(() => rt.call('revertChange', first.changeId)).toThrow(LAYOUT);
    expect(budget(ids[0])).toMatchObject({daily_cap: 160, sync_status: 'OK'});
  });
});

describe('a History past its size', () => {
  it('moves its oldest whole runs by time to the dated archive sheet through Apps Script, then appends the new run', () => {
    const {rt, ids, cap} = budgetsPulled(3);
    rt.call('setHistoryLimit', 1000);
    cap(ids[0], '150');
    const first = rt.call('pushBudgets') as Summary;
    // An older run of 1,000 rows, as earlier pushes would have left it.
    const history = sheetOf(rt, 'History');
    const headers = history.getRange(1, 1, 1, 12).getValues()[0] as string[];
    const old = Array.from({length: 1000}, (_, k) =>
      headers.map(h =>
        h === 'time'
          ? new Date(Date.UTC(2026, 0, 1))
          : h === 'change_id'
            ? 'older-run'
            : h === 'record'
              ? String(k)
              : 'x',
      ),
    );
    history.insertRowsAfter(history.getMaxRows(), 1000);
    history.getRange(3, 1, 1000, 12).setValues(old);

    cap(ids[1], '160');
    cap(ids[2], '170');
    const second = rt.call('pushBudgets') as Summary;
    const archive = `History archive ${new Date(rt.clock.now()).toISOString().slice(0, 10)}`;
    // 1,003 rows would pass 1,000: 3 + 100 more, as whole runs, the oldest by time: the older
    // run, although it lies below the first push's row.
    expect(second.message).toBe(
      `2 OK, 0 invalid, 0 error, 1 unchanged budget row (main account). History was past 1000 rows: its 1000 oldest rows moved to "${archive}".`,
    );
    expect(recordsOf(rt, 'History').map(r => r.change_id)).toEqual([
      first.changeId,
      second.changeId,
      second.changeId,
    ]);
    const archived = recordsOf(rt, archive);
    expect(archived).toHaveLength(1000);
    // Moved as they were, in their order (the test's rows went into cells of any format).
    expect(archived.map(r => [r.change_id, String(r.record)])).toEqual(
      Array.from({length: 1000}, (_, k) => ['older-run', String(k)]),
    );
    // The archive warns before edits, as History does.
    expect(
      rt.spreadsheet
        .sheet(archive)!
        .getProtections(rt.globals.SpreadsheetApp.ProtectionType.SHEET),
    ).toHaveLength(1);
  });
});
