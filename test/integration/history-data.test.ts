/**
 * Issue 19, cases 2, 3 and 4: History is data, not row order. A renamed column, a sorted
 * History and the user's own columns, as the built dist/Code.js meets them in the local Apps
 * Script runtime against the Open API emulator.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {budgetsPulled, capSent, clickUrlPushed} from '../support/history';
import {recordsOf, sheetOf, valuesOf} from '../support/offer-desk';

interface Summary {
  message: string;
  ok: number;
  edited?: number;
  changeId?: string;
}

interface HistoryView {
  runs: Array<{changeId: string; at: number}>;
}

const writes = (emulator: Emulator) =>
  emulator.requests
    .filter(r => r.method === 'PUT' || r.method === 'POST')
    .map(r => [r.method, r.path.replace('/api/open/v3/', ''), r.body]);

/** Renames a History header, as a user typing over row 1 would. */
function renameHeader(rt: Runtime, from: string, to: string): void {
  const at = valuesOf(rt, 'History')[0].indexOf(from) + 1;
  sheetOf(rt, 'History').getRange(1, at).setValue(to);
}

/** Appends rows to History by header, as older runs would have left them. */
function addRows(rt: Runtime, rows: Array<Record<string, unknown>>): void {
  const sheet = sheetOf(rt, 'History');
  const headers = valuesOf(rt, 'History')[0].map(String);
  const first = sheet.getLastRow() + 1;
  sheet.insertRowsAfter(sheet.getMaxRows(), rows.length);
  sheet
    .getRange(first, 1, rows.length, headers.length)
    .setValues(rows.map(row => headers.map(h => row[h] ?? '')));
}

/** Sorts History's data rows by a column, as Data > Sort range would. */
function sortHistory(rt: Runtime, header: string, descending = false): void {
  const sheet = sheetOf(rt, 'History');
  const [headers, ...rows] = sheet.getDataRange().getValues() as unknown[][];
  const at = headers.indexOf(header);
  const key = (v: unknown) =>
    Object.prototype.toString.call(v) === '[object Date]'
      ? (v as Date).getTime()
      : String(v);
  rows.sort((a, b) => {
    const [x, y] = [key(a[at]), key(b[at])];
    const order = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -order : order;
  });
  sheet.getRange(2, 1, rows.length, headers.length).setValues(rows);
}

const oldRun = (changeId: string, record: string, day = 1) => ({
  time: new Date(Date.UTC(2025, 0, day)),
  change_id: changeId,
  job: 'pushBudgets',
  account: 'main account',
  user: 'ops@example.com',
  sheet: 'Budgets',
  record,
  field: 'daily_cap [ALL]',
  before: '100',
  after: '150',
  outcome: 'OK',
  message: 'Pushed.',
});

describe('a History column renamed: revert stops and names it', () => {
  it('before renamed: revert of a tracking push stages nothing, and the push after sends nothing', () => {
    const {rt, emulator, offer, id, pushed} = clickUrlPushed();
    expect(pushed.ok).toBe(1);
    renameHeader(rt, 'before', 'was');
    const cells = valuesOf(rt, 'Offers');

    expect(() => rt.call('revertChange', pushed.changeId)).toThrow(
      'Row 1 of the History sheet has no before header: Offer Desk reads that column to list and revert changes, and would take it as empty. Name the column before again (undo the rename or the deletion), then try again',
    );
    expect(valuesOf(rt, 'Offers')).toEqual(cells);
    expect(offer(id)).toMatchObject({
      click_url: 'https://t.example.test/new',
      sync_status: 'OK',
    });
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({ok: 0});
    expect(writes(emulator)).toEqual([]);
    expect(emulator.offerView(id)!.click_url).toBe(
      'https://t.example.test/new',
    );

    // Named again, the revert goes through.
    renameHeader(rt, 'was', 'before');
    rt.call('revertChange', pushed.changeId);
    expect(offer(id)).toMatchObject({
      click_url: 'https://t.example.test/old/0',
      sync_status: 'EDITED',
    });
  });

  it('sheet renamed: revert of a budget push names the column instead of calling the records created or uploaded', () => {
    const {rt, ids, cap, budget} = budgetsPulled(1);
    cap(ids[0], '150');
    const pushed = rt.call('pushBudgets') as Summary;
    renameHeader(rt, 'sheet', 'tab');
    expect(() => rt.call('revertChange', pushed.changeId)).toThrow(
      'Row 1 of the History sheet has no sheet header',
    );
    expect(() => rt.call('listChanges')).toThrow(
      'Row 1 of the History sheet has no sheet header',
    );
    expect(budget(ids[0])).toMatchObject({daily_cap: 150, sync_status: 'OK'});
  });
});

describe('a sorted History is read by change_id and time', () => {
  it('sorted by record past 2,000 rows: revert puts back all 3 records of the change, and the push after sends the 3', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(3);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    const pushed = rt.call('pushBudgets') as Summary;
    expect(pushed.ok).toBe(3);
    // 3,000 rows of an older run whose records sort between the change's.
    addRows(
      rt,
      Array.from({length: 3000}, (_, k) =>
        oldRun('older-run', `${ids[k < 1500 ? 0 : 1]}a${k}`),
      ),
    );
    sortHistory(rt, 'record');
    const order = recordsOf(rt, 'History').map(r => String(r.record));
    // The first record of the change lies 3,001 rows above the last row.
    expect(order.indexOf(String(ids[0]))).toBe(0);
    expect(order.indexOf(String(ids[2]))).toBe(3002);

    const reverted = rt.call('revertChange', pushed.changeId) as Summary;
    expect(reverted.edited).toBe(3);
    expect(reverted.message).toBe(
      '3 rows put back as EDITED: preview and push to send them. Nothing was sent.',
    );
    for (const id of ids)
      expect(budget(id)).toMatchObject({daily_cap: 100, sync_status: 'EDITED'});
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({ok: 3});
    expect(writes(emulator)).toEqual(
      ids.map(id => ['PUT', 'offer/budget', capSent(id, 100)]),
    );
  });

  it('sorted newest first: the sidebar lists the 20 newest runs by time, the newest first', () => {
    const {rt, ids, cap} = budgetsPulled(1);
    cap(ids[0], '150');
    const pushed = rt.call('pushBudgets') as Summary;
    addRows(
      rt,
      Array.from({length: 30}, (_, k) => oldRun(`old-${k}`, '1', k + 1)),
    );
    sortHistory(rt, 'time', true);

    const {runs} = rt.call('listChanges') as HistoryView;
    expect(runs.map(r => r.changeId)).toEqual([
      pushed.changeId,
      ...Array.from({length: 19}, (_, k) => `old-${29 - k}`),
    ]);
  });

  it("sorted newest first: archiving moves the oldest run by time, whole rows with the user's own column, and the newest stays revertible", () => {
    const {rt, ids, cap, budget} = budgetsPulled(3);
    rt.call('setHistoryLimit', 1000);
    cap(ids[0], '150');
    const first = rt.call('pushBudgets') as Summary;
    addRows(
      rt,
      Array.from({length: 1000}, (_, k) => oldRun('older-run', String(k))),
    );
    // A ticket number typed beside the oldest run's first row, under a header of the user's.
    const history = sheetOf(rt, 'History');
    const width = valuesOf(rt, 'History')[0].length;
    history.getRange(1, width + 1).setValue('ticket');
    history.getRange(3, width + 1).setValue('OPS-42');
    sortHistory(rt, 'time', true);

    cap(ids[1], '160');
    const second = rt.call('pushBudgets') as Summary;
    const archive = `History archive ${new Date(rt.clock.now()).toISOString().slice(0, 10)}`;
    expect(second.message).toContain(
      `History was past 1000 rows: its 1000 oldest rows moved to "${archive}".`,
    );
    expect(recordsOf(rt, 'History').map(r => r.change_id)).toEqual([
      first.changeId,
      second.changeId,
    ]);
    const archived = recordsOf(rt, archive);
    expect(archived).toHaveLength(1000);
    expect(archived.filter(r => r.ticket !== '')).toEqual([
      expect.objectContaining({change_id: 'older-run', ticket: 'OPS-42'}),
    ]);
    // The newest run is still in History: it can be reverted.
    const reverted = rt.call('revertChange', second.changeId) as Summary;
    expect(reverted.edited).toBe(1);
    expect(budget(ids[1])).toMatchObject({
      daily_cap: 100,
      sync_status: 'EDITED',
    });
  });
});

describe('reading a History of 50,000 rows', () => {
  it('revert and the sidebar list read the key columns whole and the rows they need only: bounded and cheap', () => {
    const {rt, ids, cap} = budgetsPulled(3);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    const pushed = rt.call('pushBudgets') as Summary;
    addRows(
      rt,
      Array.from({length: 49997}, (_, k) =>
        oldRun(`old-${Math.floor(k / 10)}`, `${ids[k % 3]}b${k}`),
      ),
    );
    sortHistory(rt, 'record');

    rt.meter.reset();
    expect((rt.call('revertChange', pushed.changeId) as Summary).edited).toBe(
      3,
    );
    const revert = rt.meter.snapshot();
    rt.meter.reset();
    const {runs} = rt.call('listChanges') as HistoryView;
    expect(runs[0].changeId).toBe(pushed.changeId);
    const list = rt.meter.snapshot();

    // Revert: the change_id column (50,000 cells), 3 rows of History, the Budgets sheet and
    // its writes: about 1.6 s of simulated time, 24 round trips.
    expect(revert.counts['SpreadsheetApp.cellsRead']).toBeLessThan(51000);
    expect(revert.elapsedMs).toBeLessThan(2000);
    // The list: time and change_id in one read (100,000 cells), then the rows of the 20 runs
    // (200 rows): about 1.5 s, 12 round trips.
    expect(list.counts['SpreadsheetApp.cellsRead']).toBeLessThan(103000);
    expect(list.elapsedMs).toBeLessThan(2000);
  });
});
