/**
 * A spreadsheet that more than one person uses, and a person who uses many spreadsheets: the
 * progress of a running job reaches every editor's sidebar (the document cache), and the
 * user's properties stay inside Google's bounds (9 KB a value, 500 KB a store) without a
 * finished job ever failing for them. The built dist/Code.js in the local runtime.
 */
import type {Runtime} from '../../local/runtime';
import type {SidebarPoll} from '../../src/jobs/host/sidebar-state';
import {offerDesk} from '../support/offer-desk';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const SHEET_ID = '1OfferDeskSpreadsheetId0000000000000000000000';
const STORE_FULL =
  "your Google account's storage for Offer Desk is full (500 KB of user properties)";

/**
 * Runs `call` as `user` in an execution of its own while another is under way, as Apps Script
 * runs a sidebar's poll beside a job (the sidebar host does the same).
 */
function beside<T>(rt: Runtime, user: string, call: () => T): T {
  const running = rt.env.execution;
  const before = rt.env.user;
  rt.env.execution = undefined;
  rt.env.user = user;
  try {
    return call();
  } finally {
    rt.env.user = before;
    rt.env.execution = running;
  }
}

describe('a job’s progress', () => {
  it('reaches the sidebar of another editor of the spreadsheet while it runs', () => {
    const {rt, emulator} = offerDesk({offers: 240}, {users: [OWNER, EDITOR]});
    const polls: SidebarPoll[] = [];
    // The editor's sidebar polls at each API exchange of the owner's refresh.
    rt.setFetch(request => {
      polls.push(
        beside(rt, EDITOR, () => rt.call('getSidebarState') as SidebarPoll),
      );
      return emulator.handle(request);
    });
    rt.open();
    rt.clickMenu('Refresh offers and budgets');
    const running = polls.map(p => p.running).filter(r => r !== null);
    expect(running.length).toBeGreaterThan(1);
    expect(
      running.every(r => r.job === 'refreshOffers' && r.total === 240),
    ).toBe(true);
    expect(running.some(r => r.done > 0 && r.done < r.total)).toBe(true);
    // Once it ended, nobody's sidebar shows it running; its summary is the owner's alone.
    rt.setUser(EDITOR);
    expect(rt.call('getSidebarState')).toEqual({
      version: 0,
      lastJob: null,
      running: null,
      alertsTicked: null,
    });
  });
});

describe('user properties', () => {
  /** Fills the owner's store to `free` bytes short of 500 KB with `key(n)`: values of 8 KB. */
  function fill(rt: Runtime, free: number, key: (n: number) => string): void {
    const store = rt.properties.user(OWNER);
    const room = () => 500 * 1024 - free - store.bytes();
    for (let n = 0; room() > 0; n++) {
      store.map.set(key(n), 'x'.repeat(Math.min(8000, room() - key(n).length)));
    }
  }

  it('forget the spreadsheets used longest ago when the store is full, so the job’s record is kept', () => {
    const {rt} = offerDesk({offers: 3}, {users: [OWNER]});
    const store = rt.properties.user(OWNER);
    rt.call('setRefreshSchedule', 4);
    // Menu jobs' records of some 60 spreadsheets used before the add-on kept their order of use.
    fill(rt, 300, n => `offerDesk.sidebarState.old-${n}`);
    const old = () => [...store.map.keys()].filter(k => k.includes('old-'));
    const before = old().length;
    rt.open();
    rt.clickMenu('Refresh campaigns');
    expect(rt.ui.toasts()).toMatchObject([
      {
        title: 'Refresh campaigns',
        message:
          'Refreshed 5 campaigns (main account): Campaigns: 5 new, 0 removed.',
      },
    ]);
    expect(
      JSON.parse(store.map.get(`offerDesk.sidebarState.${SHEET_ID}`)!),
    ).toMatchObject({lastJob: {title: 'Refresh campaigns'}});
    // One forgotten made room (the first found: their order of use is not known).
    expect(old()).toHaveLength(before - 1);
    expect(old()).not.toContain('offerDesk.sidebarState.old-0');
    expect(store.bytes()).toBeLessThanOrEqual(500 * 1024);
    expect(JSON.parse(store.map.get('offerDesk.spreadsheets')!)).toEqual([
      SHEET_ID,
    ]);
  });

  it('full of what cannot be forgotten: the job ends as usual and says what was not remembered', () => {
    const {rt} = offerDesk({offers: 3}, {users: [OWNER]});
    const store = rt.properties.user(OWNER);
    // Sub-accounts' keys fill the store: they are never forgotten to make room.
    fill(rt, 300, n => `offerDesk.subAccount.sub${n}`);
    rt.open();
    rt.clickMenu('Refresh campaigns');
    expect(rt.executions.at(-1)?.error).toBeUndefined();
    expect(rt.ui.toasts()).toMatchObject([
      {
        title: 'Refresh campaigns',
        message: `Refreshed 5 campaigns (main account): Campaigns: 5 new, 0 removed. The open sidebar does not show this run: ${STORE_FULL}.`,
      },
    ]);
    expect(store.map.has(`offerDesk.sidebarState.${SHEET_ID}`)).toBe(false);
  });

  it('a scheduled run in a full store records what it can and never fails for it', () => {
    const {rt} = offerDesk({offers: 3}, {users: [OWNER]});
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    fill(rt, 0, n => `offerDesk.subAccount.sub${n}`);
    const [run] = rt.runDueTriggers(rt.clock.now() + 3600 * 1000);
    expect(run.error).toBeUndefined();
    expect(rt.call('getSchedule')).toMatchObject({hours: 1, lastRun: null});
  });

  it('the schedule cannot be saved in a full store: the sidebar says why, and no trigger is left', () => {
    const {rt} = offerDesk({offers: 3}, {users: [OWNER]});
    fill(rt, 0, n => `offerDesk.subAccount.sub${n}`);
    expect(() => rt.call('setRefreshSchedule', 4)).toThrow(
      `The scheduled refresh was not saved: ${STORE_FULL}. Turn off scheduled refreshes of spreadsheets you no longer use, then save it again.`,
    );
    expect(rt.triggers.records).toEqual([]);
  });
});
