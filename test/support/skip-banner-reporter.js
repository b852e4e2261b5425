/**
 * A jest reporter that repeats, after the summary, what a run skipped for want of Chromium.
 * The banner describeInChromium prints inside a skipped suite is swallowed by jest (a suite
 * with no test run shows no console output), so a newcomer's `npm test` ended with
 * "2 skipped" and nothing saying the playground and sidebar were never tested.
 * Plain JavaScript: jest loads reporters without transforming them.
 */
const {existsSync} = require('node:fs');
const {relative} = require('node:path');

/** Where the browser suites look for Chromium (local/playground/chromium.ts reads the same). */
function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

class SkipBannerReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig?.rootDir ?? process.cwd();
  }

  /** Browser suites that ran no test at all, when Chromium is missing (and only then). */
  skippedBrowserSuites(results) {
    if (existsSync(chromiumPath())) return [];
    return results.testResults
      .filter(
        r =>
          /[\\/]test[\\/]browser[\\/]/.test(r.testFilePath) &&
          r.numPendingTests + r.numTodoTests > 0 &&
          r.numPassingTests + r.numFailingTests === 0,
      )
      .map(r => relative(this.rootDir, r.testFilePath));
  }

  onRunComplete(_contexts, results) {
    const skipped = this.skippedBrowserSuites(results);
    if (skipped.length === 0) return;
    const line = '#'.repeat(72);
    process.stderr.write(
      [
        '',
        line,
        `#  BROWSER TESTS SKIPPED: no Chromium at ${chromiumPath()}.`,
        '#  The playground and the sidebar were NOT tested:',
        ...skipped.map(path => `#    ${path}`),
        '#  Install it (apt-get install -y chromium) or set CHROMIUM_PATH.',
        line,
        '',
      ].join('\n') + '\n',
    );
  }
}

module.exports = SkipBannerReporter;
