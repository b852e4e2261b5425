/**
 * The browser suites wait on conditions (a locator, a poll's answer), never on fixed times: on a
 * busy machine (a load of 8, issue 36) each step takes longer, so a test is given minutes, not
 * the 30 s of the other projects. A wait that never comes true still fails, at its own limit.
 */
jest.setTimeout(300_000);

/** What Playwright waits for a condition (a locator's waitFor, an action) before failing. */
export const BROWSER_WAIT_MS = 60_000;
