/**
 * The built dist/Code.js as Apps Script loads it: one script in a fresh global scope. Loading
 * must touch no Apps Script service (onOpen in AuthMode.NONE may run before authorisation),
 * and every export of src/index.ts must be a top-level function callable by name.
 */
import {buildSync, stop} from 'esbuild';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {runInNewContext} from 'node:vm';

const root = join(__dirname, '../..');
const SERVICES = [
  'SpreadsheetApp',
  'UrlFetchApp',
  'Utilities',
  'PropertiesService',
  'CacheService',
  'LockService',
  'ScriptApp',
  'HtmlService',
  'DriveApp',
  'Session',
  'Logger',
];

function indexExports(): string[] {
  const result = buildSync({
    entryPoints: [join(root, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    outfile: 'x.js',
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs)[0].exports.slice().sort();
}

describe('dist/Code.js', () => {
  const code = readFileSync(join(root, 'dist/Code.js'), 'utf8');

  // buildSync starts a worker thread (and an esbuild process in it) that outlives the call.
  afterAll(() => stop());

  it('loads without touching any Apps Script service', () => {
    const touched: string[] = [];
    const context: Record<string, unknown> = {console};
    for (const name of SERVICES) {
      Object.defineProperty(context, name, {
        get() {
          touched.push(name);
          throw new Error(`${name} touched at load time`);
        },
      });
    }
    runInNewContext(code, context, {filename: 'Code.js'});
    expect(touched).toEqual([]);
  });

  it('declares a top-level function for every export of src/index.ts, forwarding to it', () => {
    const names = indexExports();
    expect(names.length).toBeGreaterThan(0);
    const context: Record<string, unknown> = {console};
    runInNewContext(code, context, {filename: 'Code.js'});
    for (const name of names) {
      expect(typeof context[name]).toBe('function');
      expect(code).toMatch(new RegExp(`^function ${name}\\(\\) \\{$`, 'm'));
    }
    const bundle = context.__offerDesk as Record<string, unknown>;
    expect(Object.keys(bundle).sort()).toEqual(names);
  });

  it('ships the manifest with V8 and explicit scopes', () => {
    const manifest = JSON.parse(
      readFileSync(join(root, 'dist/appsscript.json'), 'utf8'),
    );
    expect(manifest.runtimeVersion).toBe('V8');
    expect(manifest.oauthScopes).toEqual([
      'https://www.googleapis.com/auth/spreadsheets.currentonly',
      'https://www.googleapis.com/auth/script.container.ui',
      'https://www.googleapis.com/auth/script.external_request',
      'https://www.googleapis.com/auth/script.scriptapp',
      'https://www.googleapis.com/auth/drive.file',
      'https://www.googleapis.com/auth/script.send_mail',
      'https://www.googleapis.com/auth/userinfo.email',
    ]);
  });
});
