import {
  BUSY_POLL_MS,
  HURRY_FAST_MS,
  HURRY_MS,
  IDLE_POLL_MS,
  RESULT_POLL_MS,
  STOP_AFTER_IDLE_MS,
  nextPollDelay,
  pollAfterEach,
  pollFailureMessage,
} from '../../../src/ui/client/poll-plan';

describe('when the sidebar asks again', () => {
  it('every 3 s while a job runs, whoever started it, however long ago the user was here', () => {
    expect(nextPollDelay({jobRunning: true, sinceActivityMs: 0})).toBe(3000);
    expect(
      nextPollDelay({
        jobRunning: true,
        sinceActivityMs: 5 * STOP_AFTER_IDLE_MS,
      }),
    ).toBe(BUSY_POLL_MS);
  });

  it('every 15 s while none runs, and not at all after 30 minutes without the user', () => {
    expect(nextPollDelay({jobRunning: false, sinceActivityMs: 0})).toBe(15000);
    expect(
      nextPollDelay({jobRunning: false, sinceActivityMs: 29 * 60_000}),
    ).toBe(IDLE_POLL_MS);
    expect(
      nextPollDelay({jobRunning: false, sinceActivityMs: 30 * 60_000}),
    ).toBeNull();
  });
});

describe('a result never late for long', () => {
  it('every second while the result of a job seen ending has not arrived', () => {
    expect(
      nextPollDelay({
        jobRunning: false,
        sinceActivityMs: 0,
        awaitingResult: true,
      }),
    ).toBe(RESULT_POLL_MS);
  });

  it('every second for 20 s after the user left the sidebar for the spreadsheet (its menu), every 3 s to a minute, then every 15 s', () => {
    const idle = {jobRunning: false, sinceActivityMs: 0};
    // A menu job is chosen within seconds of leaving: its result shows within a second or so.
    expect(nextPollDelay({...idle, sinceLeftMs: 0})).toBe(RESULT_POLL_MS);
    expect(nextPollDelay({...idle, sinceLeftMs: HURRY_FAST_MS - 1})).toBe(
      RESULT_POLL_MS,
    );
    expect(nextPollDelay({...idle, sinceLeftMs: HURRY_FAST_MS})).toBe(
      BUSY_POLL_MS,
    );
    expect(nextPollDelay({...idle, sinceLeftMs: HURRY_MS - 1})).toBe(
      BUSY_POLL_MS,
    );
    expect(nextPollDelay({...idle, sinceLeftMs: HURRY_MS})).toBe(IDLE_POLL_MS);
  });
});

describe('polls chained after each answer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A poll whose answer takes `answerMs`, counting how many are under way at most. */
  function slowPoll(answerMs: number) {
    const seen = {started: 0, underWay: 0, most: 0};
    const poll = () => {
      seen.started++;
      seen.underWay++;
      seen.most = Math.max(seen.most, seen.underWay);
      return new Promise<void>(resolve =>
        setTimeout(() => {
          seen.underWay--;
          resolve();
        }, answerMs),
      );
    };
    return {seen, poll};
  }

  it('never overlap: the next is planned only once the last answered', async () => {
    // Answers take 5 s, longer than the 3 s between polls.
    const {seen, poll} = slowPoll(5000);
    const stop = pollAfterEach(poll, () => 3000);
    await jest.advanceTimersByTimeAsync(60_000);
    stop();
    expect(seen.most).toBe(1);
    // One every 8 s (5 s answer, 3 s pause): the 1st at 0 s, ..., the 8th at 56 s.
    expect(seen.started).toBe(8);
  });

  it('stop when the plan says so, and when stopped', async () => {
    const {seen, poll} = slowPoll(10);
    let left = 3;
    pollAfterEach(poll, () => (--left > 0 ? 1000 : null));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(seen.started).toBe(3);

    const other = slowPoll(10);
    const stop = pollAfterEach(other.poll, () => 1000);
    await jest.advanceTimersByTimeAsync(2500);
    stop();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(other.seen.started).toBe(3);
  });

  it('go on after a poll that threw', async () => {
    let calls = 0;
    const stop = pollAfterEach(
      () => {
        calls++;
        return Promise.reject(new Error('boom'));
      },
      () => 1000,
    );
    await jest.advanceTimersByTimeAsync(2500);
    stop();
    expect(calls).toBe(3);
  });
});

describe('a failed poll', () => {
  it('says how to fix the authorization error of a browser signed into several accounts', () => {
    expect(
      pollFailureMessage(
        'ScriptError: Authorization is required to perform that action.',
      ),
    ).toBe(
      'The sidebar cannot reach Offer Desk: Google refused its call (ScriptError: Authorization is required to perform that action.). This happens when the browser is signed into more than one Google account. Use one Google account per browser profile (or a private window signed into this account only), then open the sidebar again.',
    );
    expect(
      pollFailureMessage(
        'We are sorry, a server error occurred while reading from storage. Error code PERMISSION_DENIED.',
      ),
    ).toMatch(/one Google account per browser profile/);
  });

  it('says that the sidebar is behind for any other failure', () => {
    expect(pollFailureMessage('NetworkError: Connection failure')).toBe(
      'The sidebar cannot reach Offer Desk (NetworkError: Connection failure): it does not show what runs elsewhere until it can. It tries again by itself.',
    );
  });
});
