const globals = require('globals');
const gts = require('gts');

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
];
