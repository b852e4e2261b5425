/**
 * Issue 20, "The runtime as strict as Google": the built add-on (dist/Code.js) in the local
 * runtime that refuses what Google refuses: what onOpen may do by authorization mode, a
 * protection that does not only warn, the triggers of a test deployment, and google.script.run
 * failing in a browser signed into several Google accounts.
 */
import {join} from 'node:path';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {AUTHORIZATION_REQUIRED, PROTECTED_EDIT} from '../../local/runtime';
import type {Runtime} from '../../local/runtime';
import {startSidebarHost} from '../../local/sidebar-host';
import {
  EMULATOR_URL,
  offerDesk,
  recordsOf,
  sheetOf,
} from '../support/offer-desk';

const ANN = 'ann@example.com';
const BOB = 'bob@example.com';
const HOUR_MS = 3600 * 1000;

function connect(rt: Runtime): void {
  rt.call('saveSettings', {
    baseUrl: EMULATOR_URL,
    accessKey: DEMO_ACCOUNTS.main.accessKey,
    apiKey: DEMO_ACCOUNTS.main.apiKey,
  });
}

describe('onOpen in the modes Google runs it in', () => {
  it.each(['NONE', 'LIMITED'] as const)(
    'AuthMode.%s builds the menu; opening the sidebar needs the click, which runs with full authorization',
    mode => {
      const {rt} = offerDesk({offers: 1});
      rt.open(mode);
      expect(rt.executions.at(-1)?.error).toBeUndefined();
      expect(rt.ui.functionFor('Open sidebar')).toBe('showSidebar');
      expect(() => rt.run('showSidebar', {authMode: mode})).toThrow(
        `You do not have permission to call Ui.showSidebar in AuthMode.${mode}. Required permissions: https://www.googleapis.com/auth/script.container.ui`,
      );
      expect(rt.ui.sidebar()).toBeUndefined();
      rt.clickMenu('Open sidebar');
      expect(rt.ui.sidebar()?.title).toBe('Offer Desk');
    },
  );
});

describe('a protection that does not only warn', () => {
  it("refuses a second editor's refresh over it with Apps Script's error; the add-on's own protections only warn", () => {
    const {rt, emulator} = offerDesk({offers: 3}, {users: [ANN, BOB]});
    rt.call('refreshOffers');
    const [id] = emulator.account('demo_adv').offers.keys();
    emulator.updateOffer(id, {offer_name: 'renamed_on_the_server'});
    rt.setUser(BOB);
    connect(rt);
    // The add-on's protections warn: Bob's refresh goes through them.
    expect(rt.call('refreshOffers')).toMatchObject({ok: 3, error: 0});
    expect(recordsOf(rt, 'Offers')[0].offer_name).toBe('renamed_on_the_server');

    // The owner protects the sheet for herself.
    const protection = sheetOf(rt, 'Offers').protect();
    protection.removeEditors(protection.getEditors());
    emulator.updateOffer(id, {offer_name: 'renamed_again'});
    expect(() => rt.call('refreshOffers')).toThrow(PROTECTED_EDIT);
    expect(recordsOf(rt, 'Offers')[0].offer_name).toBe('renamed_on_the_server');

    rt.setUser(ANN);
    expect(rt.call('refreshOffers')).toMatchObject({ok: 3, error: 0});
    expect(recordsOf(rt, 'Offers')[0].offer_name).toBe('renamed_again');
  });
});

describe('a test deployment', () => {
  it('keeps the scheduled refresh but never runs it', () => {
    const {rt, emulator} = offerDesk({offers: 3}, {deployment: 'test'});
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    expect(rt.triggers.records).toHaveLength(1);
    emulator.clearRequests();
    expect(rt.runDueTriggers(rt.clock.now() + 5 * HOUR_MS)).toEqual([]);
    expect(emulator.requests).toEqual([]);
    expect(rt.call('getSchedule')).toMatchObject({
      hours: 1,
      triggerMissing: false,
      lastRun: null,
    });
  });
});

describe('google.script.run in a browser signed into several Google accounts', () => {
  it('fails with the authorization error, and the add-on runs nothing', () => {
    const {rt} = offerDesk({offers: 1});
    const before = rt.executions.length;
    rt.refuseClientCalls();
    expect(() => rt.call('getSidebarState')).toThrow(
      expect.objectContaining({
        name: 'ScriptError',
        message: AUTHORIZATION_REQUIRED,
      }),
    );
    expect(rt.executions).toHaveLength(before);
    rt.acceptClientCalls();
    expect(rt.call('getSidebarState')).toBeDefined();
  });
});

describe('the sidebar host, for the sidebar in such a browser', () => {
  it('answers the sidebar the error the client gives, and runs nothing', async () => {
    const host = await startSidebarHost({
      worldModule: join(__dirname, 'strict-runtime-world.ts'),
    });
    try {
      const before = await host.invoke<number>('executions');
      await host.invoke('refuseClientCalls', {count: 1});
      await expect(host.call('getSidebarState', [])).resolves.toEqual({
        ok: false,
        error: {name: 'ScriptError', message: AUTHORIZATION_REQUIRED},
      });
      await expect(host.invoke<number>('executions')).resolves.toBe(before);
      await expect(host.call('getSidebarState', [])).resolves.toMatchObject({
        ok: true,
      });
    } finally {
      await host.close();
    }
  }, 30000);
});
