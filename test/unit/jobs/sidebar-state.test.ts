import {runAction, runFromMenu} from '../../../src/jobs/host/menu';
import {
  scheduledRefresh,
  setRefreshSchedule,
} from '../../../src/jobs/host/schedule';
import {withDocumentLock} from '../../../src/jobs/run';
import {
  STATE_LIMIT,
  pollSidebar,
  readSidebarState,
  scheduleChanged,
} from '../../../src/jobs/host/sidebar-state';
import type {JobProgress, Workbook} from '../../../src/platform/ports';
import {ScriptedTransport, fakePlatform} from '../../support/fakes';
import {RecordingTriggers, RecordingUi, summary} from '../ui/fakes';

const KEY = 'offerDesk.sidebarState.doc-1';

function setup() {
  const workbook = {
    timeZone: () => 'Etc/UTC',
    name: () => 'Offers',
    flush: () => undefined,
    // No state sheet: a schedule saved here is priced on empty lists.
    sheet: () => null,
  } as unknown as Workbook;
  const platform = fakePlatform(
    new ScriptedTransport(() => {
      throw new Error('no request expected');
    }),
    {
      ui: new RecordingUi(),
      triggers: new RecordingTriggers(),
      workbook: () => workbook,
    },
  );
  platform.clock.now = () => 1_767_618_047_000;
  return platform;
}

describe('the state the sidebar polls', () => {
  it('costs one cache read a poll, and one property read after a cache miss', () => {
    const platform = setup();
    const props = jest.spyOn(platform.userProperties, 'get');
    expect(readSidebarState(platform)).toEqual({version: 0, lastJob: null});
    expect(props).toHaveBeenCalledTimes(1);
    props.mockClear();
    platform.userCache.reads = 0;
    readSidebarState(platform);
    readSidebarState(platform);
    expect(platform.userCache.reads).toBe(2);
    expect(props).not.toHaveBeenCalled();

    runFromMenu(platform, 'refreshCampaigns', () =>
      summary({ok: 12, message: 'Refreshed 12 campaigns (main account).'}),
    );
    platform.userCache.values.clear();
    expect(readSidebarState(platform)).toEqual({
      version: 1_767_618_047_000,
      lastJob: {
        title: 'Refresh campaigns',
        at: 1_767_618_047_000,
        summary: expect.objectContaining({
          message: 'Refreshed 12 campaigns (main account).',
        }),
      },
    });
    // The record's write reads which spreadsheets were used last (settings-store.ts).
    expect(props.mock.calls.map(([key]) => key)).toEqual([
      'offerDesk.spreadsheets',
      'offerDesk.sidebarState.doc-1',
    ]);
  });

  it('records a menu job that could not run, with its reason', () => {
    const platform = setup();
    runFromMenu(platform, 'pushBudgets', () => {
      throw new Error('boom');
    });
    expect(readSidebarState(platform).lastJob).toEqual({
      title: 'Push budgets',
      at: 1_767_618_047_000,
      failure:
        'Offer Desk stopped unexpectedly: boom. Rows already written keep their status; running the job again continues.',
    });
  });

  it('moves on when the schedule is turned off from the menu and after a scheduled run, keeping the last menu job', () => {
    const platform = setup();
    setRefreshSchedule(platform, 4);
    runFromMenu(platform, 'refreshCampaigns', () => summary({ok: 1}));
    const afterJob = readSidebarState(platform);
    scheduledRefresh(platform, () => summary({ok: 1}));
    const afterRun = readSidebarState(platform);
    expect(afterRun.version).toBeGreaterThan(afterJob.version);
    runAction(platform, 'Scheduled refresh', () => {
      setRefreshSchedule(platform, 0);
      return 'off';
    });
    const afterOff = readSidebarState(platform);
    expect(afterOff.version).toBeGreaterThan(afterRun.version);
    expect(afterOff.lastJob).toEqual(afterJob.lastJob);
  });

  it('reads the state once to record a change', () => {
    const platform = setup();
    const props = jest.spyOn(platform.userProperties, 'get');
    platform.userCache.reads = 0;
    scheduleChanged(platform);
    runFromMenu(platform, 'refreshCampaigns', () => summary({ok: 1}));
    expect(platform.userCache.reads).toBe(2);
    // The state once, and at each write which spreadsheets were used last (settings-store.ts).
    expect(props.mock.calls.map(([key]) => key)).toEqual([
      'offerDesk.sidebarState.doc-1',
      'offerDesk.spreadsheets',
      'offerDesk.spreadsheets',
    ]);
  });

  it('fits a property value (9 KB): preview bodies left out, listed rows cut', () => {
    const platform = setup();
    const problems = Array.from({length: 50}, (_, i) => ({
      sheet: 'Budgets',
      row: i + 2,
      status: 'INVALID' as const,
      message: 'x'.repeat(400),
    }));
    runFromMenu(
      platform,
      'pushBudgets',
      () =>
        summary({
          invalid: 50,
          problems,
          wouldSend: [{big: 'y'.repeat(20000)}],
          message: '50 rows INVALID',
        }),
      true,
    );
    const stored = platform.userProperties.get(KEY)!;
    expect(stored.length).toBeLessThanOrEqual(STATE_LIMIT + 100);
    const job = readSidebarState(platform).lastJob!;
    expect(job.title).toBe('Push budgets (preview)');
    expect(job.summary!.wouldSend).toBeUndefined();
    expect(job.summary!.problems.length).toBeGreaterThan(0);
    expect(job.summary!.problems.length).toBeLessThan(50);
    expect(job.summary!.invalid).toBe(50);
  });
});

describe('the job running now, in the poll', () => {
  it('is the progress entry while rows remain, begun no longer ago than an execution lasts', () => {
    const platform = setup();
    const now = platform.clock.now();
    const running: JobProgress = {
      job: 'refreshAll',
      done: 40,
      total: 600,
      at: now - 1000,
      since: now - 60_000,
    };
    let entry: JobProgress | null = running;
    jest.spyOn(platform.progress, 'read').mockImplementation(() => entry);
    expect(pollSidebar(platform)).toEqual({
      version: 0,
      lastJob: null,
      running,
      alertsTicked: null,
    });
    entry = {...running, done: 600};
    expect(pollSidebar(platform).running).toBeNull();
    // Apps Script cut that one off at 6 minutes: it could not remove its entry.
    entry = {...running, since: now - 6 * 60_000 - 1};
    expect(pollSidebar(platform).running).toBeNull();
    entry = null;
    expect(pollSidebar(platform).running).toBeNull();
  });

  it('ends with its job, however the job ends', () => {
    const platform = setup();
    expect(() =>
      withDocumentLock(platform, () => {
        platform.progress.report('pushBudgets', 10, 50);
        // Not before: while the job runs, its entry is what the sidebar shows.
        expect(platform.progress.ended).toBe(0);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(platform.progress.ended).toBe(1);
    withDocumentLock(platform, () => {
      expect(platform.progress.ended).toBe(1);
      return 'done';
    });
    expect(platform.progress.ended).toBe(2);
  });

  it('releases the lock even when the cache fails to remove the entry', () => {
    const platform = setup();
    jest.spyOn(platform.progress, 'end').mockImplementation(() => {
      throw new Error('Service invoked too many times: cache');
    });
    expect(() => withDocumentLock(platform, () => 'done')).toThrow('cache');
    (platform.progress.end as jest.Mock).mockRestore();
    expect(withDocumentLock(platform, () => 'next')).toBe('next');
  });
});
