import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {
  createRuntime,
  DEFAULT_START_MS,
  EXCEEDED_TIME,
} from '../../local/runtime';

/** A tiny stand-in for dist/: two files, loaded in name order into one context. */
function fixtureDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-dist-'));
  writeFileSync(join(dir, 'a.js'), 'var GREETING = "hello";\n');
  writeFileSync(
    join(dir, 'b.js'),
    `
function greet(who) { return GREETING + ' ' + who.name; }
function echo(x) { return x; }
function now() { return {ms: Date.now(), isDate: new Date() instanceof Date}; }
function returnsDate() { return {at: new Date()}; }
function draws() { return [Math.random(), Math.random()]; }
function cellTypes() {
  var range = SpreadsheetApp.getActive().getSheets()[0].getRange('A1:B1');
  range.setValues([[new Date(0), 'x']]);
  var v = range.getValues();
  return {isDate: v[0][0] instanceof Date, isArray: v instanceof Array, row: v[0] instanceof Array};
}
function catches() { try { UrlFetchApp.fetch('ftp://x'); } catch (e) { return e instanceof Error && String(e); } }
function logs() { Logger.log('n=%s', 3); console.log('obj', {a: 1}); }
function busy() {
  var props = PropertiesService.getScriptProperties();
  for (var i = 0; i < 100000; i++) { Utilities.sleep(1000); props.getProperty('x'); }
}
function swallowsTimeout() {
  try { busy(); } catch (e) { return 'survived'; }
}
function secret_() { return 'no'; }
function onOpen(e) {
  SpreadsheetApp.getUi().createAddonMenu().addItem('Refresh', 'refresh').addToUi();
  if (e.authMode !== ScriptApp.AuthMode.NONE) PropertiesService.getDocumentProperties().setProperty('opened', 'yes');
}
function refresh() { SpreadsheetApp.getActive().toast('refreshed'); return 'done'; }
function touchStorage() { return PropertiesService.getUserProperties().getProperty('k'); }
`,
  );
  writeFileSync(join(dir, 'Page.html'), '<p><?= who ?></p><?!= raw ?>');
  return dir;
}

describe('loading the add-on into one vm context', () => {
  const distDir = fixtureDist();

  it('loads every dist/*.js in order and calls top-level functions', () => {
    const rt = createRuntime({distDir});
    expect(rt.call('greet', {name: 'Ann'})).toBe('hello Ann');
    expect(rt.executions.map(e => e.functionName)).toEqual(['greet']);
  });

  it('runs the bundle on the virtual clock with genuine Dates of the context', () => {
    const rt = createRuntime({distDir});
    expect(rt.call('now')).toEqual({ms: DEFAULT_START_MS, isDate: true});
    rt.clock.advance(5000);
    expect(rt.call('now')).toMatchObject({ms: DEFAULT_START_MS + 5000});
  });

  it('puts the clock back after what runs aside, so a look at the sheets takes no time', () => {
    const rt = createRuntime({distDir});
    const seen = rt.clock.aside(() => {
      rt.call('greet', {name: 'Ann'});
      rt.clock.advance(5000);
      return rt.clock.now();
    });
    expect(seen).toBe(DEFAULT_START_MS + 5000);
    expect(rt.clock.now()).toBe(DEFAULT_START_MS);
  });

  it("draws the bundle's Math.random from the random option when given one", () => {
    const sequence = [0.25, 0.5];
    const rt = createRuntime({distDir, random: () => sequence.shift()!});
    expect(rt.call('draws')).toEqual([0.25, 0.5]);
    const unseeded = createRuntime({distDir}).call('draws') as number[];
    expect(unseeded[0]).not.toBe(unseeded[1]);
  });

  it('hands the bundle Dates, arrays and errors of its own realm', () => {
    const rt = createRuntime({distDir});
    expect(rt.call('cellTypes')).toEqual({
      isDate: true,
      isArray: true,
      row: true,
    });
    expect(rt.call('catches')).toBe('Exception: Invalid argument: ftp://x');
  });

  it('captures Logger and console output', () => {
    const rt = createRuntime({distDir});
    rt.call('logs');
    expect(rt.logs.entries.map(e => [e.source, e.message])).toEqual([
      ['Logger', 'n=3'],
      ['console', 'obj { a: 1 }'],
    ]);
  });

  it('google.script.run refuses Dates, functions and private functions, and copies the rest', () => {
    const rt = createRuntime({distDir});
    expect(() => rt.call('echo', {when: new Date()})).toThrow(
      'Failed due to illegal value in property: when',
    );
    expect(() => rt.call('echo', [() => 1])).toThrow('illegal value');
    expect(() => rt.call('returnsDate')).toThrow(
      'the client would receive null',
    );
    expect(() => rt.call('secret_')).toThrow('private');
    expect(() => rt.call('missing')).toThrow(
      'Script function not found: missing',
    );
    const arg = {a: [1, undefined, 'x'], b: undefined, c: {d: null}};
    const out = rt.call('echo', arg);
    expect(out).toEqual({a: [1, null, 'x'], c: {d: null}});
    expect(out).not.toBe(arg);
  });

  it('stops an execution at six minutes, even when the add-on catches the error', () => {
    const rt = createRuntime({distDir});
    expect(() => rt.call('busy')).toThrow(EXCEEDED_TIME);
    expect(() => rt.call('swallowsTimeout')).toThrow(EXCEEDED_TIME);
    const run = rt.executions[1];
    expect(run.endMs! - run.startMs).toBeGreaterThan(360000);
    expect(run.endMs! - run.startMs).toBeLessThan(362000);
    expect(run.error).toBe(EXCEEDED_TIME);
  });

  it('runs onOpen by authorization mode: AuthMode.NONE may build menus but touch no storage', () => {
    const rt = createRuntime({distDir});
    rt.open('NONE');
    expect(rt.ui.menus).toEqual([
      {
        name: 'Offer Desk',
        addon: true,
        entries: [{kind: 'item', caption: 'Refresh', functionName: 'refresh'}],
      },
    ]);
    expect(rt.properties.document.toObject()).toEqual({});
    rt.open('LIMITED');
    expect(rt.properties.document.toObject()).toEqual({opened: 'yes'});
    expect(rt.clickMenu('Refresh')).toBe('done');
    expect(rt.ui.toasts().map(t => t.message)).toEqual(['refreshed']);
  });

  it('refuses storage in AuthMode.NONE', () => {
    const rt = createRuntime({distDir});
    expect(() => rt.run('touchStorage', {authMode: 'NONE'})).toThrow(
      'You do not have permission to call PropertiesService.getUserProperties',
    );
    expect(rt.run('touchStorage', {authMode: 'FULL'})).toBeNull();
  });

  it('serves HTML files of dist/ through HtmlService, templates included', () => {
    const rt = createRuntime({distDir});
    const t = rt.globals.HtmlService.createTemplateFromFile('Page');
    t.who = '<b>';
    t.raw = '<i>ok</i>';
    expect(t.evaluate().getContent()).toBe('<p>&#60;b&#62;</p><i>ok</i>');
    expect(() =>
      rt.globals.HtmlService.createHtmlOutputFromFile('Nope'),
    ).toThrow('No HTML file named Nope was found.');
  });

  it('builds the fakes alone, without dist/', () => {
    const rt = createRuntime({distDir: null});
    expect(
      rt.globals.SpreadsheetApp.getActiveSpreadsheet().getSheets(),
    ).toHaveLength(1);
    expect(rt.snapshot().counts['SpreadsheetApp.getActiveSpreadsheet']).toBe(1);
  });
});
