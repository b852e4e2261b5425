import {
  asShown,
  excerpt,
  isUnplaceableDate,
  lengthProblem,
  parseNumber,
} from '../../../src/rules/values';

describe('asShown: a number as the sheet shows it', () => {
  it('drops the rounding noise a formula leaves past 15 significant digits', () => {
    expect(asShown(100 * 1.1)).toBe(110);
    expect(asShown(0.1 + 0.2)).toBe(0.3);
    expect(asShown(1.2345)).toBe(1.2345);
    expect(asShown(123456789.123)).toBe(123456789.123);
  });

  it('keeps whole numbers (ids of 16 digits) and non-finite values as they are', () => {
    expect(asShown(1234567890123456)).toBe(1234567890123456);
    expect(asShown(Infinity)).toBe(Infinity);
  });

  it('is what parseNumber counts decimals on', () => {
    expect(parseNumber(100 * 1.1)).toEqual({value: 110, decimals: 0});
    expect(parseNumber(1.2345)).toEqual({value: 1.2345, decimals: 4});
    expect(parseNumber('1.50')).toEqual({value: 1.5, decimals: 2});
  });
});

describe('excerpt: a cell as a message quotes it', () => {
  it('quotes a short cell whole, a long one cut to 40 characters with its length', () => {
    expect(excerpt(' US ')).toBe('"US"');
    expect(excerpt('x'.repeat(40))).toBe(`"${'x'.repeat(40)}"`);
    expect(excerpt('x'.repeat(41))).toBe(
      `"${'x'.repeat(37)}..." (41 characters)`,
    );
    expect(excerpt('y'.repeat(50000), false)).toBe(
      `${'y'.repeat(37)}... (50000 characters)`,
    );
  });
});

describe('lengthProblem', () => {
  it('names the field, the limit and the length, quoting an excerpt', () => {
    expect(lengthProblem('network', 'WIFI')).toBeUndefined();
    expect(lengthProblem('network', 'n'.repeat(4000))).toBeUndefined();
    expect(lengthProblem('click_url', 'h'.repeat(2049), 2048)).toBe(
      `click_url may have 2048 characters at most (it has 2049: "${'h'.repeat(37)}..." (2049 characters))`,
    );
  });
});

describe('isUnplaceableDate', () => {
  it('tells an invalid Date (Unix seconds in a date-formatted cell) from others', () => {
    expect(isUnplaceableDate(new Date(NaN))).toBe(true);
    expect(isUnplaceableDate(new Date(0))).toBe(false);
    expect(isUnplaceableDate(1790000000)).toBe(false);
  });
});
