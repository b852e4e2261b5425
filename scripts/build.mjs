// Builds what clasp pushes: dist/Code.js (the add-on bundle plus one top-level function per
// entry point), dist/appsscript.json and every HTML file HtmlService serves.
//
// Build-time settings (environment variables; none is a secret, see docs/deploy.md):
//   OFFER_DESK_URL_WHITELIST          https prefixes the add-on may fetch, comma-separated
//   OFFER_DESK_PICKER_DEVELOPER_KEY   the Cloud project's API key the Google Picker loads with
//   OFFER_DESK_PICKER_APP_ID          the Cloud project number (the Picker's app id)
import * as esbuild from 'esbuild';
import {
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const entry = join(root, 'src/index.ts');
const globalName = '__offerDesk';

/** Where the add-on reads picked Drive files (the Drive REST API). */
const DRIVE_API = 'https://www.googleapis.com/';

/**
 * https prefixes the add-on may call, for the manifest's urlFetchWhitelist (see
 * docs/deploy.md); the Drive API joins a list that is given. Empty: no whitelist, which only
 * a test deployment accepts.
 */
export function urlWhitelist(raw = process.env.OFFER_DESK_URL_WHITELIST ?? '') {
  const prefixes = raw
    .split(',')
    .map(s => s.trim())
    .filter(Boolean);
  for (const p of prefixes) {
    if (!/^https:\/\/(\*\.)?[^/*]+\/[^*]*$/.test(p)) {
      throw new Error(
        `OFFER_DESK_URL_WHITELIST entry "${p}" must be an https:// prefix with a path, e.g. https://api.example.com/ (a host may start with *. for its subdomains)`,
      );
    }
  }
  if (prefixes.length > 0 && !prefixes.includes(DRIVE_API))
    prefixes.push(DRIVE_API);
  return prefixes;
}

/** The Google Picker's settings: an API key and the Cloud project number; '' when not given. */
export function pickerSettings(env = process.env) {
  const developerKey = (env.OFFER_DESK_PICKER_DEVELOPER_KEY ?? '').trim();
  const appId = (env.OFFER_DESK_PICKER_APP_ID ?? '').trim();
  if (developerKey && !/^[A-Za-z0-9_-]+$/.test(developerKey)) {
    throw new Error(
      'OFFER_DESK_PICKER_DEVELOPER_KEY must be an API key (letters, digits, - and _)',
    );
  }
  if (appId && !/^\d+$/.test(appId)) {
    throw new Error(
      'OFFER_DESK_PICKER_APP_ID must be the Cloud project number (digits only, Project settings in the Cloud console)',
    );
  }
  return {developerKey, appId};
}

/** The names src/index.ts exports: esbuild lists entry exports only for esm output. */
async function entryExports() {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    outfile: 'exports.js',
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  return output.exports.slice().sort();
}

async function bundle(whitelist) {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName,
    target: 'es2020',
    platform: 'neutral',
    write: false,
    charset: 'utf8',
    legalComments: 'none',
    define: {__URL_WHITELIST__: JSON.stringify(whitelist)},
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** Apps Script calls only top-level function declarations: forward each into the bundle. */
function forwarders(names) {
  return names
    .map(
      name =>
        `function ${name}() {\n  return ${globalName}.${name}.apply(this, arguments);\n}\n`,
    )
    .join('\n');
}

/** The sidebar: one self-contained HTML file with its script inlined. */
async function sidebarHtml() {
  const template = join(root, 'src/ui/sidebar.html');
  const client = join(root, 'src/ui/client/main.ts');
  if (!existsSync(template)) return undefined;
  const result = await esbuild.build({
    entryPoints: [client],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const script = result.outputFiles[0].text.replace(
    /<\/script/gi,
    '<\\/script',
  );
  return readFileSync(template, 'utf8').replace(
    '<!-- SIDEBAR_SCRIPT -->',
    () => `<script>\n${script}</script>`,
  );
}

/** The Picker dialog, its build-time settings filled in. */
function pickerHtml(settings) {
  return readFileSync(join(root, 'src/ui/picker.html'), 'utf8')
    .replace("/* PICKER_DEVELOPER_KEY */ ''", () =>
      JSON.stringify(settings.developerKey),
    )
    .replace("/* PICKER_APP_ID */ ''", () => JSON.stringify(settings.appId));
}

async function main() {
  const whitelist = urlWhitelist();
  const picker = pickerSettings();
  const [names, code, sidebar] = await Promise.all([
    entryExports(),
    bundle(whitelist),
    sidebarHtml(),
  ]);
  if (names.length === 0)
    throw new Error('src/index.ts exports no entry point');
  rmSync(dist, {recursive: true, force: true});
  mkdirSync(dist, {recursive: true});
  writeFileSync(join(dist, 'Code.js'), `${code}\n${forwarders(names)}`);
  const manifest = JSON.parse(
    readFileSync(join(root, 'appsscript.json'), 'utf8'),
  );
  if (whitelist.length > 0) manifest.urlFetchWhitelist = whitelist;
  writeFileSync(
    join(dist, 'appsscript.json'),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
  if (sidebar !== undefined) writeFileSync(join(dist, 'Sidebar.html'), sidebar);
  writeFileSync(join(dist, 'Picker.html'), pickerHtml(picker));
  writeFileSync(
    join(dist, 'Clone.html'),
    readFileSync(join(root, 'src/ui/clone.html'), 'utf8'),
  );
  const kb = (Buffer.byteLength(code) / 1024).toFixed(1);
  console.log(`dist/Code.js: ${kb} KB, ${names.length} entry points`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch(err => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
