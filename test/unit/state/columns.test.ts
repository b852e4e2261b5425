import {recordKey} from '../../../src/sheets/accounts';
import type {RecordState} from '../../../src/sheets/pulled';
import {
  column,
  readRecords,
  storeRecords,
  values,
} from '../../../src/state/columns';

/** Stored and read back through JSON, as the state sheet holds it. */
const roundTrip = (records: Record<string, RecordState>) =>
  readRecords(JSON.parse(JSON.stringify(storeRecords(records))));

describe('a section stored by column (state version 4)', () => {
  it('reads back every record exactly: rows, facts, prints and marks, in order', () => {
    const records: Record<string, RecordState> = {
      [recordKey('', '200001')]: {
        rows: [
          ['"US"', '"BUDGET"', '100', '"OPEN"'],
          ['"GB,MX"', '"CONVERSION"', '5.5', '2000'],
        ],
        facts: {maintain_by: 'ADV', offer_name: 'Puzzle 😀 Quest'},
        readOnly: 'I5eyz:g7ksmz',
      },
      [recordKey('', '200002')]: {
        rows: [],
        facts: {maintain_by: 'AM'},
      },
      [recordKey('demo_sub_a', '200002')]: {
        rows: [['"US"', '"BUDGET"', '100', 'null']],
        refused: [['"US"', '"BUDGET"', '-5', 'null']],
        writing: [['"US"', '"BUDGET"', '101', 'null']],
        toldFacts: {status: 'PAUSED'},
      },
      // A key of release 1's form, without an account: kept as it was.
      '17': {rows: [['"x"']], readOnly: ''},
    };
    expect(roundTrip(records)).toEqual(records);
    expect(Object.keys(roundTrip(records))).toEqual(Object.keys(records));
  });

  it('never cuts a surrogate pair where a text shares its start or its end with the one before', () => {
    const texts = [
      'a😀b',
      'a😁b',
      '😀😀',
      '😀😁',
      'x😀',
      'y😀',
      '',
      null,
      'a😀b',
    ];
    const stored = JSON.parse(JSON.stringify(column(texts)));
    expect(values(stored, texts.length)).toEqual(texts);
  });

  it('stores click URLs of one tracker in a fraction of their characters, and an enumeration in bits', () => {
    const urls = Array.from(
      {length: 1000},
      (_, k) =>
        `"https://track.example.com/click?c=ofr_${200000 + k}_${(k * 7919).toString(16)}&clickid={click_id}"`,
    );
    const whole = urls.reduce((n, u) => n + u.length, 0);
    const stored = column(urls);
    expect(JSON.stringify(stored).length).toBeLessThan(whole / 4);
    expect(values(stored, urls.length)).toEqual(urls);

    const status = urls.map((_, k) => (k % 3 === 0 ? 'ADV' : 'AM'));
    const flags = column(status);
    // Two values: a bit each, six to a character.
    expect(flags).toEqual({d: ['ADV', 'AM'], i: expect.any(String)});
    expect((flags as {i: string}).i).toHaveLength(Math.ceil(1000 / 6));
    expect(values(flags, status.length)).toEqual(status);
    expect(column(['USD', 'USD'])).toEqual({d: ['USD'], i: ''});
  });

  it('refuses a column no save wrote (cut short, an unknown entry), so the book reads the section as none', () => {
    const stored = column(['"https://a.test/1"', '"https://a.test/2"']);
    expect(() => values((stored as string).slice(0, -3), 2)).toThrow(
      'state column',
    );
    expect(() => values({d: ['ADV'], i: ''}, 2)).not.toThrow();
    expect(() => values({d: ['ADV', 'AM', 'X'], i: 'A'}, 4)).toThrow(
      'state column',
    );
    expect(() => values('Q', 1)).toThrow('state column');
  });
});

describe('prints of read-only cells', () => {
  it('are stored by position where that is shorter, and read back whole', () => {
    const records: Record<string, RecordState> = {};
    for (let k = 0; k < 500; k++) {
      records[recordKey('', String(k))] = {
        rows: [],
        // Columns alike in every row print alike: a few bits a record, not a character.
        ...(k === 7
          ? {}
          : {readOnly: `IAAx${'AB'[k % 2]}Q:${(k * 7919).toString(36)}`}),
      };
    }
    const stored = storeRecords(records);
    expect(stored.readOnly).toMatchObject({at: expect.any(Array)});
    const whole = Object.values(records).reduce(
      (n, r) => n + (r.readOnly?.length ?? 0),
      0,
    );
    expect(JSON.stringify(stored.readOnly).length).toBeLessThan(whole * 0.75);
    expect(roundTrip(records)).toEqual(records);
  });
});

describe('a dictionary of many entries', () => {
  it('packs numbers of 17 bits and reads each back', () => {
    // 70,000 texts alike in nothing, each twice: cheaper as a dictionary than front coded.
    let x = 1;
    const random = Array.from({length: 70000}, () => {
      x = (x * 48271) % 2147483647;
      return x.toString(36).repeat(4);
    });
    const texts = [...random, ...random.slice().reverse()];
    const stored = JSON.parse(JSON.stringify(column(texts)));
    expect((stored as {i: string}).i).toHaveLength(
      Math.ceil((texts.length * 17) / 6),
    );
    expect(values(stored, texts.length)).toEqual(texts);
  });
});

describe('a section of more rows than a call takes arguments', () => {
  it('is stored and read back (31,000 offers of a few countries each)', () => {
    const records: Record<string, RecordState> = {};
    for (let k = 0; k < 40000; k++) {
      records[recordKey('', String(200000 + k))] = {
        rows: ['US', 'GB', 'MX', 'DE'].map(c => [`"${c}"`, '"DAILY"', '10']),
        readOnly: `I${k % 7}`,
      };
    }
    const read = roundTrip(records);
    expect(Object.keys(read)).toHaveLength(40000);
    expect(read[recordKey('', '239999')]).toEqual(
      records[recordKey('', '239999')],
    );
  });
});

describe('a column of more entries than its records', () => {
  it('is refused, front coded or a dictionary, so no entry is read as another record', () => {
    const urls = column(['"https://a.test/1"', '"https://a.test/2"']);
    expect(values(urls, 2)).toEqual([
      '"https://a.test/1"',
      '"https://a.test/2"',
    ]);
    expect(() => values(urls, 1)).toThrow('state column');
    // Entries of 2 bits, three to a digit: 'D' is 0, 0 and a third, 3, in the padding.
    const d = ['a', 'b', 'c', 'd'];
    expect(values({d, i: 'A'}, 2)).toEqual(['a', 'a']);
    expect(values({d, i: 'D'}, 3)).toEqual(['a', 'a', 'd']);
    expect(() => values({d, i: 'D'}, 2)).toThrow('state column');
  });
});

describe("a record's marks", () => {
  it('are read as marks only: an entry under them naming rows, facts or a print changes none of those', () => {
    const records: Record<string, RecordState> = {
      [recordKey('', '1')]: {
        rows: [['"US"']],
        facts: {maintain_by: 'ADV'},
        refused: [['"GB"']],
      },
    };
    const stored = JSON.parse(JSON.stringify(storeRecords(records)));
    expect(stored.marks).toEqual({0: {refused: [['"GB"']]}});
    stored.marks[0] = {
      ...stored.marks[0],
      rows: [['"MX"']],
      facts: {maintain_by: 'AM'},
      readOnly: 'X',
    };
    expect(readRecords(stored)).toEqual(records);
  });
});

describe('prints by position whose columns disagree', () => {
  it('are refused rather than read with a character left out', () => {
    const records: Record<string, RecordState> = {};
    for (let k = 0; k < 500; k++) {
      records[recordKey('', String(k))] = {
        rows: [],
        readOnly: `IAAx${'AB'[k % 2]}Q:${(k * 7919).toString(36)}`,
      };
    }
    const stored = JSON.parse(JSON.stringify(storeRecords(records)));
    expect(readRecords(stored)).toEqual(records);
    stored.readOnly.at[1] = column(
      Array.from({length: 500}, (_, k) => (k === 3 ? null : 'A')),
    );
    expect(() => readRecords(stored)).toThrow('state column');
  });
});

describe('row texts whose columns disagree', () => {
  it('are refused where a row has a text after one it has not, rather than read cut short', () => {
    const records: Record<string, RecordState> = {
      [recordKey('', '1')]: {rows: [['"US"', '"DAILY"', '10']]},
      [recordKey('', '2')]: {rows: [['"GB"', '"DAILY"', '20']]},
    };
    const stored = JSON.parse(JSON.stringify(storeRecords(records)));
    stored.cells[1] = column([null, '"DAILY"']);
    expect(() => readRecords(stored)).toThrow('state column');
  });
});

describe('a decoded record', () => {
  it('has only the fields it holds, and the records without rows share one frozen empty array', () => {
    const records: Record<string, RecordState> = {
      [recordKey('', '1')]: {rows: [], facts: {maintain_by: 'ADV'}},
      [recordKey('', '2')]: {rows: [], readOnly: 'IA'},
      [recordKey('', '3')]: {
        rows: [['"US"']],
        facts: {maintain_by: 'AM', offer_name: 'x'},
        readOnly: 'IB',
      },
      [recordKey('', '4')]: {rows: [['"GB"']], refused: [['"MX"']]},
    };
    const read = roundTrip(records);
    expect(Object.values(read).map(r => Object.keys(r))).toEqual([
      ['rows', 'facts'],
      ['rows', 'readOnly'],
      ['rows', 'facts', 'readOnly'],
      ['rows', 'refused'],
    ]);
    const [one, two] = Object.values(read);
    expect(one.rows).toBe(two.rows);
    expect(Object.isFrozen(one.rows)).toBe(true);
    expect(read).toEqual(records);
  });
});
