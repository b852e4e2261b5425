import {defineSchema} from '../../../src/sheets/schema';
import {StateBook, STATE_SHEET} from '../../../src/state/book';
import {CHUNK, chunks} from '../../../src/state/cells';
import {SheetLayoutError, openTable} from '../../../src/sheets/table';
import {recordKey} from '../../../src/sheets/accounts';
import {MemoryWorkbook} from '../../support/workbook';

interface Thing {
  id: number;
  label: string;
  amount: number;
}

const THINGS = defineSchema<Thing>({
  name: 'Things',
  id: 'id',
  sync: true,
  columns: [
    {header: 'id', type: 'integer', note: 'Id.'},
    {header: 'label', type: 'text', editable: true, note: 'Label.'},
    {
      header: 'amount',
      type: 'decimal',
      editable: true,
      open: true,
      note: 'Amount.',
    },
  ],
});

describe('openTable', () => {
  it('finds columns by header wherever the user moved them', () => {
    const book = new MemoryWorkbook();
    const sheet = book.insertSheet('Things');
    sheet.write(1, 1, [
      [
        'sync_status',
        'mine',
        'amount',
        'id',
        'label',
        'sync_message',
        'synced_at',
      ],
    ]);
    sheet.write(2, 1, [['', 'x', 5, 1, 'a', '', '']]);
    const table = openTable(book, THINGS, {create: false})!;
    expect([...table.position.entries()]).toEqual([
      ['sync_status', 0],
      ['mine', 1],
      ['amount', 2],
      ['id', 3],
      ['label', 4],
      ['sync_message', 5],
      ['synced_at', 6],
    ]);
    expect(table.values).toEqual([['', 'x', 5, 1, 'a', '', '']]);
  });

  it('never puts back an id column under rows, which could not be told from new records', () => {
    const book = new MemoryWorkbook();
    const sheet = book.insertSheet('Things');
    sheet.write(1, 1, [
      ['my id', 'label', 'amount', 'sync_status', 'sync_message', 'synced_at'],
      [1, 'a', 5, '', '', ''],
    ]);
    const refused = new SheetLayoutError(
      "The Things sheet has no id column: rows are matched with the API's records by it, so it cannot come back empty: restore the header text.",
    );
    expect(() => openTable(book, THINGS, {create: true})).toThrow(refused);
    expect(() => openTable(book, THINGS, {create: false})).toThrow(refused);
    expect(book.grid('Things')[0]).toEqual([
      'my id',
      'label',
      'amount',
      'sync_status',
      'sync_message',
      'synced_at',
    ]);
    sheet.clearContent(2, 1, 1, 6);
    expect(openTable(book, THINGS, {create: true})!.position.get('id')).toBe(6);
  });

  it('refuses, naming the column, when a push finds a header missing', () => {
    const book = new MemoryWorkbook();
    book
      .insertSheet('Things')
      .write(1, 1, [
        ['id', 'label', 'sync_status', 'sync_message', 'synced_at'],
      ]);
    expect(() => openTable(book, THINGS, {create: false})).toThrow(
      new SheetLayoutError(
        'The Things sheet has no amount column: refresh it to put the column back, or restore the header text.',
      ),
    );
  });

  it("reads formulas of the user's and the editable columns only, and none without rows", () => {
    const book = new MemoryWorkbook();
    const sheet = book.insertSheet('Things');
    sheet.write(1, 1, [
      ['id', 'label', 'amount', 'sync_status', 'sync_message', 'synced_at'],
    ]);
    openTable(book, THINGS, {create: false});
    expect(sheet.calls).not.toContain('readFormulas');
    sheet.write(2, 1, [[1, 'a', 5, '', '', '']]);
    sheet.write(1, 7, [['mine']]);
    sheet.type(2, 1, '=0+1');
    sheet.type(2, 3, '=2+3');
    sheet.type(2, 5, '=1');
    sheet.type(2, 7, '=A2*2');
    sheet.calls.length = 0;
    const table = openTable(book, THINGS, {create: false})!;
    // Columns B..G in one read: a second read costs more than the three cells between.
    expect(sheet.calls).toEqual(['readValues', 'readFormulas']);
    // A row without a formula may be shorter (rows without any share one empty row).
    const formulas = table.values.map((_, i) =>
      Array.from({length: table.width}, (_, c) => table.formulas[i]?.[c] ?? ''),
    );
    expect(formulas).toEqual([['', '', '=2+3', '', '', '', '=A2*2']]);
  });

  it('with formulasToJudge, reads formulas only in rows that look blank or show a formula error', () => {
    const book = new MemoryWorkbook();
    const sheet = book.insertSheet('Things');
    sheet.write(1, 1, [
      ['id', 'label', 'amount', 'sync_status', 'sync_message', 'synced_at'],
      [1, 'a', 5, '', '', ''],
      [2, 'b', 6, '', '', ''],
      ['', '', '', 'INVALID', 'id is empty', ''],
      [4, 'd', 7, '', '', ''],
      [5, 'e', 8, '', '', ''],
    ]);
    // The memory sheet shows every formula as Sheets shows a failing one.
    sheet.type(6, 2, '=#REF!');
    sheet.calls.length = 0;
    const table = openTable(book, THINGS, {
      create: false,
      formulasToJudge: true,
    })!;
    // Sheet rows 4 and 6, one row apart: one read of label and amount, rows 4 to 6.
    expect(sheet.calls).toEqual(['readValues', 'readFormulas']);
    // A row without a formula may be shorter (rows without any share one empty row).
    const formulas = table.values.map((_, i) =>
      Array.from({length: table.width}, (_, c) => table.formulas[i]?.[c] ?? ''),
    );
    expect(formulas).toEqual([
      ['', '', '', '', '', ''],
      ['', '', '', '', '', ''],
      ['', '', '', '', '', ''],
      ['', '', '', '', '', ''],
      ['', '=#REF!', '', '', '', ''],
    ]);
    sheet.write(4, 1, [[3, 'c', 9]]);
    sheet.type(6, 2, 'e');
    sheet.calls.length = 0;
    expect(
      openTable(book, THINGS, {create: false, formulasToJudge: true})!.formulas,
    ).toEqual([]);
    expect(sheet.calls).toEqual(['readValues']);
  });

  it('makes a new sheet as tall as the rows to come before formatting its columns once', () => {
    const book = new MemoryWorkbook();
    openTable(book, THINGS, {create: true, rows: 1500});
    const sheet = book.sheet('Things')!;
    expect(sheet.maxRows()).toBe(1501);
    // id, label, amount, sync_status + sync_message, synced_at
    const formats = () => sheet.calls.filter(c => c === 'setNumberFormat');
    expect(formats()).toHaveLength(5);
    expect(sheet.cell(1501, 2).format).toBe('@');
  });

  it("protects a new sheet's headers and read-only columns before anything is written to it", () => {
    // Making a protection waits for the document, which sends every queued write first.
    const book = new MemoryWorkbook();
    openTable(book, THINGS, {create: true, rows: 1500});
    const calls = book.sheet('Things')!.calls;
    // The rows are added after the protections, so the growth travels with the writes.
    expect(calls.slice(0, calls.indexOf('write'))).toEqual([
      'protect',
      'protect',
      'insertRowsAfter',
    ]);
  });

  it('answers null for a sheet that does not exist when it may not create it', () => {
    expect(openTable(new MemoryWorkbook(), THINGS, {create: false})).toBeNull();
  });
});

describe('the state sheet', () => {
  it('keeps sections larger than a cell in chunks, in a hidden sheet, read back whole', () => {
    const book = new MemoryWorkbook();
    const records: Record<string, {rows: string[][]}> = {};
    for (let i = 0; i < 3000; i++)
      records[i] = {rows: [[`"https://example.test/${'x'.repeat(20)}/${i}"`]]};
    const state = StateBook.open(book);
    state.set('Offers', {accounts: ['sub1'], records});
    state.set('Budgets', {accounts: ['sub1'], records: {}});
    state.save();
    const sheet = book.sheet(STATE_SHEET)!;
    expect(sheet.hidden).toBe(true);
    // Each new section: its chunks, then its name, which makes it one.
    expect(sheet.calls.filter(c => c === 'write')).toHaveLength(4);
    expect(StateBook.open(book).get('Offers')).toEqual({
      accounts: ['sub1'],
      records,
    });
    // A smaller section later leaves no stale chunk behind.
    const again = StateBook.open(book);
    again.set('Offers', {accounts: ['sub1'], records: {}});
    again.save();
    expect(StateBook.open(book).get('Offers')).toEqual({
      accounts: ['sub1'],
      records: {},
    });
    expect(StateBook.open(book).get('Budgets')).toEqual({
      accounts: ['sub1'],
      records: {},
    });
  });

  it('writes of a changed section only the cells whose text changed, one write per run', () => {
    const book = new MemoryWorkbook();
    const records: Record<string, {rows: string[][]}> = {};
    for (let i = 0; i < 20000; i++)
      records[recordKey(`sub${i % 30}`, String(100000 + i))] = {
        rows: [[`"${(i * 7919) % 10007}"`, '"DAILY"']],
      };
    const first = StateBook.open(book);
    first.set('Budgets', {accounts: ['sub1'], records});
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    // A section new to the sheet: every chunk in one write, then its name.
    expect(sheet.writes.map(w => [w.row, w.values.length])).toEqual([
      [2, expect.any(Number)],
      [1, 1],
    ]);
    expect(sheet.writes[0].values.length).toBeGreaterThan(10);
    expect(sheet.writes[1].values).toEqual([['Budgets']]);

    const state = StateBook.open(book);
    const key = recordKey('sub17', '110007');
    const changed = {
      ...state.get('Budgets')!,
      records: {...records, [key]: {rows: [['"5"', '"DAILY"']]}},
    };
    state.set('Budgets', changed);
    state.save();
    // The name says it is being saved until the changed cell is written.
    expect(sheet.writes.slice(2).map(w => [w.row, w.values[0][0]])).toEqual([
      [1, 'Budgets (saving)'],
      [expect.any(Number), expect.any(String)],
      [1, 'Budgets'],
    ]);
    const write = sheet.writes[3];
    expect(write.values).toHaveLength(1);
    expect(write.row).toBeGreaterThan(2);
    expect(StateBook.open(book).get('Budgets')).toEqual(changed);

    // Fewer records: the cells no longer needed are cleared, the rest reads back whole.
    const smaller = StateBook.open(book);
    const few = {
      accounts: ['sub1'],
      records: {[key]: {rows: [['"5"', '"DAILY"']]}},
    };
    smaller.set('Budgets', few);
    smaller.save();
    expect(sheet.calls.slice(-2)).toEqual(['clearContent', 'write']);
    expect(StateBook.open(book).get('Budgets')).toEqual(few);
    expect(sheet.readValues().filter(r => r[0] !== '')).toHaveLength(2);
  });

  it('never splits a surrogate pair across chunks', () => {
    const text = 'a'.repeat(CHUNK - 1) + '😀' + 'b';
    const parts = chunks(text);
    expect(parts.join('')).toBe(text);
    expect(parts[0]).toHaveLength(CHUNK - 1);
  });

  it('keeps memos (any JSON) beside the pull states, each written once when changed', () => {
    const book = new MemoryWorkbook();
    const state = StateBook.open(book);
    state.set('Offers', {accounts: [''], records: {}});
    state.setMemo('sent tracking', {'101': {support_server_click: 'YES'}});
    state.save();
    const again = StateBook.open(book);
    expect(again.memo('sent tracking')).toEqual({
      '101': {support_server_click: 'YES'},
    });
    expect(again.get('sent tracking')).toBeUndefined();
    expect(again.memo('Offers')).toBeUndefined();
    expect(again.get('Offers')).toEqual({accounts: [''], records: {}});
    const sheet = book.sheet(STATE_SHEET)!;
    const writes = sheet.calls.filter(c => c === 'write').length;
    again.setMemo('sent tracking', {'101': {support_server_click: 'YES'}});
    again.save();
    expect(sheet.calls.filter(c => c === 'write')).toHaveLength(writes);
  });

  it("reads a version-2 section as its account's records, folds the other accounts' memo in once, and clears it", () => {
    const book = new MemoryWorkbook();
    const fields = ['tracking_method', 'click_url', 'support_server_click'];
    const row = ['"S2S"', '"https://a.test"', 'null'];
    const section = {
      v: 2,
      account: 'sub1',
      fields,
      records: {'7': {rows: [row]}},
    };
    const memo = {v: 2, fields, memo: {'': {'8': {rows: [row]}}}};
    book.insertSheet(STATE_SHEET).write(1, 1, [
      ['Offers', 'Offers as other accounts'],
      [`j${JSON.stringify(section)}`, `j${JSON.stringify(memo)}`],
    ]);
    const state = StateBook.open(book);
    expect(state.get('Offers')).toEqual({
      accounts: ['sub1', ''],
      legacyAccount: 'sub1',
      storedAs: 2,
      records: {
        [recordKey('sub1', '7')]: {rows: [row]},
        [recordKey('', '8')]: {rows: [row]},
      },
    });
    state.save();
    const again = StateBook.open(book);
    expect(again.memo('Offers as other accounts')).toBeNull();
    expect(Object.keys(again.get('Offers')!.records)).toHaveLength(2);
  });

  it('reads a damaged section as none', () => {
    const book = new MemoryWorkbook();
    book.insertSheet(STATE_SHEET).write(1, 1, [['Offers'], ['j{broken']]);
    expect(StateBook.open(book).get('Offers')).toBeUndefined();
  });
});
