import {
  BAND_ROWS,
  BLOCK_MS,
  CELL_MS,
  READ_MS,
  cost,
  filledColumnRuns,
  rowBands,
  rowIndex,
} from '../../../src/sheets/write-blocks';
import type {Contents} from '../../../src/sheets/table';

/** `count` rows of `width` cells, filled in the columns `filled`. */
function rows(count: number, width: number, filled: number[]): Contents[][] {
  return Array.from({length: count}, (_, i) =>
    Array.from({length: width}, (_, c) => (filled.includes(c) ? i + 1 : '')),
  );
}

describe('filledColumnRuns: which columns of new rows are written', () => {
  it('leaves out columns blank in all of 10,000 new rows, and the blank columns past the last filled', () => {
    expect(filledColumnRuns(rows(10000, 14, [0, 1, 2, 10]))).toEqual([
      {left: 0, right: 2},
      {left: 10, right: 10},
    ]);
  });

  it('writes a short gap of a few rows in the block: another block would cost more', () => {
    expect(filledColumnRuns(rows(3, 11, [0, 10]))).toEqual([
      {left: 0, right: 10},
    ]);
  });

  it('keeps a column that is filled in one row only', () => {
    const block = rows(10000, 6, [0]);
    block[9999][4] = 'x';
    expect(filledColumnRuns(block)).toEqual([
      {left: 0, right: 0},
      {left: 4, right: 4},
    ]);
  });

  it('writes the first column of rows that are blank throughout, so they are still one write', () => {
    expect(filledColumnRuns(rows(2, 5, []))).toEqual([{left: 0, right: 0}]);
  });

  it('counts FALSE and 0 as filled: only the empty text is blank', () => {
    expect(filledColumnRuns([[1, '', '', '', '', 0, false]])).toEqual([
      {left: 0, right: 6},
    ]);
    expect(
      filledColumnRuns(
        Array.from({length: 1000}, () => [1, '', '', '', '', 0, false]),
      ),
    ).toEqual([
      {left: 0, right: 0},
      {left: 5, right: 6},
    ]);
  });
});

describe('rowBands: a large block written a band of rows at a time', () => {
  it('cuts 12,001 rows into bands of 5,000, the last one shorter, columns kept', () => {
    expect(BAND_ROWS).toBe(5000);
    expect(rowBands({top: 7, bottom: 12007, left: 3, right: 5})).toEqual([
      {top: 7, bottom: 5006, left: 3, right: 5},
      {top: 5007, bottom: 10006, left: 3, right: 5},
      {top: 10007, bottom: 12007, left: 3, right: 5},
    ]);
  });

  it('leaves a block of 5,000 rows or fewer whole', () => {
    const block = {top: 0, bottom: 4999, left: 0, right: 0};
    expect(rowBands(block)).toEqual([block]);
  });
});

describe('cost: what a block costs as the writer writes it, a band at a time', () => {
  it('prices the reads of the one band with a gap, not of the whole block', () => {
    // 12,000 rows of one column, every cell decided but the first row's.
    const decided = {decided: new Set([0])};
    const rows = Array.from({length: 11999}, (_, i) => ({row: i + 1}));
    const byRow = rowIndex(rows, () => decided);
    const band = (count: number, gaps: boolean) =>
      BLOCK_MS + count * CELL_MS + (gaps ? 2 * (READ_MS + count * CELL_MS) : 0);
    expect(
      cost([{top: 0, bottom: 11999, left: 0, right: 0}], byRow),
    ).toBeCloseTo(band(5000, true) + band(5000, false) + band(2000, false));
  });
});
