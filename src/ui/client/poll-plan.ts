/**
 * When the sidebar asks the server again. Each poll is an Apps Script execution and costs the
 * user's quota, so the next one is planned only once the last has answered (never two at
 * once): every few seconds while a job runs, slowly while nothing does, and not at all once
 * nobody has touched the sidebar for a long time (a sidebar left open overnight). Any sign of
 * the user (a click, a key, focus, the sidebar shown again) polls at once and starts over.
 */

/** While a job runs (this sidebar's, the menu's, the schedule's, another editor's). */
export const BUSY_POLL_MS = 3000;
/** While no job runs: a menu job's or a scheduled run's result still shows within 15 s. */
export const IDLE_POLL_MS = 15_000;
/** After this long without the user, the sidebar stops asking until they are back. */
export const STOP_AFTER_IDLE_MS = 30 * 60_000;
/** How often the sidebar asks how far its own job has come while it runs. */
export const OWN_JOB_POLL_MS = 600;
/**
 * A job seen running has ended and its result is not recorded yet (a menu job records it
 * after its progress ends): the result is asked for this soon, so no old one shows for long.
 */
export const RESULT_POLL_MS = 1000;
/**
 * The user left the sidebar for the spreadsheet (its menu, a cell): a job may start there, so
 * the sidebar asks at the busy pace for this long.
 */
export const HURRY_MS = 60_000;
/**
 * The first seconds of that: a menu job is chosen soon after leaving, and a result seconds old
 * (a preview's summary still shown beside a push just made) misleads (issue 36), so the sidebar
 * asks every second. A poll is two cache reads: twenty of them cost less than one job.
 */
export const HURRY_FAST_MS = 20_000;

export interface PollFacts {
  /** A job runs now, as the last answer said, or this sidebar runs one. */
  jobRunning: boolean;
  /** Since the user last did something in the sidebar (or it was shown), in ms. */
  sinceActivityMs: number;
  /** A job seen running has ended and its result has not arrived yet. */
  awaitingResult?: boolean;
  /** Since the user left the sidebar for the spreadsheet, in ms (undefined: not since). */
  sinceLeftMs?: number;
}

/** Milliseconds until the next poll, or null: stop until the user is back. */
export function nextPollDelay(facts: PollFacts): number | null {
  if (facts.awaitingResult) return RESULT_POLL_MS;
  if (facts.jobRunning) return BUSY_POLL_MS;
  if (facts.sinceLeftMs !== undefined && facts.sinceLeftMs < HURRY_FAST_MS)
    return RESULT_POLL_MS;
  if (facts.sinceLeftMs !== undefined && facts.sinceLeftMs < HURRY_MS)
    return BUSY_POLL_MS;
  return facts.sinceActivityMs >= STOP_AFTER_IDLE_MS ? null : IDLE_POLL_MS;
}

/**
 * Runs `poll`, then again `delay()` ms after each answer, until `delay` says null or the
 * answer to `stop()`: one poll at a time however slow the server is. Answers `stop`.
 */
export function pollAfterEach(
  poll: () => Promise<void>,
  delay: () => number | null,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = async (): Promise<void> => {
    // A poll says its own failures; one that throws still leads to the next.
    await poll().catch(() => undefined);
    if (stopped) return;
    const ms = delay();
    if (ms !== null) timer = setTimeout(() => void next(), ms);
  };
  void next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * What the sidebar says when a poll failed. A browser signed into several Google accounts
 * makes google.script.run fail with an authorization error (Google's known limitation of
 * add-ons): the fix is the user's, and the message says it.
 */
export function pollFailureMessage(error: string): string {
  if (/authori[sz]|permission/i.test(error)) {
    return `The sidebar cannot reach Offer Desk: Google refused its call (${error}). This happens when the browser is signed into more than one Google account. Use one Google account per browser profile (or a private window signed into this account only), then open the sidebar again.`;
  }
  return `The sidebar cannot reach Offer Desk (${error}): it does not show what runs elsewhere until it can. It tries again by itself.`;
}
