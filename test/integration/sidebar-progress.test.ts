/**
 * The sidebar's poll (getSidebarState) shows a job's name and rows done whoever started it:
 * from the menu, or the schedule's trigger. Apps Script runs the poll in an execution of its
 * own beside the job; the sidebar host serves it between the job's API exchanges, as it would.
 */
import {join} from 'node:path';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {SidebarHost, startSidebarHost} from '../../local/sidebar-host';
import type {SidebarPoll} from '../../src/jobs/host/sidebar-state';
import type {JobProgress} from '../../src/platform/ports';
import {Started} from '../support/started';

describe('the sidebar’s poll while a job started elsewhere runs', () => {
  const started = new Started();
  let host: SidebarHost;

  beforeAll(async () => {
    host = await started.keep(
      startSidebarHost({
        worldModule: join(__dirname, '../browser/world.ts'),
        worldOptions: {emulator: {offers: 600, campaigns: 12, materials: 4}},
        fetchDelayMs: 20,
      }),
      h => h.close(),
    );
    await host.call('saveSettings', [
      {
        baseUrl: 'https://api.emulator.test',
        accessKey: DEMO_ACCOUNTS.main.accessKey,
        apiKey: DEMO_ACCOUNTS.main.apiKey,
      },
    ]);
  }, 30000);

  afterAll(() => started.stopAll());

  const poll = async (): Promise<SidebarPoll> => {
    const answer = await host.call('getSidebarState', []);
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value as SidebarPoll;
  };

  /** Every `running` the poll answered while `work` ran, then the state after it. */
  async function watch(
    work: Promise<unknown>,
  ): Promise<{seen: JobProgress[]; after: SidebarPoll}> {
    let finished = false;
    void work.then(() => (finished = true));
    const seen: JobProgress[] = [];
    while (!finished) {
      const state = await poll();
      if (state.running && !finished) seen.push(state.running);
      await new Promise(resolve => setTimeout(resolve, 15));
    }
    await work;
    return {seen, after: await poll()};
  }

  it('shows a menu job’s rows done while it runs, then its summary and nothing running', async () => {
    const {seen, after} = await watch(
      host.invoke('clickMenu', 'Refresh offers and budgets'),
    );
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen.map(p => p.job))).toEqual(new Set(['refreshOffers']));
    expect(seen.every(p => p.total === 600 && p.done < p.total)).toBe(true);
    expect(seen.some(p => p.done > 0)).toBe(true);
    expect(after.running).toBeNull();
    expect(after.lastJob).toMatchObject({
      title: 'Refresh offers and budgets',
      summary: {
        message:
          'Refreshed 600 offers (main account): Offers: 600 new, 0 removed; Budgets: 600 new, 0 removed.',
      },
    });
  });

  it('shows a scheduled run’s rows done while it runs, then its result in the schedule', async () => {
    await host.call('setRefreshSchedule', [1, {job: 'refreshOffers'}]);
    const before = await poll();
    const {seen, after} = await watch(host.invoke('passHours', 1));
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen.map(p => p.job))).toEqual(new Set(['refreshOffers']));
    expect(seen.some(p => p.done > 0 && p.done < p.total)).toBe(true);
    expect(after.running).toBeNull();
    expect(after.version).toBeGreaterThan(before.version);
    const schedule = await host.call('getSchedule', []);
    expect(schedule).toMatchObject({
      ok: true,
      value: {
        lastRun: {
          outcome: 'ok',
          message:
            'Refresh offers and budgets: Refreshed 600 offers (main account).',
        },
      },
    });
  });
});
