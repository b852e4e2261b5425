/**
 * The projects' test environment (jest.config.js) fails a test file that leaves open what would
 * keep a jest worker alive, naming it, and lets a file pass that closes what it opened, however
 * slow: run on the files of test/fixtures/leaks by jest itself, as `npm test` runs a file.
 */
import {spawnSync} from 'node:child_process';
import {join} from 'node:path';

const ROOT = join(__dirname, '../../..');

describe('a test file that leaves something open', () => {
  let output: string;
  let status: number | null;

  beforeAll(() => {
    const [unit] = require(join(ROOT, 'jest.config.js')).projects;
    const config = {
      ...unit,
      rootDir: ROOT,
      roots: ['<rootDir>/test/fixtures/leaks'],
      testMatch: ['**/*.leak.ts'],
    };
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        '--config',
        JSON.stringify(config),
        '--runInBand',
        '--ci',
      ],
      {cwd: ROOT, encoding: 'utf8', env: {...process.env, FORCE_COLOR: '0'}},
    );
    output = run.stderr;
    status = run.status;
  }, 60_000);

  const verdict = (file: string) =>
    new RegExp(`^(PASS|FAIL) unit test/fixtures/leaks/${file}`, 'm').exec(
      output,
    )?.[1];

  it('fails it when it leaves a worker thread running', () => {
    expect(verdict('worker-thread.leak.ts')).toBe('FAIL');
    expect(output).toContain(
      'This file left open, 500 ms after its last afterAll: Worker ×1.',
    );
  });

  it('fails it when its module started a child process as it loaded', () => {
    expect(verdict('import-time.leak.ts')).toBe('FAIL');
    expect(output).toContain(
      'This file left open, 500 ms after its last afterAll: ProcessWrap ×1.',
    );
  });

  it('passes a slow file that closes all it opened in its top-level afterAll', () => {
    expect(verdict('closed-at-top-level.leak.ts')).toBe('PASS');
    expect(output).toMatch(/^Test Suites: 2 failed, 1 passed, 3 total$/m);
    expect(status).toBe(1);
  });
});
