import {
  CELLS_PER_CALL,
  CHARS_PER_CALL,
  readInRuns,
  writeRuns,
} from '../../../src/platform/blocks';

describe('writeRuns', () => {
  it('keeps a block within both bounds as one run', () => {
    const values = [
      ['a', 1],
      ['b', 2],
    ];
    expect(writeRuns(values)).toEqual([{first: 0, rows: values}]);
  });

  it('cuts 50,000 rows of 40 cells into runs of at most 100,000 cells', () => {
    const values = Array.from({length: 50_000}, (_, i) =>
      Array.from({length: 40}, () => i),
    );
    const runs = writeRuns(values);
    expect(runs.map(r => [r.first, r.rows.length])).toEqual(
      Array.from({length: 20}, (_, k) => [k * 2500, 2500]),
    );
    expect(runs.flatMap(r => r.rows)).toEqual(values);
  });

  it('cuts a column of 40,000-character cells (the state sheet) at 2,000,000 characters', () => {
    const values = Array.from({length: 120}, (_, i) => [
      `j${String(i).padEnd(39_999, '.')}`,
    ]);
    const runs = writeRuns(values);
    expect(runs.map(r => [r.first, r.rows.length])).toEqual([
      [0, 50],
      [50, 50],
      [100, 20],
    ]);
    for (const run of runs)
      expect(run.rows.flat().join('').length).toBeLessThanOrEqual(
        CHARS_PER_CALL,
      );
  });
});

describe('readInRuns', () => {
  /** A block whose row i holds `width(i)` characters in each of `columns` cells. */
  function block(columns: number, width: (i: number) => number) {
    const calls: Array<[number, number]> = [];
    const read = (first: number, count: number) => {
      calls.push([first, count]);
      return Array.from({length: count}, (_, k) =>
        Array.from({length: columns}, () => 'x'.repeat(width(first + k))),
      );
    };
    return {calls, read};
  }

  it('reads a block within the cell bound in one call, whatever characters it might carry', () => {
    const {calls, read} = block(11, () => 50_000);
    expect(readInRuns(4, 11, read)).toHaveLength(4);
    expect(calls).toEqual([[0, 4]]);
  });

  it('reads a wide block by the cell bound from its first call', () => {
    const {calls, read} = block(40, () => 10);
    expect(readInRuns(50_001, 40, read)).toHaveLength(50_001);
    expect(calls[0]).toEqual([0, 2500]);
    expect(calls.every(([, n]) => n * 40 <= CELLS_PER_CALL)).toBe(true);
    expect(calls).toHaveLength(21);
  });

  it('sizes the calls after the first by the widest row read', () => {
    const {calls, read} = block(1, () => 100);
    expect(readInRuns(150_000, 1, read)).toHaveLength(150_000);
    // 100,000 cells first, then as many rows of 100 characters as 2,000,000 allow.
    expect(calls).toEqual([
      [0, 100_000],
      [100_000, 20_000],
      [120_000, 20_000],
      [140_000, 10_000],
    ]);
  });

  it('sizes the calls of big cells (the state sheet) by the widest row read', () => {
    const {calls, read} = block(2, () => 40_000);
    const rows = readInRuns(400, 2, read, {cellChars: 50_000});
    expect(rows).toHaveLength(400);
    // 20 rows first (2 cells of up to 50,000), then 25 rows of 80,000 characters a call.
    expect(calls[0]).toEqual([0, 20]);
    expect(calls[1]).toEqual([20, 25]);
    for (const [, n] of calls)
      expect(n * 2 * 40_000).toBeLessThanOrEqual(CHARS_PER_CALL);
  });

  it('counts no characters where a cell carries too few to matter (number formats)', () => {
    const {calls, read} = block(40, () => 1);
    readInRuns(10_000, 40, read, {countChars: false});
    expect(calls).toEqual([
      [0, 2500],
      [2500, 2500],
      [5000, 2500],
      [7500, 2500],
    ]);
  });

  it('holds each moment read once: cells of the same time, call after call, are one Date', () => {
    const read = (first: number, count: number) =>
      Array.from({length: count}, (_, i) => [
        new Date(Date.UTC(2026, 0, 1)),
        new Date(Date.UTC(2026, 0, 1 + first + i)),
      ]);
    const rows = readInRuns(3, 50_000, read);
    expect(rows.map(r => r[1].toISOString().slice(0, 10))).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
    ]);
    // Two rows a call (100,000 cells): the third row comes in a second call, its date the first.
    expect(rows[1][0]).toBe(rows[0][0]);
    expect(rows[2][0]).toBe(rows[0][0]);
    expect(rows[0][1]).toBe(rows[0][0]);
    expect(rows[1][1]).not.toBe(rows[0][0]);
  });

  it('stops holding the moments of a column that does not repeat, and keeps holding those of one that does', () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
    // Column 0: a new day each row, but row 2,000's day again at rows 2,500 and 2,600;
    // column 1: one day down every row.
    const dayOf = (row: number) => (row === 2500 || row === 2600 ? 2000 : row);
    const read = (first: number, count: number) =>
      Array.from({length: count}, (_, i) => [day(dayOf(first + i)), day(-1)]);
    const rows = readInRuns(3000, 2, read);
    // The first 1,000 days of column 0 were held and never repeated: the column is judged
    // unique and holds no more, so rows 2,500 and 2,600 keep their own Dates.
    expect(rows[2500][0].getTime()).toBe(rows[2600][0].getTime());
    expect(rows[2500][0]).not.toBe(rows[2600][0]);
    expect(rows[2999][1]).toBe(rows[0][1]);
  });
});
