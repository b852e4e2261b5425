/**
 * Browser suites need Debian's chromium. Without it a suite is skipped, with a banner no one
 * can miss; under CI (where .ci/run installs it) a missing chromium fails the suite instead.
 */
import {CHROMIUM_PATH, haveChromium} from '../../local/playground/chromium';

/** `describe` when Chromium can run `what`, else a loud skip (or, under CI, a failure). */
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
          `CI is set and Chromium is missing at ${CHROMIUM_PATH}: the browser tests must run in CI (apt-get install -y chromium).`,
        );
      });
    });
    return;
  }
  console.warn(
    [
      '',
      '#'.repeat(72),
      `#  BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH}.`,
      `#  ${what} was NOT tested. Install it: apt-get install -y chromium`,
      '#'.repeat(72),
      '',
    ].join('\n'),
  );
  describe.skip(title, body);
}
