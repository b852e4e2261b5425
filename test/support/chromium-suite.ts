/**
 * Browser suites need Debian's chromium. Without it a suite is skipped and, after the run,
 * skip-banner-reporter.js says so in a banner no one can miss (jest drops console output of a
 * suite that runs no test); under CI (where .ci/run installs it) a missing chromium fails the
 * suite instead.
 */
import {CHROMIUM_PATH, haveChromium} from '../../local/playground/chromium';

/** `describe` when Chromium can run `what`, else a skip (or, under CI, a failure). */
export function describeInChromium(
  what: string,
  title: string,
  body: () => void,
): void {
  if (haveChromium()) {
    describe(title, body);
    return;
  }
  if (process.env.CI) {
    describe(title, () => {
      it('has Chromium to run in', () => {
        throw new Error(
          `CI is set and Chromium is missing at ${CHROMIUM_PATH}: ${what} must be tested in CI (apt-get install -y chromium).`,
        );
      });
    });
    return;
  }
  describe.skip(title, body);
}
