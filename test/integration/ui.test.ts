/**
 * The menu, the sidebar's server side and the scheduled refresh, as the built dist/Code.js runs
 * them in the local Apps Script runtime against the in-process emulator.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {createEmulator, DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import {createRuntime, Runtime} from '../../local/runtime';
import {recordsOf, typeInto} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main;
const HOUR_MS = 3600 * 1000;

function setup(): {rt: Runtime; emulator: Emulator} {
  const clock = {now: () => Date.now()};
  const emulator = createEmulator({
    now: () => clock.now(),
    offers: 40,
    campaigns: 6,
    materials: 4,
  });
  const rt = createRuntime({fetch: emulator.handle});
  clock.now = () => rt.clock.now();
  return {rt, emulator};
}

function connect(rt: Runtime, apiKey: string = MAIN.apiKey): void {
  rt.call('saveSettings', {
    baseUrl: 'https://api.emulator.test',
    accessKey: MAIN.accessKey,
    apiKey,
  });
}

/** Counts of service calls by Apps Script service, from the runtime's meter. */
function serviceCalls(rt: Runtime): Record<string, number> {
  const {counts} = rt.snapshot();
  return Object.fromEntries(
    Object.entries(counts).filter(([key]) => !key.includes('.')),
  );
}

describe('onOpen and onInstall', () => {
  it('build the add-on menu in AuthMode.NONE touching no storage', () => {
    const {rt} = setup();
    rt.open('NONE');
    expect(rt.executions[0].error).toBeUndefined();
    // SpreadsheetApp.getUi is the one SpreadsheetApp call AuthMode.NONE allows.
    expect(Object.keys(serviceCalls(rt))).toEqual(['SpreadsheetApp', 'Ui']);
    const spreadsheetCalls = Object.keys(rt.snapshot().counts).filter(k =>
      k.startsWith('SpreadsheetApp.'),
    );
    expect(spreadsheetCalls).toEqual(['SpreadsheetApp.getUi']);
    const [menu] = rt.ui.menus;
    expect(menu.addon).toBe(true);
    expect(menu.entries[0]).toEqual({
      kind: 'item',
      caption: 'Open sidebar',
      functionName: 'showSidebar',
    });
    const submenus = menu.entries.flatMap(e =>
      e.kind === 'submenu' ? [e.menu.name] : [],
    );
    expect(submenus).toEqual([
      'Refresh',
      'Push',
      'Create',
      'Sub-accounts',
      'Schedule',
    ]);
  });

  it('names only functions the bundle declares', () => {
    const {rt} = setup();
    rt.install();
    const names: string[] = [];
    const walk = (entries: Runtime['ui']['menus'][number]['entries']) => {
      for (const e of entries) {
        if (e.kind === 'item') names.push(e.functionName);
        if (e.kind === 'submenu') walk(e.menu.entries);
      }
    };
    walk(rt.ui.menus[0].entries);
    const context = rt.realm.context as Record<string, unknown>;
    expect(names.filter(n => typeof context[n] !== 'function')).toEqual([]);
  });
});

describe('a job run from the menu', () => {
  it('ends with a toast summarising the rows', () => {
    const {rt} = setup();
    connect(rt);
    rt.open('FULL');
    rt.meter.reset();
    rt.clickMenu('Refresh campaigns');
    // The menu and its job share one platform: the spreadsheet is looked up once.
    expect(rt.snapshot().counts['SpreadsheetApp.getActive']).toBe(1);
    expect(rt.ui.toasts()).toEqual([
      expect.objectContaining({
        title: 'Refresh campaigns',
        message: expect.stringMatching(
          /^Refreshed 6 campaigns \(main account\)/,
        ),
      }),
    ]);
    expect(rt.ui.alerts()).toEqual([]);
  });

  it('explains in an alert, without a stack trace, why it could not run', () => {
    const {rt} = setup();
    rt.open('FULL');
    rt.clickMenu('Refresh campaigns');
    expect(rt.ui.alerts()).toEqual([
      expect.objectContaining({
        title: 'Refresh campaigns: not done',
        prompt:
          'Offer Desk is not connected yet: open Extensions > Offer Desk > Open sidebar and save the base URL, access key and api key.',
      }),
    ]);
  });

  it('shows the sidebar from dist/Sidebar.html with its title', () => {
    const {rt} = setup();
    rt.open('NONE');
    rt.clickMenu('Open sidebar');
    const sidebar = rt.ui.sidebar();
    expect(sidebar?.title).toBe('Offer Desk');
    expect(sidebar?.html).toContain('<h2 id="jobs-heading">Jobs</h2>');
  });
});

describe('dist/Sidebar.html', () => {
  const html = readFileSync(join(__dirname, '../../dist/Sidebar.html'), 'utf8');

  it('is one self-contained file: nothing fetched from elsewhere', () => {
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html).toMatch(/<script>[\s\S]+<\/script>/);
    expect(html).not.toContain('<!-- SIDEBAR_SCRIPT -->');
    expect(html).not.toMatch(
      /<link\b|<script[^>]*\ssrc=|@import|url\(|<img\b|<iframe\b/i,
    );
  });

  it('carries no server code and never parses text as HTML', () => {
    for (const server of [
      'SpreadsheetApp',
      'UrlFetchApp',
      'PropertiesService',
      'CacheService',
      'LockService',
      'ScriptApp',
      'HtmlService',
    ]) {
      expect(html).not.toContain(server);
    }
    expect(html).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write/,
    );
  });
});

describe('the connection test through google.script.run', () => {
  it('says the connection works with the right keys and which part fails with wrong ones', () => {
    const {rt, emulator} = setup();
    connect(rt);
    expect(rt.call('testConnection')).toMatchObject({
      ok: true,
      account: 'main account',
      message: expect.stringMatching(
        /^Connected as the main account: URL, keys and clock all work \(6 campaigns visible\)\.$/,
      ),
    });
    connect(rt, 'fake-wrong-api-key-00000000000');
    expect(rt.call('testConnection')).toMatchObject({
      ok: false,
      problem: 'keys',
    });
    connect(rt);
    emulator.faults.configure({clockSkewSeconds: 900});
    expect(rt.call('testConnection')).toMatchObject({
      ok: false,
      problem: 'clock',
    });
  });
});

describe('setRefreshSchedule', () => {
  it('keeps exactly one trigger per user per spreadsheet however often it is saved', () => {
    const {rt} = setup();
    rt.call('setRefreshSchedule', 4);
    rt.call('setRefreshSchedule', 2, {job: 'refreshOffers'});
    const view = rt.call('setRefreshSchedule', 24, {hourOfDay: 6});
    expect(
      rt.triggers.records.map(t => [t.handler, t.everyMs / HOUR_MS, t.user]),
    ).toEqual([['scheduledRefresh', 24, 'user@example.com']]);
    expect(view).toMatchObject({hours: 24, hourOfDay: 6, job: 'refreshAll'});
    expect(rt.call('getSettings')).toMatchObject({refreshEveryHours: 24});
    rt.call('setRefreshSchedule', 0);
    expect(rt.triggers.records).toEqual([]);
    expect(rt.call('getSettings')).toMatchObject({refreshEveryHours: 0});
  });

  it('runs the daily refresh at the chosen hour of the spreadsheet’s day', () => {
    const {rt} = setup();
    rt.globals.SpreadsheetApp.getActive().setSpreadsheetTimeZone('Asia/Tokyo');
    rt.call('setRefreshSchedule', 24, {hourOfDay: 6});
    const [trigger] = rt.triggers.records;
    expect(trigger.timeZone).toBe('Asia/Tokyo');
    expect(new Date(trigger.nextRunMs).toISOString()).toMatch(/T21:00:00/);
  });
});

describe('scheduledRefresh', () => {
  it('refreshes when due, with no one looking, and records the result', () => {
    const {rt, emulator} = setup();
    connect(rt);
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    emulator.clearRequests();
    const [run] = rt.runDueTriggers(rt.clock.now() + HOUR_MS + 1000);
    expect(run).toMatchObject({
      functionName: 'scheduledRefresh',
      kind: 'trigger',
    });
    expect(run.error).toBeUndefined();
    expect(rt.ui.events).toEqual([]);
    expect(emulator.requests.map(r => r.path)).toEqual([
      '/api/open/v3/campaign',
    ]);
    const campaigns = rt.spreadsheet.sheet('Campaigns');
    expect(campaigns?.getLastRow()).toBe(7);
    const {lastRun} = rt.call('getSchedule') as {
      lastRun: {at: number; outcome: string; message: string};
    };
    expect(lastRun.at).toBeLessThanOrEqual(run.endMs!);
    expect(lastRun).toEqual({
      at: lastRun.at,
      outcome: 'ok',
      message: expect.stringMatching(
        /^Refresh campaigns: Refreshed 6 campaigns \(main account\)/,
      ),
    });
  });

  it('skips while a push holds the document lock, sends nothing, and says why', () => {
    const {rt, emulator} = setup();
    connect(rt);
    rt.call('setRefreshSchedule', 1);
    emulator.clearRequests();
    // A push runs in another execution and holds the lock for the next ten minutes.
    rt.locks.holdByOther('document', rt.clock.now() + HOUR_MS + 10 * 60 * 1000);
    const [run] = rt.runDueTriggers(rt.clock.now() + HOUR_MS + 1000);
    expect(run.error).toBeUndefined();
    expect(emulator.requests).toEqual([]);
    expect(rt.ui.events).toEqual([]);
    const {lastRun} = rt.call('getSchedule') as {lastRun: {at: number}};
    expect(lastRun.at).toBeGreaterThan(run.startMs);
    expect(lastRun.at).toBeLessThanOrEqual(run.endMs!);
    expect(lastRun).toEqual({
      at: lastRun.at,
      outcome: 'skipped',
      message:
        'Refresh everything skipped: another Offer Desk job was running in this spreadsheet. The next scheduled refresh tries again.',
    });
  });

  it('records a refusal it cannot fix by itself', () => {
    const {rt} = setup();
    connect(rt, 'fake-wrong-api-key-00000000000');
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    const [run] = rt.runDueTriggers(rt.clock.now() + HOUR_MS + 1000);
    expect(run.error).toBeUndefined();
    expect(rt.call('getSchedule')).toMatchObject({
      lastRun: {
        outcome: 'error',
        message:
          'Refresh campaigns failed: GET campaign: code 10005 invalid token [token: The token must be md5(api_key + md5(timestamp)) in lowercase hex.]',
      },
    });
  });
});

describe('the sidebar’s other calls', () => {
  it('reads progress from the user cache and selects a listed row', () => {
    const {rt} = setup();
    expect(rt.call('getProgress')).toBeNull();
    rt.spreadsheet.insertSheet('Budgets');
    rt.call('selectRow', 'Budgets', 3);
    expect(rt.spreadsheet.getActiveSheet().getName()).toBe('Budgets');
    expect(() => rt.call('selectRow', 'Nope', 3)).toThrow(
      'There is no sheet named "Nope" any more: it was renamed or deleted.',
    );
  });
});

describe('the "Act as" list', () => {
  it('offers every sub-account seen (created, looked up), never one that failed to create', () => {
    const {rt, emulator} = setup();
    connect(rt);
    rt.call('refreshSubAccounts');
    const first = (recordsOf(rt, 'Sub-accounts').length || 0) + 2;
    typeInto(rt, 'Sub-accounts', first, 'sub_adv_user_name', 'team_lisbon');
    typeInto(rt, 'Sub-accounts', first, 'password', 'pa55-word!');
    typeInto(rt, 'Sub-accounts', first + 1, 'sub_adv_user_name', 'ab');
    typeInto(rt, 'Sub-accounts', first + 1, 'password', 'pa55-word!');
    rt.call('createSubAccounts');
    rt.call('setActingAccount', DEMO_ACCOUNTS.subA.name);
    rt.call('setActingAccount', '');
    // The sheet is gone: what was seen is still offered.
    rt.spreadsheet.deleteSheet(rt.spreadsheet.getSheetByName('Sub-accounts')!);
    const listed = rt.call('listActingAccounts') as {
      current: string;
      subAccounts: string[];
    };
    expect(listed.current).toBe('');
    expect(listed.subAccounts).toContain('team_lisbon');
    expect(listed.subAccounts).toContain(DEMO_ACCOUNTS.subA.name);
    expect(listed.subAccounts).not.toContain('ab');
    expect(emulator.account('team_lisbon')).toBeDefined();
  });
});
