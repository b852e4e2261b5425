/**
 * Issue 27, "Changes that go out later" (DESIGN 4.5): a push given a time never sends now. The
 * built dist/Code.js in the local runtime against the emulator.
 */
import {budgetsPulled} from '../support/history';

const HOUR_S = 3600;

describe('a push given a time', () => {
  it('sends nothing now and keeps the edits', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(2);
    cap(ids[0], '150');
    const at = Math.floor(rt.clock.now() / 1000) + HOUR_S;
    const before = emulator.requests.length;
    expect(() => rt.call('pushBudgets', {at})).toThrow(/nothing was sent/);
    expect(emulator.requests.slice(before).map(r => r.method)).toEqual([]);
    expect(budget(ids[0]).daily_cap).toBe(150);
  });
});
