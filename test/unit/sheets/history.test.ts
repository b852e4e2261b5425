import {
  HistoryChange,
  appendHistory,
  readHistoryBackwards,
} from '../../../src/sheets/history';
import {HISTORY} from '../../../src/sheets/schemas/history';
import {DATE_TIME_FORMAT, TEXT_FORMAT} from '../../../src/sheets/schema';
import {MemoryWorkbook} from '../../support/workbook';

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
        account: 'main account',
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

  it('writes nothing for a run that sent nothing', () => {
    const book = new MemoryWorkbook();
    expect(appendHistory(book, run('c1'), [])).toEqual({});
    expect(book.sheet('History')).toBeNull();
  });
});

describe('readHistoryBackwards', () => {
  it('reads from the newest row back, only as far as asked', () => {
    const book = new MemoryWorkbook();
    appendHistory(book, run('c1'), changes(2500));
    appendHistory(book, run('c2'), changes(3));
    const sheet = book.sheet('History')!;
    sheet.calls.length = 0;
    const rows = readHistoryBackwards(book, read => read.length > 0);
    expect(rows.slice(0, 3).map(r => r.change_id)).toEqual(['c2', 'c2', 'c2']);
    expect(rows).toHaveLength(2000);
    expect(sheet.calls.filter(c => c === 'readBlock')).toHaveLength(2);
  });

  it('answers nothing where there is no History sheet', () => {
    expect(readHistoryBackwards(new MemoryWorkbook(), () => false)).toEqual([]);
  });
});
