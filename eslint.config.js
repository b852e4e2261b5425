const globals = require('globals');
const gts = require('gts');

/** Apps Script's globals: only src/platform/ may name them (DESIGN 2). */
const APPS_SCRIPT = [
  'SpreadsheetApp',
  'UrlFetchApp',
  'Utilities',
  'PropertiesService',
  'CacheService',
  'LockService',
  'ScriptApp',
  'HtmlService',
  'DriveApp',
  'MailApp',
  'Session',
  'Logger',
];
const ONLY_PLATFORM =
  'Only src/platform/ touches Apps Script: go through a port of src/platform/ports.ts.';

module.exports = [
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'test-artifacts/',
      'bench/out/',
      // Release 1's built bundle, kept as it shipped: the upgrade test loads it.
      'test/fixtures/',
    ],
  },
  ...gts,
  {
    // gts points type-aware lint at tsconfig.json alone; the node-side and browser-side code
    // have their own configs (different globals), so lint sees all three.
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.json',
          './tsconfig.node.json',
          './tsconfig.ui.json',
        ],
      },
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {...globals.node},
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {sourceType: 'commonjs'},
  },
  {
    // The platform boundary, enforced: values and types of Apps Script stay in src/platform/.
    files: ['src/**/*.ts'],
    ignores: ['src/platform/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...APPS_SCRIPT.map(name => ({name, message: ONLY_PLATFORM})),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSQualifiedName[left.name='GoogleAppsScript']",
          message: ONLY_PLATFORM,
        },
      ],
    },
  },
];
