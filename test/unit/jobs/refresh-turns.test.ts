/**
 * Whose turn it is when a refresh of every account does not fit its run
 * (src/jobs/refresh/refresh-turns.ts): those refreshed longest ago first.
 */
import {
  afterRefresh,
  inTurn,
  takesTurns,
  turnsKey,
} from '../../../src/jobs/refresh/refresh-turns';
import {EVERY_ACCOUNT} from '../../../src/jobs/settings-store';

describe('the turn of each account', () => {
  it('takes those the queue does not hold first, in the order given, then the queue', () => {
    expect(inTurn(['', 'a', 'b'], [])).toEqual(['', 'a', 'b']);
    expect(inTurn(['', 'a', 'b'], ['b', '', 'a'])).toEqual(['b', '', 'a']);
    // c is new; d is no longer acted for.
    expect(inTurn(['', 'a', 'b', 'c'], ['d', 'b', '', 'a'])).toEqual([
      'c',
      'b',
      '',
      'a',
    ]);
  });

  it('puts those a refresh wrote behind those it left out, each keeping its order', () => {
    expect(afterRefresh(['', 'a', 'b'], [''])).toEqual(['a', 'b', '']);
    expect(afterRefresh(['a', 'b', ''], ['a', 'b'])).toEqual(['', 'a', 'b']);
    // Every account written: the queue as it was (no state written).
    expect(afterRefresh(['b', '', 'a'], ['', 'a', 'b'])).toEqual([
      'b',
      '',
      'a',
    ]);
    // One the listing found besides those priced goes last.
    expect(afterRefresh(['', 'a'], ['', 'c'])).toEqual(['a', '', 'c']);
  });

  it('gives three runs with time for one account each every account once', () => {
    let queue: string[] = [];
    const taken: string[] = [];
    for (let run = 0; run < 3; run++) {
      const order = inTurn(['', 'a', 'b'], queue);
      taken.push(order[0]);
      queue = afterRefresh(order, [order[0]]);
    }
    expect(taken).toEqual(['', 'a', 'b']);
  });

  it("is taken acting as every account with lists of each account's own, one queue per refresh", () => {
    const offers = {cost: {sheets: ['Offers', 'Budgets']}};
    const subAccounts = {mainOnly: true, cost: {sheets: ['Sub-accounts']}};
    expect(takesTurns(EVERY_ACCOUNT, [offers, subAccounts])).toBe(true);
    expect(takesTurns(EVERY_ACCOUNT, [subAccounts])).toBe(false);
    expect(takesTurns('a', [offers])).toBe(false);
    expect(turnsKey([offers, subAccounts])).toBe('Offers, Sub-accounts');
  });
});
