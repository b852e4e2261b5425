/**
 * Keeps the sidebar true to what happens outside it: a job run from the menu or by the
 * schedule (its rows done while it runs, its result when it ends), the schedule turned off in
 * the menu. Nothing can push to a sidebar, so it asks, every few seconds while it is visible (a
 * poll is two cache reads on the server) and at once when it becomes visible again; hidden, it
 * asks nothing.
 */
import type {SidebarPoll, SidebarState} from '../../jobs/sidebar-state';
import type {JobProgress} from '../../platform/ports';
import type {Busy} from './dom';
import {server} from './server';

export const STATE_POLL_MS = 3000;

export class StateWatch {
  private seen: SidebarState | undefined;
  private timer: number | undefined;

  constructor(
    private readonly busy: Busy,
    /** `newJob`: a job was run from the menu since the last change. */
    private readonly changed: (state: SidebarState, newJob: boolean) => void,
    /** At every poll: the job another execution runs now, or null. */
    private readonly running: (progress: JobProgress | null) => void,
  ) {}

  /**
   * Polls from now on, the first time at once: the first answer is the state as it is, only
   * what changes later is news.
   */
  start(): void {
    document.addEventListener('visibilitychange', () => this.follow());
    this.follow();
  }

  private follow(): void {
    window.clearInterval(this.timer);
    this.timer = undefined;
    if (document.visibilityState !== 'visible') return;
    void this.poll();
    this.timer = window.setInterval(() => void this.poll(), STATE_POLL_MS);
  }

  private async poll(): Promise<void> {
    // While the sidebar runs a job it shows that job's own answer; the next poll catches up.
    if (this.busy.running) return;
    let state: SidebarPoll;
    try {
      state = await server.getSidebarState();
    } catch {
      return; // the next poll asks again
    }
    this.running(state.running);
    const seen = this.seen;
    this.seen = state;
    // The first answer that arrives is where the watch starts from.
    if (!seen || state.version === seen.version) return;
    this.changed(
      state,
      !!state.lastJob && state.lastJob.at !== seen.lastJob?.at,
    );
  }
}
