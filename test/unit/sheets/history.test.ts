import {
  HistoryChange,
  appendHistory,
  readChange,
  readRecentRuns,
} from '../../../src/sheets/history';
import {HISTORY} from '../../../src/sheets/schemas/history';
import {DATE_TIME_FORMAT, TEXT_FORMAT} from '../../../src/sheets/schema';
import {MemorySheet, MemoryWorkbook} from '../../support/workbook';

const AT = new Date(Date.UTC(2026, 10, 25, 23, 30, 0));

function run(changeId: string, at = AT) {
  return {
    changeId,
    job: 'pushBudgets',
    account: 'main account',
    user: 'ops@example.com',
    at,
  };
}

function changes(n: number, after = (k: number) => String(150 + k)) {
  return Array.from({length: n}, (_, k): HistoryChange => ({
    sheet: 'Budgets',
    record: String(1000 + k),
    field: 'daily_cap [ALL]',
    before: '100',
    after: after(k),
    outcome: 'OK',
    message: 'Pushed.',
  }));
}

describe('appendHistory', () => {
  it('makes the sheet with its headers, frozen, protected whole with a warning, text columns as plain text', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c1'), changes(2));
    const sheet = book.sheet('History')!;
    expect(book.grid('History')[0]).toEqual(HISTORY.columns.map(c => c.header));
    expect(sheet.frozenRows).toBe(1);
    expect(sheet.sheetProtection).toBe(
      "The History sheet is Offer Desk's record of what it sent: revert a change from the sidebar instead of editing it here.",
    );
    expect(sheet.cell(2, 1).format).toBe(DATE_TIME_FORMAT);
    expect(sheet.cell(2, 9).format).toBe(TEXT_FORMAT);
    expect(book.records('History')).toEqual([
      {
        time: AT,
        change_id: 'c1',
        job: 'pushBudgets',
        account: '(main account)',
        user: 'ops@example.com',
        sheet: 'Budgets',
        record: '1000',
        field: 'daily_cap [ALL]',
        before: '100',
        after: '150',
        outcome: 'OK',
        message: 'Pushed.',
      },
      expect.objectContaining({record: '1001', after: '151'}),
    ]);
  });

  it('keeps a value that looks like a formula, a number or a date as the text that was sent', () => {
    const book = new MemoryWorkbook();
    const odd = ['=1+1', '007', '2026-01-02', 'TRUE'];
    appendHistory(
      book,
      run('c1'),
      changes(4, k => odd[k]),
    );
    expect(book.records('History').map(r => r.after)).toEqual(odd);
    expect(book.sheet('History')!.readFormulas(2, 10, 4, 1).flat()).toEqual([
      '',
      '',
      '',
      '',
    ]);
  });

  it('appends each run as one block below the last, in one write', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c1'), changes(3));
    const sheet = book.sheet('History')!;
    sheet.calls.length = 0;
    appendHistory(book, run('c2'), changes(2));
    expect(sheet.calls.filter(c => c === 'write')).toEqual(['write']);
    expect(book.records('History').map(r => r.change_id)).toEqual([
      'c1',
      'c1',
      'c1',
      'c2',
      'c2',
    ]);
  });

  it('finds its columns by header: a column the user moved or deleted, and their own, are respected', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c1'), changes(1));
    const sheet = book.sheet('History')!;
    // The user swaps before and after, drops message and adds a column of their own.
    sheet.type(1, 9, 'after');
    sheet.type(1, 10, 'before');
    sheet.type(1, 12, 'my notes');
    sheet.type(2, 12, 'checked');
    appendHistory(book, run('c2'), changes(1));
    const rows = book.records('History');
    expect(rows[1]).toMatchObject({
      before: '100',
      after: '150',
      'my notes': '',
      message: 'Pushed.',
    });
    expect(rows[0]['my notes']).toBe('checked');
    expect(book.grid('History')[0][12]).toBe('message');
  });

  it("archives the oldest runs by time whatever the sort, whole rows under their headers, the user's own columns included", () => {
    const book = new MemoryWorkbook(60);
    appendHistory(book, run('c1', at(1)), changes(40), 100);
    appendHistory(book, run('c2', at(2)), changes(40), 100);
    const sheet = book.sheet('History')!;
    sheet.type(1, 13, 'ticket');
    sheet.type(2, 13, 'T-1');
    sheet.type(42, 13, 'T-2');
    // Newest first: c2's rows above c1's.
    sortRows(
      sheet,
      (a, b) => (b[0] as Date).getTime() - (a[0] as Date).getTime(),
    );

    const result = appendHistory(book, run('c3', at(3)), changes(30), 100);
    expect(result).toEqual({
      archived: {sheet: 'History archive 2026-11-25', rows: 40},
    });
    const kept = book.records('History');
    expect(kept.map(r => r.change_id)).toEqual([
      ...Array(40).fill('c2'),
      ...Array(30).fill('c3'),
    ]);
    expect(kept[0].ticket).toBe('T-2');
    const archive = book.records('History archive 2026-11-25');
    expect(archive.map(r => r.change_id)).toEqual(Array(40).fill('c1'));
    expect(archive[0]).toMatchObject({record: '1000', ticket: 'T-1'});
    expect(book.grid('History archive 2026-11-25')[0]).toEqual([
      ...HISTORY.columns.map(c => c.header),
      'ticket',
    ]);
  });

  it('past the limit moves the oldest whole runs to the archive sheet of the day, a tenth of the limit more than needed', () => {
    const book = new MemoryWorkbook(60); // the spreadsheet's day is already the 26th
    appendHistory(book, run('c1'), changes(40), 100);
    appendHistory(book, run('c2'), changes(40), 100);
    const result = appendHistory(book, run('c3'), changes(30), 100);
    // 110 rows would pass 100: 10 + 10 more, rounded up to the end of run c1.
    expect(result).toEqual({
      archived: {sheet: 'History archive 2026-11-26', rows: 40},
    });
    expect(book.records('History').map(r => r.change_id)).toEqual([
      ...Array(40).fill('c2'),
      ...Array(30).fill('c3'),
    ]);
    const archive = book.records('History archive 2026-11-26');
    expect(archive).toHaveLength(40);
    expect(archive[0]).toMatchObject({
      change_id: 'c1',
      record: '1000',
      time: AT,
    });
    expect(
      book.sheet('History archive 2026-11-26')!.sheetProtection,
    ).toBeTruthy();
  });

  it('a run bigger than the limit is kept whole; everything older is archived', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c1'), changes(5), 10);
    const result = appendHistory(book, run('c2'), changes(12), 10);
    expect(result.archived?.rows).toBe(5);
    expect(book.records('History')).toHaveLength(12);
  });

  it('bounds a text longer than a cell takes, saying how much was cut', () => {
    const book = new MemoryWorkbook();
    const long = 'x'.repeat(60000);
    appendHistory(book, run('c1'), [{...changes(1)[0], message: long}]);
    expect(book.records('History')[0].message).toBe(
      `${'x'.repeat(45000)}… (15000 more characters not shown)`,
    );
  });

  it('writes nothing for a run that sent nothing', () => {
    const book = new MemoryWorkbook();
    expect(appendHistory(book, run('c1'), [])).toEqual({});
    expect(book.sheet('History')).toBeNull();
  });
});

/** The data rows reordered as a user's sort would leave them (the header row stays). */
function sortRows(
  sheet: MemorySheet,
  order: (a: unknown[], b: unknown[]) => number,
): void {
  const [, ...rows] = sheet.grid();
  sheet.write(2, 1, [...rows].sort(order));
}

/** Counts the calls and the cells of the sheet's reads from now on. */
function meterReads(sheet: MemorySheet) {
  const meter = {calls: 0, cells: 0};
  const read = sheet.readBlock.bind(sheet);
  sheet.readBlock = (row, column, rows, columns) => {
    meter.calls++;
    meter.cells += rows * columns;
    return read(row, column, rows, columns);
  };
  return meter;
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 10, minute));

describe('readChange', () => {
  it('finds every row of a change wherever a sort put them, reading the change_id column and the rows it needs only', () => {
    const book = new MemoryWorkbook();
    // 20,000 rows: a big run, then the change of 3 records, then more runs.
    appendHistory(book, run('old', at(0)), changes(19000));
    appendHistory(book, run('c3', at(1)), changes(3));
    for (let k = 0; k < 997; k++)
      appendHistory(book, run(`n${k}`, at(2)), changes(1));
    const sheet = book.sheet('History')!;
    // Sorted by record: c3's rows (records 1000..1002) lie among the big run's.
    sortRows(sheet, (a, b) => Number(a[6]) - Number(b[6]));
    const meter = meterReads(sheet);

    const rows = readChange(book, 'c3');
    expect(rows.map(r => [r.change_id, r.record, r.after])).toEqual([
      ['c3', '1000', '150'],
      ['c3', '1001', '151'],
      ['c3', '1002', '152'],
    ]);
    // Row 1, the change_id column, then two blocks: record 1000 of c3 lies 997 rows (of the
    // n runs) above record 1001, too far to read through, 1001 and 1002 two rows apart.
    expect(meter.calls).toBe(4);
    expect(meter.cells).toBe(26 + 20000 + 12 * 1 + 12 * 3);
  });

  it('answers nothing where there is no History sheet', () => {
    expect(readChange(new MemoryWorkbook(), 'c1')).toEqual([]);
  });

  it('stops with a message naming a column it needs that was renamed, instead of reading it as empty', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c1'), changes(1));
    book.sheet('History')!.type(1, 9, 'before (old)');
    const renamed =
      'Row 1 of the History sheet has no before header: Offer Desk reads that column to list and revert changes, and would take it as empty. Name the column before again (undo the rename or the deletion), then try again';
    expect(() => readChange(book, 'c1')).toThrow(renamed);
    expect(() => readRecentRuns(book, 20)).toThrow(renamed);
    // Nor is a run appended beside it, under a before column put back empty for the older rows.
    expect(() => appendHistory(book, run('c2'), changes(1))).toThrow(renamed);
    expect(book.grid('History')).toHaveLength(2);
  });
});

describe('readRecentRuns', () => {
  it('answers the newest runs by time, whatever the sort, with every row of each', () => {
    const book = new MemoryWorkbook();
    for (let k = 0; k < 30; k++)
      appendHistory(book, run(`r${k}`, at(k)), changes(2));
    const sheet = book.sheet('History')!;
    // Newest first: the time column sorted descending.
    sortRows(
      sheet,
      (a, b) => (b[0] as Date).getTime() - (a[0] as Date).getTime(),
    );
    const meter = meterReads(sheet);

    const runs = readRecentRuns(book, 20);
    expect(runs.map(r => r[0].change_id)).toEqual(
      Array.from({length: 20}, (_, k) => `r${29 - k}`),
    );
    expect(runs.every(r => r.length === 2)).toBe(true);
    // Row 1, time and change_id side by side in one read, the rows of the 20 runs in one.
    expect(meter.calls).toBe(3);
  });
});
