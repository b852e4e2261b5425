import {recentChanges} from '../../../src/jobs/history/history-list';
import type {Platform} from '../../../src/platform/ports';
import {
  HistoryChange,
  appendHistory,
  readChange,
} from '../../../src/sheets/history';
import {MemoryStore} from '../../support/fakes';
import {MemoryWorkbook} from '../../support/workbook';

const AT = new Date(Date.UTC(2026, 10, 25, 23, 30, 0));

function run(changeId: string) {
  return {
    changeId,
    job: 'pushBudgets',
    account: 'main account',
    user: 'ops@example.com',
    at: AT,
  };
}

function changes(n: number): HistoryChange[] {
  return Array.from({length: n}, (_, k) => ({
    sheet: 'Budgets',
    record: String(1000 + k),
    field: 'daily_cap [ALL]',
    before: '100',
    after: String(150 + k),
    outcome: 'OK' as const,
    message: 'Pushed.',
  }));
}

/** A blank row inserted in History 10 rows above its last. */
function insertBlank(book: MemoryWorkbook): void {
  const sheet = book.sheet('History')!;
  const grid = sheet.grid();
  // A blank row inserted among c1's rows: no run of the add-on's, and no end of one.
  const at = grid.length - 10;
  const blank = grid[0].map(() => '');
  const rows = [...grid.slice(1, at), blank, ...grid.slice(at)];
  sheet.ensureSize(rows.length + 1, grid[0].length);
  sheet.write(2, 1, rows);
}

/** History and the user's properties: what the readers of History ask a platform for. */
function platformOf(book: MemoryWorkbook): Platform {
  return {
    workbook: () => book,
    userProperties: new MemoryStore(),
    documentId: () => 'doc',
  } as unknown as Platform;
}

describe('reading History with a blank row the user inserted inside a run of 2,500 rows', () => {
  it('readChange reads every row of the run', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c0'), changes(3));
    appendHistory(book, run('c1'), changes(2500));
    appendHistory(book, run('c2'), changes(2));
    insertBlank(book);

    const read = readChange(book, 'c1');
    expect(read).toHaveLength(2500);
    expect(read.map(r => r.record)).toEqual(changes(2500).map(c => c.record));
  });

  it('recentChanges counts every row of the oldest run it lists', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('r0'), changes(1));
    appendHistory(book, run('r1'), changes(2500));
    for (let k = 2; k <= 20; k++) appendHistory(book, run(`r${k}`), changes(1));
    insertBlank(book);

    const {runs} = recentChanges(platformOf(book));
    expect(runs.map(r => r.changeId)).toEqual(
      Array.from({length: 20}, (_, k) => `r${20 - k}`),
    );
    expect(runs[19]).toMatchObject({ok: 2500, records: 2500, more: 2495});
  });
});
