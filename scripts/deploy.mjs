// `npm run deploy`: checks the script project and the build-time settings first (seconds), then
// runs every test against a test build, builds with the settings, checks the built manifest and
// pushes dist/ with clasp. `--check` stops after the first checks.
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {deployProblems, manifestProblems} from './deploy-checks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function refuse(problems) {
  console.error(['Not deployed:', ...problems.map(p => `- ${p}`)].join('\n'));
  process.exit(1);
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, {cwd: root, stdio: 'inherit', env});
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const early = deployProblems(root, process.env);
if (early.length > 0) refuse(early);
if (process.argv.includes('--check')) {
  console.log('Ready to deploy: script id and build settings found.');
  process.exit(0);
}

// The tests run against the emulator's host, which a real whitelist would refuse.
const testEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('OFFER_DESK_')),
);
run('npm', ['test'], testEnv);
run('node', ['scripts/build.mjs']);
const manifest = JSON.parse(
  readFileSync(join(root, 'dist/appsscript.json'), 'utf8'),
);
const late = manifestProblems(manifest);
if (late.length > 0) refuse(late);
run('npx', ['clasp', 'push', '--force']);
