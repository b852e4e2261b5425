/**
 * The banner a newcomer's `npm test` ends with when the browser suites were skipped because
 * Chromium is missing; jest itself only says "2 skipped".
 */
import {spawnSync} from 'node:child_process';
import {join} from 'node:path';

const ROOT = join(__dirname, '../../..');

const Reporter = require('../../support/skip-banner-reporter.js');

interface FileResult {
  testFilePath: string;
  numPendingTests: number;
  numTodoTests: number;
  numPassingTests: number;
  numFailingTests: number;
}

function file(path: string, ran: boolean): FileResult {
  return {
    testFilePath: join(ROOT, path),
    numPendingTests: ran ? 0 : 5,
    numTodoTests: 0,
    numPassingTests: ran ? 5 : 0,
    numFailingTests: 0,
  };
}

function bannerOf(chromium: string, testResults: FileResult[]): string {
  const saved = process.env.CHROMIUM_PATH;
  process.env.CHROMIUM_PATH = chromium;
  const written: string[] = [];
  const spy = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  try {
    new Reporter({rootDir: ROOT}).onRunComplete(new Set(), {testResults});
  } finally {
    spy.mockRestore();
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  }
  return written.join('');
}

describe('the skip banner after a test run', () => {
  const skippedBrowser = [
    file('test/unit/api/client.test.ts', true),
    file('test/browser/sidebar.test.ts', false),
    file('test/browser/playground.test.ts', false),
  ];

  it('names the skipped browser suites and how to get Chromium, when it is missing', () => {
    expect(bannerOf('/nowhere/chromium', skippedBrowser)).toBe(
      [
        '',
        '#'.repeat(72),
        '#  BROWSER TESTS SKIPPED: no Chromium at /nowhere/chromium.',
        '#  The playground and the sidebar were NOT tested:',
        '#    test/browser/sidebar.test.ts',
        '#    test/browser/playground.test.ts',
        '#  Install it (apt-get install -y chromium) or set CHROMIUM_PATH.',
        '#'.repeat(72),
        '',
        '',
      ].join('\n'),
    );
  });

  it('says nothing when Chromium is there (suites skipped by a filter are not its concern)', () => {
    expect(bannerOf(process.execPath, skippedBrowser)).toBe('');
  });

  it('says nothing when no browser suite was skipped', () => {
    expect(
      bannerOf('/nowhere/chromium', [
        file('test/unit/api/client.test.ts', true),
      ]),
    ).toBe('');
  });

  it('reaches the terminal of a real jest run without Chromium', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        'test/browser/sidebar.test.ts',
      ],
      {
        cwd: ROOT,
        env: {...process.env, CHROMIUM_PATH: '/nowhere/chromium', CI: ''},
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      '#  BROWSER TESTS SKIPPED: no Chromium at /nowhere/chromium.\n' +
        '#  The playground and the sidebar were NOT tested:\n' +
        '#    test/browser/sidebar.test.ts\n',
    );
    expect(run.stderr).toContain('1 skipped');
  });
});
