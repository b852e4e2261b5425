/**
 * A scheduled run is one execution of two jobs (src/index.ts): the due scheduled changes, then
 * the refresh, under one document lock and over one state book. The built dist/Code.js in the
 * local runtime against the emulator.
 */
import type {Runtime} from '../../local/runtime';
import {budgetsPulled, capSent} from '../support/history';
import {recordsOf} from '../support/offer-desk';

const HOUR_MS = 3600_000;
const STATE_SHEET = 'Offer Desk state';

const nowS = (rt: Runtime) => Math.floor(rt.clock.now() / 1000);

/** Runs the due triggers up to `n` hours from now; answers their errors. */
const hours = (rt: Runtime, n: number) =>
  rt.runDueTriggers(rt.clock.now() + n * HOUR_MS).map(r => r.error);

/** Counts the add-on's reads of `sheet`'s values from now on. */
function readsOf(rt: Runtime, sheet: string): {n: number} {
  const reads = {n: 0};
  const count = () => {
    reads.n++;
    rt.collaborator.afterRead(sheet, count);
  };
  rt.collaborator.afterRead(sheet, count);
  return reads;
}

describe('a scheduled run with changes due', () => {
  it('sends them and refreshes under one document lock, reading the state sheet as often as a refresh alone', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(5);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    rt.call('pushBudgets', {at: nowS(rt) + 2 * 3600});
    // The first hourly run finds nothing due.
    expect(hours(rt, 1)).toEqual([undefined]);
    const since = emulator.requests.length;

    rt.meter.reset();
    const stateReads = readsOf(rt, STATE_SHEET);
    expect(hours(rt, 1)).toEqual([undefined]);
    const inRun = stateReads.n;
    const {counts} = rt.snapshot();
    // Taken once and held across both jobs: no push can run between them.
    expect([counts['Lock.tryLock'], counts['Lock.releaseLock']]).toEqual([
      1, 1,
    ]);
    expect(
      emulator.requests
        .slice(since)
        .filter(r => r.method === 'PUT')
        .map(r => r.body),
    ).toEqual(ids.map((id, k) => capSent(id, 150 + k)));
    expect(recordsOf(rt, 'Scheduled').map(r => r.status)).toEqual(
      Array(5).fill('OK'),
    );
    // The refresh after the changes shows what they made live.
    expect(ids.map(id => budget(id).daily_cap)).toEqual([
      150, 151, 152, 153, 154,
    ]);
    expect(
      (rt.call('getSchedule') as {lastRun: unknown}).lastRun,
    ).toMatchObject({
      outcome: 'ok',
      message: expect.stringMatching(
        /^Refresh everything: Scheduled changes: 5 fields sent\. See the Scheduled sheet\. Refreshed /,
      ),
    });

    // The state book is read once, when the changes open it; the refresh reads what they left.
    stateReads.n = 0;
    rt.call('refreshAll');
    expect(stateReads.n).toBeGreaterThan(0);
    expect(inRun).toBe(stateReads.n);
  });
});

describe('a scheduled run whose changes took its time', () => {
  it('starts no refresh after 4.5 minutes of the execution; the next run refreshes', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(5);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    rt.call('pushBudgets', {at: nowS(rt) + 2 * 3600});
    expect(hours(rt, 1)).toEqual([undefined]);
    const since = emulator.requests.length;
    // Each exchange takes 140 s: the changes' read, then their PUTs, end 280 s into the run.
    emulator.faults.configure({latencyMs: 140_000});
    expect(hours(rt, 1)).toEqual([undefined]);
    const run = rt.executions.at(-1)!;
    expect(run.endMs! - run.startMs).toBeLessThan(5 * 60 * 1000);
    expect(
      emulator.requests.slice(since).map(r => `${r.method} ${r.path}`),
    ).toEqual([
      'GET /api/open/v3/offers',
      ...Array(5).fill('PUT /api/open/v3/offer/budget'),
    ]);
    expect(
      (rt.call('getSchedule') as {lastRun: unknown}).lastRun,
    ).toMatchObject({
      outcome: 'ok',
      message:
        'Refresh everything: Scheduled changes: 5 fields sent. See the Scheduled sheet. The refresh did not start: the changes took the time of this run, and the next run refreshes.',
    });
    // Budgets shows what was last pulled until a refresh shows what the changes made live.
    expect(budget(ids[0]).daily_cap).toBe(100);

    emulator.faults.configure({latencyMs: 0});
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(ids.map(id => budget(id).daily_cap)).toEqual([
      150, 151, 152, 153, 154,
    ]);
  });
});
