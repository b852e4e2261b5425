/**
 * Keeps the sidebar true to what happens outside it: a job run from the menu, the schedule
 * turned off in the menu, a scheduled run. Nothing can push to a sidebar, so it asks, every
 * few seconds while it is visible (a poll is one cache read on the server) and at once when it
 * becomes visible again; hidden, it asks nothing.
 */
import type {SidebarState} from '../../jobs/sidebar-state';
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
  ) {}

  /** Starts from the state as it is now: only what changes later is news. */
  async start(): Promise<void> {
    try {
      this.seen = await server.getSidebarState();
    } catch {
      // The first poll that succeeds sets it.
    }
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
    let state: SidebarState;
    try {
      state = await server.getSidebarState();
    } catch {
      return; // the next poll asks again
    }
    const seen = this.seen;
    this.seen = state;
    if (!seen || state.version === seen.version) return;
    this.changed(
      state,
      !!state.lastJob && state.lastJob.at !== seen.lastJob?.at,
    );
  }
}
