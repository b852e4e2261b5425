import {TimeBudget} from '../../../src/jobs/run';

/** A clock the test moves, and a batch that takes `ms` of it. */
function clocked() {
  let now = 1_000_000;
  const budget = new TimeBudget(() => now);
  const batch = (ms: number) => budget.batch(() => ((now += ms), ms));
  return {budget, batch, wait: (ms: number) => (now += ms)};
}

describe('the time budget of a job', () => {
  it('starts a batch while the slowest so far would end before the 5-minute retry deadline', () => {
    const {batch, wait} = clocked();
    expect(batch(40_000)).toBe(40_000);
    wait(200_000);
    // 240 s gone: a 40 s batch ends at 280 s, in time.
    expect(batch(10_000)).toBe(10_000);
    // 250 s gone: the slowest batch (40 s) would end at 290 s, in time.
    expect(batch(40_000)).toBe(40_000);
    // 290 s gone: 40 s more would pass 300 s: not started.
    expect(batch(1_000)).toBeUndefined();
  });

  it('starts nothing after 4.5 minutes, however quick the batches were', () => {
    const {batch, wait} = clocked();
    wait(270_000);
    expect(batch(1)).toBeUndefined();
  });

  it('measures a batch that throws', () => {
    const {budget, wait} = clocked();
    expect(() =>
      budget.batch(() => {
        wait(100_000);
        throw new Error('lost');
      }),
    ).toThrow('lost');
    wait(110_000);
    // 210 s gone: the slowest batch (100 s) would end past 300 s.
    expect(budget.batch(() => 'sent')).toBeUndefined();
  });

  it('tells how many batches in a row fit: each as slow as the slowest so far', () => {
    const {budget, batch, wait} = clocked();
    batch(40_000);
    wait(100_000);
    // 140 s gone: 3 more of 40 s end at 260 s, 4 at 300 s, 5 at 340 s.
    expect([3, 4, 5].map(n => budget.fits(n))).toEqual([true, true, false]);
  });

  it('counts from the start of the execution when a job runs after another in it', () => {
    let now = 1_000_000;
    const budget = new TimeBudget(() => now, now - 200_000);
    // What a job's plan must fit: 70 s of the 4.5 minutes.
    expect(budget.leftMs()).toBe(70_000);
    now += 70_000;
    expect(budget.canStart()).toBe(false);
    now += 1;
    expect(budget.batch(() => 'sent')).toBeUndefined();
  });
});
