/** Every suite: unit (pure modules), emulator and runtime contracts, integration (dist/ in the
 * runtime against the emulator) and browser (the sidebar in headless Chromium). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {'^.+\\.ts$': ['@swc/jest']},
  testTimeout: 30000,
  maxWorkers: 2,
  // After the summary, a banner when the browser suites were skipped for want of Chromium.
  reporters: ['default', '<rootDir>/test/support/skip-banner-reporter.js'],
};
