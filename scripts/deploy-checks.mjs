// What `npm run deploy` checks before it spends minutes on the tests, and what it checks of the
// build before clasp pushes it. Each check answers the problems found, as lines a person can
// act on; none means ready.
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {pickerSettings, urlWhitelist} from './build.mjs';

/**
 * Scopes Google classes as restricted: an add-on asking for one needs a paid security
 * assessment before it may be published (docs/deploy.md).
 */
export const RESTRICTED_SCOPES = [
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/drive.metadata',
  'https://www.googleapis.com/auth/drive.metadata.readonly',
  'https://www.googleapis.com/auth/drive.activity',
  'https://www.googleapis.com/auth/drive.activity.readonly',
  'https://www.googleapis.com/auth/drive.scripts',
  'https://mail.google.com/',
  'https://www.googleapis.com/auth/gmail.readonly',
  'https://www.googleapis.com/auth/gmail.modify',
  'https://www.googleapis.com/auth/gmail.compose',
  'https://www.googleapis.com/auth/gmail.insert',
  'https://www.googleapis.com/auth/gmail.metadata',
  'https://www.googleapis.com/auth/gmail.settings.basic',
  'https://www.googleapis.com/auth/gmail.settings.sharing',
];

/** The list above, for tests that run in another module system. */
export function restrictedScopes() {
  return RESTRICTED_SCOPES;
}

const CREATE =
  'npx clasp create --type standalone --title "Offer Desk" --rootDir dist';

/** The Apps Script project clasp pushes to: .clasp.json with a script id and rootDir dist. */
export function claspProblems(root) {
  const file = join(root, '.clasp.json');
  if (!existsSync(file)) {
    return [
      `No .clasp.json yet: create the script project (${CREATE}), or copy .clasp.json.example to .clasp.json and put an existing project's script id in it (docs/deploy.md).`,
    ];
  }
  let clasp;
  try {
    clasp = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return [`.clasp.json is not JSON (${e.message}).`];
  }
  const problems = [];
  if (!clasp.scriptId) {
    problems.push(
      `.clasp.json has no scriptId: put the script id (Project Settings in the script editor) in it, or delete it and run ${CREATE}.`,
    );
  }
  if (clasp.rootDir !== 'dist') {
    problems.push(
      '.clasp.json must say "rootDir": "dist": only the build is pushed.',
    );
  }
  return problems;
}

/** The build-time settings a published add-on needs (docs/deploy.md). */
export function settingsProblems(env) {
  const problems = [];
  try {
    if (urlWhitelist(env.OFFER_DESK_URL_WHITELIST ?? '').length === 0) {
      problems.push(
        "OFFER_DESK_URL_WHITELIST is not set: a versioned deployment needs the manifest's urlFetchWhitelist. Give the https prefixes of your API (and upload) hosts, e.g. OFFER_DESK_URL_WHITELIST=https://api.example.com/",
      );
    }
  } catch (e) {
    problems.push(e.message);
  }
  try {
    const picker = pickerSettings(env);
    if (!picker.developerKey || !picker.appId) {
      problems.push(
        'OFFER_DESK_PICKER_DEVELOPER_KEY and OFFER_DESK_PICKER_APP_ID must be set: without them "Choose files…" cannot open the Google Picker, and the add-on can read no Drive file.',
      );
    }
  } catch (e) {
    problems.push(e.message);
  }
  return problems;
}

/** Everything checked before the tests run. */
export function deployProblems(root, env) {
  return [...claspProblems(root), ...settingsProblems(env)];
}

/** The built manifest: a whitelist, and no restricted scope. */
export function manifestProblems(manifest) {
  const problems = [];
  if (
    !Array.isArray(manifest.urlFetchWhitelist) ||
    manifest.urlFetchWhitelist.length === 0
  ) {
    problems.push('dist/appsscript.json has no urlFetchWhitelist.');
  }
  for (const scope of manifest.oauthScopes ?? []) {
    if (RESTRICTED_SCOPES.includes(scope)) {
      problems.push(
        `dist/appsscript.json asks for the restricted scope ${scope}: publishing it needs a security assessment.`,
      );
    }
  }
  return problems;
}
