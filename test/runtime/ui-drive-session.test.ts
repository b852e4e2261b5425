import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createRuntime} from '../../local/runtime';

describe('the editor UI', () => {
  it('records menus, alerts with queued answers, prompts, sidebars and toasts', () => {
    const rt = createRuntime({distDir: null});
    const ui = rt.globals.SpreadsheetApp.getUi();
    const sub = ui.createMenu('More').addItem('Push budgets', 'pushBudgets');
    ui.createAddonMenu()
      .addItem('Open', 'showSidebar')
      .addSeparator()
      .addSubMenu(sub)
      .addToUi();
    expect(rt.ui.functionFor('Push budgets')).toBe('pushBudgets');
    expect(rt.ui.menus[0].entries.map(e => e.kind)).toEqual([
      'item',
      'separator',
      'submenu',
    ]);

    expect(ui.alert('Sure?', 'Push 3 rows?', ui.ButtonSet.YES_NO)).toBe(
      ui.Button.YES,
    );
    rt.ui.answerNextAlert('NO');
    expect(ui.alert('Push?', ui.ButtonSet.YES_NO)).toBe(ui.Button.NO);
    rt.ui.answerNextAlert('NO');
    expect(() => ui.alert('Only OK')).toThrow('not a button of ButtonSet.OK');
    rt.ui.answerNextPrompt('acme-sub', 'OK');
    expect(ui.prompt('Sub-account?').getResponseText()).toBe('acme-sub');

    const html =
      rt.globals.HtmlService.createHtmlOutput('<b>hi</b>').setTitle(
        'Offer Desk',
      );
    ui.showSidebar(html);
    expect(rt.ui.sidebar()).toMatchObject({
      title: 'Offer Desk',
      html: '<b>hi</b>',
    });
    rt.globals.SpreadsheetApp.getActive().toast('Done', 'Offer Desk', 3);
    expect(rt.ui.toasts()).toMatchObject([
      {message: 'Done', title: 'Offer Desk', timeoutSeconds: 3},
    ]);
    expect(rt.ui.alerts().map(a => a.response)).toEqual(['YES', 'NO']);
  });
});

describe('DriveApp', () => {
  it('reads files of a local folder by id, or says it cannot find them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'runtime-drive-'));
    writeFileSync(
      join(dir, 'banner.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    );
    const rt = createRuntime({
      distDir: null,
      drive: {dir, files: {'1AbCdEf': join(dir, 'banner.png')}},
    });
    const file = rt.globals.DriveApp.getFileById('1AbCdEf');
    expect([file.getName(), file.getMimeType(), file.getSize()]).toEqual([
      'banner.png',
      'image/png',
      4,
    ]);
    const blob = file.getBlob();
    expect([blob.getName(), blob.getContentType(), blob.getBytes()]).toEqual([
      'banner.png',
      'image/png',
      [-119, 80, 78, 71],
    ]);
    expect(rt.globals.DriveApp.getFileById('banner.png').getId()).toBe(
      'banner.png',
    );
    expect(() => rt.globals.DriveApp.getFileById('missing')).toThrow(
      'No item with the given ID could be found, or you do not have permission to access it.',
    );
    expect(() => rt.globals.DriveApp.getFileById('../etc')).toThrow(
      'No item with the given ID',
    );
  });
});

describe('Session', () => {
  it('names the user the execution runs as, with a stable opaque key', () => {
    const rt = createRuntime({
      distDir: null,
      users: ['ann@example.com', 'bob@example.com'],
      scriptTimeZone: 'Asia/Shanghai',
    });
    const S = rt.globals.Session;
    expect(S.getActiveUser().getEmail()).toBe('ann@example.com');
    const annKey = S.getTemporaryActiveUserKey();
    expect(annKey).not.toContain('ann');
    rt.setUser('bob@example.com');
    expect(S.getEffectiveUser().getEmail()).toBe('bob@example.com');
    expect(S.getTemporaryActiveUserKey()).not.toBe(annKey);
    expect(S.getScriptTimeZone()).toBe('Asia/Shanghai');
  });
});
