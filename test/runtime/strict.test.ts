/**
 * Issue 20, "The runtime as strict as Google": what authorization modes allow, protections that
 * refuse other editors, a test deployment's triggers, and google.script.run failing in a
 * browser signed into several Google accounts.
 */
import {
  AUTHORIZATION_REQUIRED,
  EXCEEDED_TIME,
  createRuntime,
  PROTECTED_EDIT,
  typeIntoCell,
} from '../../local/runtime';
import type {AuthModeName} from '../../local/runtime';

const ADDON = `
function sidebar() {
  SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutput('<b>hi</b>'));
}
function dialog() {
  SpreadsheetApp.getUi().showModalDialog(HtmlService.createHtmlOutput('x'), 'Title');
}
function alertUser() { SpreadsheetApp.getUi().alert('Hello'); }
function menu() { SpreadsheetApp.getUi().createAddonMenu().addItem('Go', 'sidebar').addToUi(); }
function userProperties() { return PropertiesService.getUserProperties().getProperty('k'); }
function userCache() { return CacheService.getUserCache().get('k'); }
function documentProperties() {
  PropertiesService.getDocumentProperties().setProperty('k', 'v');
  return PropertiesService.getDocumentProperties().getProperty('k');
}
function documentCache() { return CacheService.getDocumentCache().get('k'); }
function cells() {
  var range = SpreadsheetApp.getActive().getSheets()[0].getRange('A1');
  range.setValue(7);
  return range.getValue();
}
function fetch() { return UrlFetchApp.fetch('https://example.com/'); }
function triggers() { return ScriptApp.getProjectTriggers().length; }
function schedule() {
  return ScriptApp.newTrigger('scheduled').timeBased().everyHours(1).create().getUniqueId();
}
function scheduled() { PropertiesService.getDocumentProperties().setProperty('ran', 'yes'); }
function protectA1(warningOnly, keepEditors) {
  var sheet = SpreadsheetApp.getActive().getSheets()[0];
  var p = sheet.getRange('A1:B2').protect().setDescription('Ids').setWarningOnly(warningOnly);
  if (!keepEditors) {
    p.addEditor(Session.getEffectiveUser());
    p.removeEditors(p.getEditors());
  }
  return p.getEditors().map(function (u) { return u.getEmail(); });
}
function write(a1, value) { SpreadsheetApp.getActive().getSheets()[0].getRange(a1).setValue(value); }
function clearA1() { SpreadsheetApp.getActive().getSheets()[0].getRange('A1').clearContent(); }
function clearSheet() { SpreadsheetApp.getActive().getSheets()[0].clearContents(); }
function canEdit() {
  return SpreadsheetApp.getActive().getSheets()[0].getProtections(SpreadsheetApp.ProtectionType.RANGE)[0].canEdit();
}
function addEditor(email) {
  SpreadsheetApp.getActive().getSheets()[0].getProtections(SpreadsheetApp.ProtectionType.RANGE)[0].addEditor(email);
}
function echo(x) { return x; }
var edits = [];
function onEdit(e) {
  edits.push([e.authMode.toString(), e.range.getA1Notation(), e.range.getSheet().getName()]);
  if (e.range.getA1Notation() === 'C3') PropertiesService.getUserProperties().getProperty('k');
  if (e.range.getA1Notation() === 'D4') Utilities.sleep(31000);
  e.range.offset(0, 1).setValue('seen');
}
function editsSeen() { return JSON.stringify(edits); }
`;

const ANN = 'ann@example.com';
const BOB = 'bob@example.com';

function setup(options: {deployment?: 'test' | 'versioned'} = {}) {
  const rt = createRuntime({
    distDir: null,
    users: [ANN, BOB],
    ...options,
  });
  rt.load(ADDON, 'Code.js');
  return rt;
}

const refusal = (
  key: string,
  mode: AuthModeName,
  needs = 'full authorization',
) =>
  `You do not have permission to call ${key} in AuthMode.${mode}. Required permissions: ${needs}`;
const CONTAINER_UI = 'https://www.googleapis.com/auth/script.container.ui';

describe('authorization modes, as the editor add-on lifecycle documents them', () => {
  it.each(['NONE', 'LIMITED'] as const)(
    'AuthMode.%s builds menus but shows no sidebar, dialog or alert',
    mode => {
      const rt = setup();
      rt.run('menu', {authMode: mode});
      expect(rt.ui.functionFor('Go')).toBe('sidebar');
      expect(() => rt.run('sidebar', {authMode: mode})).toThrow(
        refusal('Ui.showSidebar', mode, CONTAINER_UI),
      );
      expect(() => rt.run('dialog', {authMode: mode})).toThrow(
        refusal('Ui.showModalDialog', mode, CONTAINER_UI),
      );
      expect(() => rt.run('alertUser', {authMode: mode})).toThrow(
        refusal('Ui.alert', mode, CONTAINER_UI),
      );
      expect(rt.ui.events).toEqual([]);
    },
  );

  it('AuthMode.LIMITED reads and writes the bound document and its properties, and nothing of the user', () => {
    const rt = setup();
    const limited = {authMode: 'LIMITED'} as const;
    expect(rt.run('cells', limited)).toBe(7);
    expect(rt.run('documentProperties', limited)).toBe('v');
    expect(rt.run('documentCache', limited)).toBeNull();
    expect(() => rt.run('userProperties', limited)).toThrow(
      refusal('PropertiesService.getUserProperties', 'LIMITED'),
    );
    expect(() => rt.run('userCache', limited)).toThrow(
      refusal('CacheService.getUserCache', 'LIMITED'),
    );
    expect(() => rt.run('fetch', limited)).toThrow(
      refusal('UrlFetchApp.fetch', 'LIMITED'),
    );
    expect(() => rt.run('triggers', limited)).toThrow(
      refusal('ScriptApp.getProjectTriggers', 'LIMITED'),
    );
  });

  it('AuthMode.NONE touches neither the document nor any storage', () => {
    const rt = setup();
    const none = {authMode: 'NONE'} as const;
    expect(() => rt.run('cells', none)).toThrow(
      refusal('SpreadsheetApp.getActive', 'NONE'),
    );
    expect(() => rt.run('documentProperties', none)).toThrow(
      refusal('PropertiesService.getDocumentProperties', 'NONE'),
    );
    expect(() => rt.run('documentCache', none)).toThrow(
      refusal('CacheService.getDocumentCache', 'NONE'),
    );
  });

  it('AuthMode.FULL does all of it', () => {
    const rt = setup();
    rt.run('sidebar');
    rt.run('alertUser');
    expect(rt.run('userProperties')).toBeNull();
    expect(rt.run('userCache')).toBeNull();
    expect(rt.ui.events.map(e => e.kind)).toEqual(['sidebar', 'alert']);
  });
});

describe('protections that do not only warn', () => {
  it("refuse another editor's edits with Apps Script's error; the owner and the protection's editors may edit", () => {
    const rt = setup();
    expect(rt.run('protectA1', {args: [false, false]})).toEqual([ANN]);
    rt.setUser(BOB);
    expect(() => rt.run('write', {args: ['B2', 'x']})).toThrow(PROTECTED_EDIT);
    expect(() => rt.run('clearA1')).toThrow(PROTECTED_EDIT);
    expect(() => rt.run('clearSheet')).toThrow(PROTECTED_EDIT);
    expect(rt.run('canEdit')).toBe(false);
    const sheet = rt.spreadsheet.getSheets()[0];
    expect(() => typeIntoCell(sheet, 'A2', 'typed')).toThrow(PROTECTED_EDIT);
    // Outside the protected block, Bob edits as before.
    rt.run('write', {args: ['C3', 'free']});
    expect(sheet.getRange('A1:C3').getValues()).toEqual([
      ['', '', ''],
      ['', '', ''],
      ['', '', 'free'],
    ]);

    rt.setUser(ANN);
    rt.run('write', {args: ['A1', 'mine']});
    rt.run('addEditor', {args: [BOB]});
    rt.setUser(BOB);
    expect(rt.run('canEdit')).toBe(true);
    rt.run('write', {args: ['B2', 'now mine too']});
    expect(sheet.getRange('A1:B2').getValues()).toEqual([
      ['mine', ''],
      ['', 'now mine too'],
    ]);
  });

  it("keep the document's editors as a new protection's editors, as Apps Script does", () => {
    const rt = setup();
    expect(rt.run('protectA1', {args: [false, true]})).toEqual([ANN, BOB]);
    rt.setUser(BOB);
    rt.run('write', {args: ['A1', 'x']});
    rt.setUser('eve@example.com');
    expect(() => rt.run('write', {args: ['A1', 'y']})).toThrow(PROTECTED_EDIT);
  });

  it('let everyone edit when they only warn', () => {
    const rt = setup();
    rt.run('protectA1', {args: [true, false]});
    rt.setUser(BOB);
    rt.run('write', {args: ['A1', 'warned']});
    expect(rt.spreadsheet.getSheets()[0].getRange('A1').getValue()).toBe(
      'warned',
    );
  });
});

describe('a test deployment', () => {
  it('creates and lists installable triggers but never fires them', () => {
    const rt = setup({deployment: 'test'});
    const id = rt.run('schedule') as string;
    expect(rt.triggers.records.map(t => t.handler)).toEqual(['scheduled']);
    const before = rt.clock.now();
    expect(rt.runDueTriggers(before + 5 * 3600000)).toEqual([]);
    expect(rt.clock.now()).toBe(before + 5 * 3600000);
    expect(() => rt.fireTrigger(id)).toThrow(
      `trigger ${id} (scheduled) was not fired: a test deployment never fires installable triggers (deployment: 'test')`,
    );
    expect(rt.executions.map(e => e.functionName)).toEqual(['schedule']);
    expect(rt.properties.document.toObject()).toEqual({});
  });

  it('differs from a versioned one, whose triggers fire when due', () => {
    const rt = setup();
    rt.run('schedule');
    expect(
      rt
        .runDueTriggers(rt.clock.now() + 2.5 * 3600000)
        .map(e => e.functionName),
    ).toEqual(['scheduled', 'scheduled']);
  });
});

describe('google.script.run in a browser signed into several Google accounts', () => {
  it('fails every call with the authorization error until calls are accepted again; nothing runs', () => {
    const rt = setup();
    rt.refuseClientCalls();
    for (let i = 0; i < 2; i++) {
      expect(() => rt.call('echo', 1)).toThrow(
        expect.objectContaining({
          name: 'ScriptError',
          message: AUTHORIZATION_REQUIRED,
        }),
      );
    }
    expect(rt.executions).toEqual([]);
    rt.acceptClientCalls();
    expect(rt.call('echo', 1)).toBe(1);
  });

  it('fails the next calls only, with another error when asked', () => {
    const rt = setup();
    rt.refuseClientCalls({
      count: 1,
      message:
        "We're sorry, a server error occurred while reading from storage. Error code PERMISSION_DENIED.",
    });
    expect(() => rt.call('echo', 1)).toThrow('Error code PERMISSION_DENIED');
    expect(rt.call('echo', 2)).toBe(2);
  });
});

describe('onEdit, a simple trigger (issue 36)', () => {
  it('gets the edited range in AuthMode.LIMITED, may write the document, reaches no user data and stops at 30 s', () => {
    const rt = setup();
    const sheet = rt.spreadsheet.getSheets()[0];
    rt.edited(sheet.getName(), 'A1:A2');
    expect(sheet.getRange('B1').getValue()).toBe('seen');
    expect(() => rt.edited(sheet.getName(), 'C3')).toThrow(
      refusal('PropertiesService.getUserProperties', 'LIMITED'),
    );
    expect(() => rt.edited(sheet.getName(), 'D4')).toThrow(EXCEEDED_TIME);
    expect(sheet.getRange('E4').getValue()).toBe('');
    expect(JSON.parse(rt.run('editsSeen') as string)).toEqual([
      ['LIMITED', 'A1:A2', sheet.getName()],
      ['LIMITED', 'C3', sheet.getName()],
      ['LIMITED', 'D4', sheet.getName()],
    ]);
  });
});
