// Pushes dist/ with clasp, after checking that .clasp.json names a script: clasp's own
// error for an empty id does not say what to do.
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';

const clasp = JSON.parse(
  readFileSync(new URL('../.clasp.json', import.meta.url), 'utf8'),
);
if (!clasp.scriptId) {
  console.error(
    [
      '.clasp.json has no scriptId yet.',
      'Create a script bound to a spreadsheet (npx clasp create --type sheets --rootDir dist)',
      "or copy an existing script's id (Project Settings) into .clasp.json, then run npm run deploy again.",
      'See docs/deploy.md.',
    ].join('\n'),
  );
  process.exit(1);
}
if (clasp.rootDir !== 'dist') {
  console.error(
    '.clasp.json must keep "rootDir": "dist": only the build is pushed.',
  );
  process.exit(1);
}
const result = spawnSync('npx', ['clasp', 'push', '--force'], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
