/**
 * The state book over a sheet a person has edited: what a save leaves must read back as
 * what it saved.
 */
import {STATE_SHEET, StateBook} from '../../../src/state/book';
import {column} from '../../../src/state/columns';
import {MemoryWorkbook} from '../../support/workbook';

/** Text of `size` characters with no pattern, so it is cut where its content says. */
function text(size: number, seed: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += String.fromCharCode(97 + (x >>> 27));
  }
  return out;
}

describe('a state section a person cut short by clearing one of its cells', () => {
  it('reads as none, and what the next save writes reads back whole: the cells past the cleared one go', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    first.setMemo('notes', text(200000, 1));
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    expect(sheet.grid().length).toBeGreaterThan(6);
    sheet.clearContent(3, 1, 1, 1);

    const second = StateBook.open(book);
    expect(second.memo('notes')).toBeUndefined();
    const saved = text(90000, 2);
    second.setMemo('notes', saved);
    second.save();

    const read = StateBook.open(book).memo<string>('notes');
    expect(read?.length).toBe(saved.length);
    expect(read === saved).toBe(true);
  });
});

describe('a save stopped between its writes', () => {
  it('leaves a section that reads as none, never one with some of its changes: the next save writes it whole', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    const before = text(300000, 3);
    first.setMemo('notes', before);
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    const write = sheet.write.bind(sheet);
    let left = 1;
    // Google's "too much computer time for one day" strikes the call that crosses it; the
    // writes queued before it reach the document with the run's end.
    sheet.write = (row, column, values) => {
      if (--left < 0)
        throw new Error('Service using too much computer time for one day');
      write(row, column, values);
    };
    const second = StateBook.open(book);
    // Two changes far apart: two runs of cells.
    const after = `X${before.slice(1, 250000)}Y${before.slice(250001)}`;
    second.setMemo('notes', after);
    expect(() => second.save()).toThrow('too much computer time');
    sheet.write = write;

    const third = StateBook.open(book);
    expect(third.memo('notes')).toBeUndefined();
    third.setMemo('notes', after);
    third.save();
    expect(StateBook.open(book).memo<string>('notes') === after).toBe(true);
  });
});

describe('a save that threw, then the same book saving again', () => {
  it('writes what it saves now over whatever the save that threw left', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    const before = text(300000, 4);
    first.setMemo('notes', before);
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    const write = sheet.write.bind(sheet);
    let left = 2;
    sheet.write = (row, column, values) => {
      if (--left < 0) throw new Error('Service Spreadsheets failed');
      write(row, column, values);
    };
    const second = StateBook.open(book);
    second.setMemo(
      'notes',
      `X${before.slice(1, 250000)}Y${before.slice(250001)}`,
    );
    expect(() => second.save()).toThrow('Service Spreadsheets failed');
    sheet.write = write;

    // Only the second change: the first cell goes back to what it held before.
    const now = `${before.slice(0, 250000)}Y${before.slice(250001)}`;
    second.setMemo('notes', now);
    second.save();

    expect(StateBook.open(book).memo<string>('notes') === now).toBe(true);
  });
});

describe('a section of version 3 (one object per record)', () => {
  it('reads as it was, and its next save writes version 4 by column that reads back the same', () => {
    const book = new MemoryWorkbook();
    const records = {
      '\u001f200001': {
        rows: [['"APPSFLYER"', '"https://t.example/a?id={click_id}"', 'null']],
        facts: {maintain_by: 'ADV', status: 'RUNNING'},
        readOnly: 'IAB:1x',
        refused: [['"APPSFLYER"', '"bad"', 'null']],
      },
      'demo_sub_a\u001f200002': {rows: [], facts: {maintain_by: 'AM'}},
    };
    const v3 = {
      v: 3,
      accounts: ['', 'demo_sub_a'],
      fields: ['tracking_method', 'click_url', 'support_server_click'],
      records,
    };
    const sheet = book.insertSheet(STATE_SHEET);
    sheet.write(1, 1, [['Offers'], [`j${JSON.stringify(v3)}`]]);

    const read = StateBook.open(book);
    expect(read.get('Offers')).toEqual({
      accounts: ['', 'demo_sub_a'],
      records,
      storedAs: 3,
    });
    read.set('Offers', read.get('Offers')!);
    read.save();
    const stored = JSON.parse(String(sheet.grid()[1][0]).slice(1));
    expect(stored).toMatchObject({v: 4, records: {n: 2}});
    expect(StateBook.open(book).get('Offers')).toEqual({
      accounts: ['', 'demo_sub_a'],
      records,
    });
  });

  it('a version-4 section whose columns do not add up reads as none', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    first.set('Offers', {
      accounts: [''],
      records: {'\u001f1': {rows: [['"x"', '"y"', 'null']]}},
    });
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    const stored = JSON.parse(String(sheet.grid()[1][0]).slice(1));
    stored.records.n = 5;
    sheet.write(2, 1, [[`j${JSON.stringify(stored)}`]]);
    const read = StateBook.open(book);
    expect(read.get('Offers')).toBeUndefined();
    expect(read.unreadable('Offers')).toBe(true);
  });
});

describe('a section saved again as it holds it', () => {
  it('writes nothing, whether read so or just saved so; a change of one character is written', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    const saved = text(200000, 4);
    first.setMemo('notes', saved);
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    const write = sheet.write.bind(sheet);
    const written: number[] = [];
    sheet.write = (row, column, values) => {
      written.push(row);
      write(row, column, values);
    };
    first.setMemo('notes', saved);
    first.save();
    const second = StateBook.open(book);
    second.setMemo('notes', saved);
    second.save();
    expect(written).toEqual([]);

    const changed = `${saved.slice(0, 100000)}Z${saved.slice(100001)}`;
    second.setMemo('notes', changed);
    second.save();
    expect(written.length).toBeGreaterThan(0);
    expect(StateBook.open(book).memo<string>('notes') === changed).toBe(true);
  });
});

describe('a section no job asks for', () => {
  it('is never decoded nor written: a Budgets save leaves the Offers cells as they were', () => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    const offers = {
      accounts: [''],
      records: {
        '\u001f200001': {
          rows: [['"APPSFLYER"', '"https://t.example/offers-only"', 'null']],
          facts: {maintain_by: 'ADV', status: 'RUNNING'},
        },
      },
    };
    const budgets = (cap: string) => ({
      accounts: [''],
      records: {'\u001f200001': {rows: [['"US"', '"DAILY"', cap, '0']]}},
    });
    first.set('Offers', offers);
    first.set('Budgets', budgets('10'));
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    const offersCells = sheet.grid().map(row => row[0]);
    expect(offersCells[0]).toBe('Offers');

    const parse = jest.spyOn(JSON, 'parse');
    try {
      const second = StateBook.open(book);
      expect(second.get('Budgets')).toEqual(budgets('10'));
      second.set('Budgets', budgets('20'));
      second.save();
      const parsed = parse.mock.calls.map(([json]) => String(json));
      expect(parsed.some(json => json.includes('offers-only'))).toBe(false);
      expect(sheet.grid().map(row => row[0])).toEqual(offersCells);

      // Asked for at last, it reads as it was saved.
      expect(second.get('Offers')).toEqual(offers);
      expect(StateBook.open(book).get('Budgets')).toEqual(budgets('20'));
    } finally {
      parse.mockRestore();
    }
  });
});

describe('a version-4 section whose columns disagree with one another', () => {
  /** The Offers section saved, its records changed as `tamper` does, then read again. */
  const tampered = (tamper: (records: Record<string, unknown>) => void) => {
    const book = new MemoryWorkbook();
    const first = StateBook.open(book);
    first.set('Offers', {
      accounts: ['demo'],
      records: {
        'demo\u001f1': {rows: [['"a1"', '"u1"', 'null']]},
        'demo\u001f2': {
          rows: [
            ['"a2"', '"u2"', 'null'],
            ['"a3"', '"u3"', 'null'],
          ],
        },
      },
    });
    first.save();
    const sheet = book.sheet(STATE_SHEET)!;
    const stored = JSON.parse(String(sheet.grid()[1][0]).slice(1));
    tamper(stored.records);
    sheet.write(2, 1, [[`j${JSON.stringify(stored)}`]]);
    return StateBook.open(book);
  };

  it.each([
    ['a key more than records', ['demo\u001f0', 'demo\u001f1', 'demo\u001f2']],
    ['a key missing', [null, 'demo\u001f2']],
    ['one key twice', ['demo\u001f2', 'demo\u001f2']],
  ])('reads as none, never one record under another key: %s', (_, keys) => {
    const read = tampered(records => {
      records.keys = column(keys);
    });
    expect(read.get('Offers')).toBeUndefined();
    expect(read.unreadable('Offers')).toBe(true);
  });

  it.each([
    ['a count no number', ['x', '2']],
    ['a count missing', [null, '3']],
    ['a negative count', ['-1', '4']],
    ['a count of a fraction', ['0.5', '2.5']],
    ['counts that take fewer rows than stored', ['1', '1']],
  ])('reads as none, never rows moved to another record: %s', (_, rows) => {
    const read = tampered(records => {
      records.rows = column(rows);
    });
    expect(read.get('Offers')).toBeUndefined();
    expect(read.unreadable('Offers')).toBe(true);
  });
});

describe('a section a later release wrote (version 5)', () => {
  it('reads as none, and a save of another section leaves its cells as they are', () => {
    const book = new MemoryWorkbook();
    const sheet = book.insertSheet(STATE_SHEET);
    const v5 = `j${JSON.stringify({v: 5, accounts: [''], records: {n: 'new'}})}`;
    sheet.write(1, 1, [['Offers'], [v5]]);
    const read = StateBook.open(book);
    expect(read.get('Offers')).toBeUndefined();
    expect(read.unreadable('Offers')).toBe(true);
    read.set('Budgets', {accounts: [''], records: {}});
    read.save();
    expect(sheet.grid().map(row => row[0])).toEqual(['Offers', v5]);
  });
});

describe('a section saved', () => {
  it('is held as its cells alone: asked for again, it is decoded afresh as saved, and kept until another large one is asked for', () => {
    const book = new MemoryWorkbook();
    const state = StateBook.open(book);
    /** Records of texts alike in nothing: a section of several cells. */
    const large = (mark: string) => ({
      accounts: [''],
      records: Object.fromEntries(
        Array.from({length: 40}, (_, k) => [
          `\u001f${200000 + k}`,
          {
            rows: [[`"${mark}${text(2000, k + 1)}"`]],
            facts: {maintain_by: 'ADV'},
            // A field set to undefined is no field once saved.
            writing: undefined,
          },
        ]),
      ),
    });
    const offers = large('offers-only');
    const budgets = large('budgets-only');
    const campaigns = {
      accounts: [''],
      records: {'\u001f1': {rows: [['"campaigns-only"']]}},
    };
    state.set('Offers', offers);
    state.set('Budgets', budgets);
    state.set('Campaigns', campaigns);
    // Set and not saved: the state set, as it is.
    expect(state.get('Offers')).toBe(offers);
    state.save();
    expect(book.sheet(STATE_SHEET)!.grid().length).toBeGreaterThan(2);

    const parse = jest.spyOn(JSON, 'parse');
    try {
      const decodes = (mark: string) =>
        parse.mock.calls.filter(([json]) => String(json).includes(mark)).length;
      const again = state.get('Offers')!;
      expect(again).not.toBe(offers);
      expect(again).toEqual(offers);
      expect(Object.keys(again.records['\u001f200000'])).toEqual([
        'rows',
        'facts',
      ]);
      // The small one kept beside it.
      expect(state.get('Campaigns')).toEqual(campaigns);
      expect(state.get('Offers')).toBe(again);
      expect(state.get('Campaigns')).toBe(state.get('Campaigns'));
      expect(decodes('offers-only')).toBe(1);
      expect(decodes('campaigns-only')).toBe(1);

      expect(state.get('Budgets')).toEqual(budgets);
      expect(state.get('Offers')).toEqual(offers);
      expect(decodes('offers-only')).toBe(2);
      expect(state.sheets()).toEqual(['Offers', 'Budgets', 'Campaigns']);
    } finally {
      parse.mockRestore();
    }
  });
});
