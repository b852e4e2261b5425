import {CellPool} from '../../../src/sheets/cell-pool';

describe('the values a listing repeats, held once', () => {
  it('answers the Date it already holds for a moment, and any other cell as given', () => {
    const pool = new CellPool();
    const first = pool.cell(new Date(1767225600000));
    expect(pool.cell(new Date(1767225600000))).toBe(first);
    expect(pool.cell(new Date(1767312000000))).not.toBe(first);
    expect(pool.cell(42)).toBe(42);
    expect(pool.cell(undefined)).toBeUndefined();
    expect(pool.cell('RUNNING')).toBe('RUNNING');
  });

  it('holds equal lists of columns once', () => {
    const pool = new CellPool();
    const first = pool.indexes([20]);
    expect(pool.indexes([20])).toBe(first);
    expect(pool.indexes([19, 20])).toEqual([19, 20]);
  });

  it('makes facts anew, with the same texts', () => {
    const pool = new CellPool();
    const facts = {status: 'RUNNING', maintain_by: 'ADV'};
    const held = pool.facts(facts);
    expect(held).toEqual(facts);
    expect(held).not.toBe(facts);
  });

  it('forgets what it held once it holds many values, so records of their own are not all remembered', () => {
    const pool = new CellPool();
    const first = pool.cell(new Date(0));
    for (let day = 1; day <= 5000; day++) pool.cell(new Date(day * 86400000));
    const again = new Date(0);
    expect(pool.cell(again)).toBe(again);
    expect(pool.cell(new Date(0))).toBe(again);
    expect(again).not.toBe(first);
  });
});
