/**
 * `npm run deploy` refuses early, before the minutes of tests, when the script project or the
 * build-time settings a published add-on needs are missing; the built manifest asks for no
 * restricted scope. The checks live in scripts/deploy-checks.mjs (an ES module), so they run
 * in a node of their own.
 */
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CHECKS = join(ROOT, 'scripts', 'deploy-checks.mjs');

/** Calls an export of deploy-checks.mjs with JSON arguments; answers its JSON result. */
function check(name: string, ...args: unknown[]): unknown {
  const script = `import * as c from ${JSON.stringify(CHECKS)};
const args = JSON.parse(process.argv[1]);
process.stdout.write(JSON.stringify(c[${JSON.stringify(name)}](...args)));`;
  const result = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify(args)],
    {encoding: 'utf8'},
  );
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

function project(clasp?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'offer-desk-deploy-'));
  if (clasp) writeFileSync(join(dir, '.clasp.json'), JSON.stringify(clasp));
  return dir;
}

const READY_ENV = {
  OFFER_DESK_URL_WHITELIST: 'https://api.example.com/',
  OFFER_DESK_PICKER_DEVELOPER_KEY: 'AIzaExampleKey_0',
  OFFER_DESK_PICKER_APP_ID: '123456789012',
};

describe('deploy checks before the tests', () => {
  it('passes a project with a script id, rootDir dist and every build setting', () => {
    const root = project({scriptId: '1AbCdEfScriptId', rootDir: 'dist'});
    expect(check('deployProblems', root, READY_ENV)).toEqual([]);
  });

  it('asks for the script project when there is no .clasp.json (a fresh clone)', () => {
    expect(check('claspProblems', project())).toEqual([
      'No .clasp.json yet: create the script project (npx clasp create --type standalone --title "Offer Desk" --rootDir dist), or copy .clasp.json.example to .clasp.json and put an existing project\'s script id in it (docs/deploy.md).',
    ]);
  });

  it('refuses an empty script id and a rootDir other than dist', () => {
    expect(
      check('claspProblems', project({scriptId: '', rootDir: '.'})),
    ).toEqual([
      '.clasp.json has no scriptId: put the script id (Project Settings in the script editor) in it, or delete it and run npx clasp create --type standalone --title "Offer Desk" --rootDir dist.',
      '.clasp.json must say "rootDir": "dist": only the build is pushed.',
    ]);
  });

  it('refuses a build without urlFetchWhitelist or Picker settings', () => {
    expect(check('settingsProblems', {})).toEqual([
      "OFFER_DESK_URL_WHITELIST is not set: a versioned deployment needs the manifest's urlFetchWhitelist. Give the https prefixes of your API (and upload) hosts, e.g. OFFER_DESK_URL_WHITELIST=https://api.example.com/",
      'OFFER_DESK_PICKER_DEVELOPER_KEY and OFFER_DESK_PICKER_APP_ID must be set: without them "Choose files…" cannot open the Google Picker, and the add-on can read no Drive file.',
    ]);
  });

  it('refuses a whitelist entry that is not an https prefix, and an app id that is no project number', () => {
    expect(
      check('settingsProblems', {
        ...READY_ENV,
        OFFER_DESK_URL_WHITELIST: 'http://api.example.com/',
        OFFER_DESK_PICKER_APP_ID: 'offer-desk',
      }),
    ).toEqual([
      'OFFER_DESK_URL_WHITELIST entry "http://api.example.com/" must be an https:// prefix with a path, e.g. https://api.example.com/ (a host may start with *. for its subdomains)',
      'OFFER_DESK_PICKER_APP_ID must be the Cloud project number (digits only, Project settings in the Cloud console)',
    ]);
  });

  it('npm run deploy stops at the checks, before running any test', () => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('OFFER_DESK_')),
    );
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'deploy.mjs')],
      {
        encoding: 'utf8',
        env,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Not deployed:\n/);
    expect(result.stderr).toContain('OFFER_DESK_URL_WHITELIST is not set');
    // npm test would have printed its script line first.
    expect(result.stdout).toBe('');
    expect(
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts
        .deploy,
    ).toBe('node scripts/deploy.mjs');
  });
});

describe('the built manifest', () => {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'dist', 'appsscript.json'), 'utf8'),
  ) as {oauthScopes: string[]};

  it('asks for no restricted scope: drive.file, not drive.readonly', () => {
    const restricted = check('restrictedScopes') as string[];
    expect(manifest.oauthScopes.filter(s => restricted.includes(s))).toEqual(
      [],
    );
    expect(manifest.oauthScopes).toContain(
      'https://www.googleapis.com/auth/drive.file',
    );
    expect(
      check('manifestProblems', {
        ...manifest,
        urlFetchWhitelist: ['https://api.example.com/'],
      }),
    ).toEqual([]);
  });

  it('is refused before clasp push with a restricted scope or without a whitelist', () => {
    expect(
      check('manifestProblems', {
        oauthScopes: ['https://www.googleapis.com/auth/drive.readonly'],
      }),
    ).toEqual([
      'dist/appsscript.json has no urlFetchWhitelist.',
      'dist/appsscript.json asks for the restricted scope https://www.googleapis.com/auth/drive.readonly: publishing it needs a security assessment.',
    ]);
  });
});
