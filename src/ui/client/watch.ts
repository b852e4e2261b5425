/**
 * Keeps the sidebar true to what happens outside it: a job run from the menu, by the schedule
 * or by another editor (its rows done while it runs, its result when it ends), the schedule
 * turned off in the menu. Nothing can push to a sidebar, so it asks (a poll is two cache reads
 * on the server): one question at a time, often while a job runs, seldom when none does, none
 * while the sidebar is hidden or after a long time without the user (poll-plan.ts); the user
 * coming back asks at once. A poll that fails says so, and how to fix it where that is the
 * user's to do.
 *
 * A result is never late for long: when a job seen running ends, its result is asked for at
 * once (a menu job records it just after its progress ends), and when the user leaves the
 * sidebar for the spreadsheet (its menu) the sidebar asks at the busy pace for a while. A
 * sidebar opened or reloaded shows the last job's result at its first answer, so a reload
 * during a job loses nothing: the job's end is recorded whichever execution started it.
 */
import type {
  LastJob,
  SidebarPoll,
  SidebarState,
} from '../../jobs/host/sidebar-state';
import type {JobProgress} from '../../platform/ports';
import {Busy, element, say} from './dom';
import {nextPollDelay, pollAfterEach, pollFailureMessage} from './poll-plan';
import {server} from './server';

/** What the user does that counts as being there. */
const ACTIVITY = ['pointerdown', 'keydown', 'wheel'] as const;

export class StateWatch {
  private seen: SidebarState | undefined;
  private stop: (() => void) | undefined;
  /** The poll under way: a restart waits for it rather than ask beside it. */
  private asking: Promise<void> | undefined;
  private jobRunning = false;
  private lastActivity = Date.now();
  /** When the user last left the sidebar for the spreadsheet; undefined: not since shown. */
  private leftAt: number | undefined;
  /** Polls left to wait for the result of a job seen ending. */
  private awaiting = 0;
  /** This sidebar's own job ended: its recorded end is not news. */
  private ownEnded = false;
  /** When `seen` was last ticked in Alerts, as the last answer said. */
  private ticked: number | null | undefined;
  /** Where a failed poll is said: above everything, since nothing else is then up to date. */
  private readonly message = element('p', '', {
    class: 'message',
    id: 'poll-message',
    role: 'status',
    'aria-live': 'polite',
  });

  constructor(
    private readonly busy: Busy,
    /** `newJob`: a job was run from the menu since the last change. */
    private readonly changed: (state: SidebarState, newJob: boolean) => void,
    /** At every poll: the job another execution runs now, or null. */
    private readonly running: (progress: JobProgress | null) => void,
    /** At the first answer: the last job recorded before the sidebar opened. */
    private readonly restored: (job: LastJob) => void,
    /** Someone ticked `seen` in Alerts since the last answer. */
    private readonly alertsTicked: () => void,
  ) {}

  /** This sidebar's own job has ended and shown its result: its record is no news. */
  ownJobEnded(): void {
    this.ownEnded = true;
  }

  /**
   * Polls from now on, the first time at once: the first answer is the state as it is, only
   * what changes later is news.
   */
  start(): void {
    document.querySelector('main')?.prepend(this.message);
    // Shown again or focused: the user looks at it now, so it asks at once.
    document.addEventListener('visibilitychange', () => this.follow());
    window.addEventListener('focus', () => this.follow());
    // Off to the spreadsheet: a job may start from its menu.
    window.addEventListener('blur', () => {
      this.leftAt = Date.now();
      this.follow();
    });
    for (const type of ACTIVITY) {
      document.addEventListener(type, () => this.userIsHere(), {passive: true});
    }
    this.follow();
  }

  /** The user is back: polling resumes at once if it had stopped. */
  private userIsHere(): void {
    this.lastActivity = Date.now();
    if (!this.stop) this.follow();
  }

  /** Polls while the sidebar is visible, from a poll at once; hidden, it asks nothing. */
  private follow(): void {
    this.stop?.();
    this.stop = undefined;
    if (document.visibilityState !== 'visible') return;
    this.lastActivity = Date.now();
    this.stop = pollAfterEach(
      () =>
        (this.asking ??= this.poll().finally(() => (this.asking = undefined))),
      () => {
        const delay = nextPollDelay({
          jobRunning: this.jobRunning || this.busy.running,
          sinceActivityMs: Date.now() - this.lastActivity,
          awaitingResult: this.awaiting > 0,
          sinceLeftMs:
            this.leftAt === undefined ? undefined : Date.now() - this.leftAt,
        });
        if (delay === null) this.stop = undefined;
        return delay;
      },
    );
  }

  private async poll(): Promise<void> {
    // While the sidebar runs a job it shows that job's own answer; the next poll catches up.
    if (this.busy.running) return;
    let state: SidebarPoll;
    try {
      state = await server.getSidebarState();
    } catch (e) {
      say(this.message, pollFailureMessage((e as Error).message), 'error');
      return;
    }
    say(this.message, '');
    const ended = this.jobRunning && state.running === null;
    this.jobRunning = state.running !== null;
    this.running(state.running);
    if (this.ticked !== undefined && state.alertsTicked !== this.ticked)
      this.alertsTicked();
    this.ticked = state.alertsTicked;
    const seen = this.seen;
    this.seen = state;
    // The first answer that arrives is where the watch starts from: its last job is shown.
    if (!seen) {
      if (state.lastJob) this.restored(state.lastJob);
      return;
    }
    if (state.version === seen.version) {
      // Ten seconds at most: a job that records no end (a revert) is not waited for longer.
      this.awaiting = ended ? 10 : Math.max(0, this.awaiting - 1);
      return;
    }
    this.awaiting = 0;
    const newJob = !!state.lastJob && state.lastJob.at !== seen.lastJob?.at;
    const own = newJob && this.ownEnded && state.lastJob?.from === 'sidebar';
    if (newJob) this.ownEnded = false;
    this.changed(state, newJob && !own);
  }
}
