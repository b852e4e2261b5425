/**
 * Issue 20, "Large accounts": no Spreadsheet call carries an unbounded block. The built add-on
 * pulls 10,000 offers (Offers alone holds 360,000 cells and 5 million characters, the hidden
 * state sheet 3.7 million) and pulls them again (every sheet read back): each call that
 * carries a block stays within 100,000 cells and 2,000,000 characters (src/platform/blocks.ts,
 * docs/limits.md). The 50,000-offer pull itself is a bench scenario (bench/README.md).
 */
import {FakeRange} from '../../local/runtime/spreadsheet/range';
import {offerDesk, recordsOf} from '../support/offer-desk';

const CELLS = 100_000;
const CHARS = 2_000_000;
/** Enough for the state sheet's Offers section to pass 2,000,000 characters (some 220 an offer). */
const OFFERS = 10_000;

interface Carried {
  method: string;
  sheet: string;
  cells: number;
  chars: number;
}

/** A cell's characters as the service carries it: a date as its ISO text. */
const charsOfCell = (cell: unknown) =>
  cell === null
    ? 0
    : Object.prototype.toString.call(cell) === '[object Date]'
      ? (cell as Date).toISOString().length
      : String(cell).length;

const charsOf = (block: unknown[][]) =>
  block.reduce<number>(
    (n, row) => n + row.reduce<number>((m, cell) => m + charsOfCell(cell), 0),
    0,
  );

/** Records every block a Range call carries, written or read. */
function watchBlocks(): {carried: Carried[]; stop(): void} {
  const carried: Carried[] = [];
  const methods = [
    'setValues',
    'getValues',
    'getFormulas',
    'getNumberFormats',
    'setBackgrounds',
    'setNotes',
  ] as const;
  const spies = methods.map(method => {
    const original = FakeRange.prototype[method] as (
      this: FakeRange,
      ...args: unknown[]
    ) => unknown;
    return jest.spyOn(FakeRange.prototype, method).mockImplementation(function (
      this: FakeRange,
      ...args: unknown[]
    ) {
      const result = original.apply(this, args);
      const block = (
        method.startsWith('set') ? args[0] : result
      ) as unknown[][];
      carried.push({
        method,
        sheet: this.getSheet().getName(),
        cells: block.length * (block[0]?.length ?? 0),
        chars: charsOf(block),
      });
      return result;
    } as never);
  });
  return {carried, stop: () => spies.forEach(s => s.mockRestore())};
}

describe(`a large account: ${OFFERS.toLocaleString('en-US')} offers`, () => {
  it('pulls and pulls again with every Spreadsheet call within 100,000 cells and 2,000,000 characters', () => {
    const {rt} = offerDesk({offers: OFFERS, campaigns: 50});
    const watch = watchBlocks();
    try {
      expect(rt.call('refreshOffers')).toMatchObject({
        ok: OFFERS,
        remaining: 0,
      });
      const firstPull = watch.carried.splice(0);
      expect(rt.call('refreshOffers')).toMatchObject({
        ok: OFFERS,
        remaining: 0,
      });
      const secondPull = watch.carried.splice(0);

      for (const call of [...firstPull, ...secondPull]) {
        expect(call.cells).toBeLessThanOrEqual(CELLS);
        expect(call.chars).toBeLessThanOrEqual(CHARS);
      }
      const total = (calls: Carried[], method: string, sheet: string) =>
        calls
          .filter(c => c.method === method && c.sheet === sheet)
          .reduce(
            (sum, c) => ({
              calls: sum.calls + 1,
              cells: sum.cells + c.cells,
              chars: sum.chars + c.chars,
            }),
            {calls: 0, cells: 0, chars: 0},
          );
      // The blocks were far bigger than one call may carry: the bound split each of them.
      expect(total(firstPull, 'setValues', 'Offers').chars).toBeGreaterThan(
        2 * CHARS,
      );
      expect(total(secondPull, 'getValues', 'Offers').chars).toBeGreaterThan(
        2 * CHARS,
      );
      // The state keeps no second copy of the sheets (issue 37: stored by column): at most a
      // quarter of the characters the pull writes to them.
      const pulled = ['Offers', 'Budgets'].reduce(
        (n, sheet) => n + total(firstPull, 'setValues', sheet).chars,
        0,
      );
      expect(
        total(firstPull, 'setValues', 'Offer Desk state').chars,
      ).toBeLessThan(pulled / 4);
    } finally {
      watch.stop();
    }
    expect(recordsOf(rt, 'Offers')).toHaveLength(OFFERS);
  }, 120_000);
});
