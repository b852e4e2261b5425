import {
  CodecSpec,
  canonical,
  decode,
  encode,
  fromCanonical,
} from '../../../src/sheets/codec';

const utc = {utcOffsetMinutes: () => 0};
/** A zone at UTC+2 in summer and UTC+1 in winter (Europe/Berlin-like). */
const berlin = {
  utcOffsetMinutes: (ms: number) => {
    const month = new Date(ms).getUTCMonth();
    return month >= 3 && month <= 9 ? 120 : 60;
  },
};

const text: CodecSpec = {type: 'text'};
const integer: CodecSpec = {type: 'integer'};
const money: CodecSpec = {type: 'decimal', open: true};
const stamp: CodecSpec = {type: 'timestamp'};
const geos: CodecSpec = {
  type: 'list',
  joined: true,
  upper: true,
  unordered: true,
};
const ids: CodecSpec = {type: 'list', items: 'integer'};
const json: CodecSpec = {type: 'json'};
const yesno: CodecSpec = {type: 'yesno', values: ['YES', 'NO']};
const choice: CodecSpec = {type: 'text', values: ['APP', 'WEBSITE']};

describe('encode', () => {
  it('writes text as it is, and nothing for null or undefined', () => {
    expect(encode(text, '=HYPERLINK("http://x","y")')).toBe(
      '=HYPERLINK("http://x","y")',
    );
    expect(encode(text, null)).toBe('');
    expect(encode(text, undefined)).toBe('');
    expect(encode(text, 12)).toBe('12');
  });

  it('writes numbers as numbers, numeric text as numbers, OPEN as text', () => {
    expect(encode(integer, 1234)).toBe(1234);
    expect(encode(money, '1000.50')).toBe(1000.5);
    expect(encode(money, 'OPEN')).toBe('OPEN');
  });

  it('writes Unix seconds (number or text) as a Date, and 0 as nothing', () => {
    expect(encode(stamp, 1767225600)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(encode(stamp, '1767225600')).toEqual(
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(encode(stamp, 0)).toBe('');
  });

  it('writes lists comma-separated and nested values as compact JSON', () => {
    expect(encode(ids, [1, 2, 3])).toBe('1,2,3');
    expect(encode(geos, 'US,GB')).toBe('US,GB');
    expect(encode(json, {switch: 1, agg_id: ['a'], package: []})).toBe(
      '{"switch":1,"agg_id":["a"],"package":[]}',
    );
    // custom_ad_schedule arrives as a JSON-encoded string.
    expect(encode(json, '{ "1": "0,1" }')).toBe('{"1":"0,1"}');
    expect(encode(json, [])).toBe('[]');
  });
});

describe('decode', () => {
  it('reads an empty cell (or spaces) as null', () => {
    for (const spec of [text, integer, money, stamp, geos, json]) {
      expect(decode(spec, '', utc)).toEqual({ok: true, value: null});
      expect(decode(spec, '   ', utc)).toEqual({ok: true, value: null});
    }
  });

  it('trims text and matches enumerations case-insensitively', () => {
    expect(decode(text, '  abc ', utc)).toEqual({ok: true, value: 'abc'});
    expect(decode(choice, 'website', utc)).toEqual({
      ok: true,
      value: 'WEBSITE',
    });
    expect(decode(choice, 'GAME', utc)).toEqual({ok: true, value: 'GAME'});
    expect(decode(yesno, true, utc)).toEqual({ok: true, value: 'YES'});
    expect(decode(yesno, 'no', utc)).toEqual({ok: true, value: 'NO'});
  });

  it('reads numbers, numeric text and OPEN; refuses other text', () => {
    expect(decode(money, 50, utc)).toEqual({ok: true, value: 50});
    expect(decode(money, ' 75.5 ', utc)).toEqual({ok: true, value: 75.5});
    expect(decode(money, 'open', utc)).toEqual({ok: true, value: 'OPEN'});
    expect(decode(money, 'abc', utc)).toEqual({
      ok: false,
      problem: 'must be a number or OPEN (not "abc")',
    });
    expect(decode(integer, 1.5, utc)).toEqual({
      ok: false,
      problem: 'must be a whole number (not "1.5")',
    });
  });

  it('reads timestamps from a Date, Unix seconds and ISO-like text', () => {
    expect(decode(stamp, new Date('2026-01-02T10:00:00.400Z'), utc)).toEqual({
      ok: true,
      value: 1767348000,
    });
    expect(decode(stamp, 1767348000, utc)).toEqual({
      ok: true,
      value: 1767348000,
    });
    expect(decode(stamp, '2026-01-02T10:00:00Z', utc)).toEqual({
      ok: true,
      value: 1767348000,
    });
    expect(decode(stamp, '2026-01-02 12:00+02:00', utc)).toEqual({
      ok: true,
      value: 1767348000,
    });
    expect(decode(stamp, '2026-01-02', utc)).toEqual({
      ok: true,
      value: 1767312000,
    });
  });

  it('reads a zone-less time in the spreadsheet time zone, summer and winter', () => {
    expect(decode(stamp, '2026-01-02 11:00', berlin)).toEqual({
      ok: true,
      value: 1767348000,
    });
    expect(decode(stamp, '2026-07-02 12:00', berlin)).toEqual({
      ok: true,
      value: Date.UTC(2026, 6, 2, 10) / 1000,
    });
  });

  it('reads a formula result as shown: 110.00000000000001 is 110', () => {
    expect(decode(money, 100 * 1.1, utc)).toEqual({ok: true, value: 110});
    expect(decode(money, 1.2345, utc)).toEqual({ok: true, value: 1.2345});
    expect(decode(integer, 0.1 * 3 * 10, utc)).toEqual({ok: true, value: 3});
    expect(decode(integer, 1234567890123456, utc)).toEqual({
      ok: true,
      value: 1234567890123456,
    });
  });

  it('quotes no more than a short excerpt of a long cell', () => {
    const long = 'x'.repeat(50000);
    expect(decode(money, long, utc)).toEqual({
      ok: false,
      problem: `must be a number or OPEN (not "${'x'.repeat(37)}..." (50000 characters))`,
    });
    expect(decode(json, long, utc)).toEqual({
      ok: false,
      problem: `is not valid JSON ("${'x'.repeat(37)}..." (50000 characters))`,
    });
  });

  it('says what to do with Unix seconds typed into a date-formatted cell (a date no calendar holds)', () => {
    expect(decode(stamp, new Date(NaN), utc)).toEqual({
      ok: false,
      problem:
        'is formatted as a date, so Sheets read the number typed as days (a date millions of years away): format the cell as plain text (Format > Number > Plain text) and type the Unix seconds again, or type a date',
    });
    expect(decode(stamp, '1790000000', utc)).toEqual({
      ok: true,
      value: 1790000000,
    });
  });

  it('refuses text that is no date', () => {
    expect(decode(stamp, '2026-02-30', utc)).toEqual({
      ok: false,
      problem:
        'must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (not "2026-02-30")',
    });
  });

  it('reads lists: trimmed items, upper-cased geos, whole numbers', () => {
    expect(decode(geos, ' us, gb ', utc)).toEqual({ok: true, value: 'US,GB'});
    expect(decode(ids, '111,112', utc)).toEqual({ok: true, value: [111, 112]});
    expect(decode(ids, 111, utc)).toEqual({ok: true, value: [111]});
    expect(decode(ids, '1,x', utc)).toEqual({
      ok: false,
      problem: 'has "x", which is not a whole number',
    });
    expect(decode(geos, 'US,,GB', utc)).toEqual({
      ok: false,
      problem: 'has an empty item between commas ("US,,GB")',
    });
  });

  it('reads an md5 in lower case, so a capitalised one compares equal', () => {
    const md5: CodecSpec = {type: 'text', lower: true};
    expect(decode(md5, ' ABCDEF0123 ', utc)).toEqual({
      ok: true,
      value: 'abcdef0123',
    });
    expect(canonical(md5, 'ABCDEF0123', utc)).toBe(
      canonical(md5, 'abcdef0123', utc),
    );
  });

  it('reads JSON and says when it is not', () => {
    expect(decode(json, '{"1":"0,1"}', utc)).toEqual({
      ok: true,
      value: {1: '0,1'},
    });
    expect(decode(json, '{oops', utc)).toEqual({
      ok: false,
      problem: 'is not valid JSON ("{oops")',
    });
  });
});

describe('canonical', () => {
  it('is equal exactly when two cells mean the same request value', () => {
    expect(canonical(money, 50, utc)).toBe(canonical(money, '50', utc));
    expect(canonical(money, 50, utc)).not.toBe(canonical(money, 'OPEN', utc));
    expect(canonical(geos, 'GB, us', utc)).toBe(canonical(geos, 'US,GB', utc));
    expect(canonical(json, '{"a": 1}', utc)).toBe(
      canonical(json, '{"a":1}', utc),
    );
    expect(canonical(text, ' x ', utc)).toBe(canonical(text, 'x', utc));
  });

  it('round-trips every encoded API value (an untouched cell is never an edit)', () => {
    const cases: Array<[CodecSpec, unknown]> = [
      [text, '=HYPERLINK("http://x","y")'],
      [money, '1000.50'],
      [money, 'OPEN'],
      [stamp, 1767225600],
      [geos, 'US,GB'],
      [ids, [1, 2]],
      [json, '{"1":"0,1,2"}'],
      [yesno, 'YES'],
    ];
    for (const [spec, value] of cases) {
      const cell = encode(spec, value);
      expect(decode(spec, cell, utc).ok).toBe(true);
      expect(canonical(spec, cell, utc)).toBe(
        canonical(spec, encode(spec, value), utc),
      );
    }
  });

  it('keeps an unreadable cell comparable by its text, read back as null', () => {
    const text = canonical(money, 'abc', utc);
    expect(text).not.toBe(canonical(money, 'abd', utc));
    expect(fromCanonical(text)).toBeNull();
    expect(fromCanonical(canonical(text as never, 'x', utc))).toBe('x');
  });
});
