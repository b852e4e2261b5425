/** Every suite: unit (pure modules), emulator and runtime contracts, integration (dist/ in the
 * runtime against the emulator) and browser (the sidebar in headless Chromium). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {'^.+\\.ts$': ['@swc/jest']},
  testTimeout: 30000,
  maxWorkers: 2,
};
