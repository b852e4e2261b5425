/** Every suite: unit (pure modules), emulator and runtime contracts, integration (dist/ in the
 * runtime against the emulator), browser (the sidebar in headless Chromium) and the bench's
 * smoke run. Each folder of test/ is a project: `jest --selectProjects unit` runs what it
 * names (npm run test:unit). */
const SUITES = [
  'unit',
  'emulator',
  'runtime',
  'integration',
  'browser',
  'bench',
];

module.exports = {
  projects: SUITES.map(name => ({
    displayName: name,
    // A file that leaves a server, a socket, a child process, a timer or a worker thread open
    // fails, naming it.
    testEnvironment: '<rootDir>/test/support/leak-checked-environment.ts',
    roots: [`<rootDir>/test/${name}`],
    testMatch: ['**/*.test.ts'],
    transform: {'^.+\\.ts$': ['@swc/jest']},
    // The browser suites wait on conditions, for minutes on a busy machine.
    setupFilesAfterEnv:
      name === 'browser' ? ['<rootDir>/test/support/browser-timeouts.ts'] : [],
  })),
  testTimeout: 30000,
  maxWorkers: 2,
  // After the summary, a banner when the browser suites were skipped for want of Chromium.
  reporters: ['default', '<rootDir>/test/support/skip-banner-reporter.js'],
};
