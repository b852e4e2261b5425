/**
 * The scheduled refresh of a published add-on, where Google is less kind than a test
 * deployment: its trigger keeps firing after the user must authorize again (and emails no one),
 * runs without the active spreadsheet or the document lock, or in another spreadsheet, and
 * meets the daily trigger runtime quota; the user's 21st scheduled spreadsheet is refused a
 * trigger. The built dist/Code.js in the local runtime, triggers fired on the virtual clock.
 */
import type {Runtime, RuntimeOptions} from '../../local/runtime';
import {TRIGGER_TIME_USED_UP} from '../../local/runtime';
import {offerDesk, triggersUsedUp} from '../support/offer-desk';

const HOUR_MS = 3600 * 1000;
const USER = 'user@example.com';
const SHEET_ID = '1OfferDeskSpreadsheetId0000000000000000000000';
const AUTHORIZE_URL =
  'https://script.google.com/macros/d/offer-desk-script-id/authorize?authuser=user%40example.com';

interface LastRun {
  at: number;
  outcome: string;
  message: string;
  email?: string;
}

interface View {
  hours: number;
  paused: string | null;
  lastRun: LastRun | null;
}

function setup(runtime: RuntimeOptions = {}) {
  const desk = offerDesk({offers: 12}, runtime);
  desk.rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
  desk.emulator.clearRequests();
  return desk;
}

/** Fires the hourly schedule `count` times, answering each run's error. */
function hours(rt: Runtime, count: number): Array<string | undefined> {
  return rt.runDueTriggers(rt.clock.now() + count * HOUR_MS).map(r => r.error);
}

const view = (rt: Runtime) => rt.call('getSchedule') as View;
const subjects = (rt: Runtime) => rt.outbox.sent.map(m => m.subject);

describe('a scheduled run when the user must authorize Offer Desk again', () => {
  const NOT_RUN =
    'Refresh campaigns not run: Google asks you to authorize Offer Desk again (it needs a permission you have not granted, or its access was removed). Choose any item of Extensions > Offer Desk in this spreadsheet to grant it. The schedule stays on and runs again once you have.';

  it('is skipped and said in the sidebar, never paused, and emails the authorization page once a day', () => {
    const {rt, emulator} = setup();
    // A new scope the user has not granted: what needs it throws until they do.
    rt.authorizations.require(USER, ['UrlFetchApp']);
    expect(hours(rt, 6)).toEqual(Array(6).fill(undefined));
    expect(emulator.requests).toEqual([]);
    expect(view(rt)).toMatchObject({
      hours: 1,
      paused: null,
      lastRun: {
        outcome: 'unauthorized',
        message: NOT_RUN,
        email: 'No email: one about this was already sent today.',
      },
    });
    expect(rt.triggers.records).toHaveLength(1);
    expect(rt.outbox.sent).toEqual([
      {
        from: USER,
        to: USER,
        atMs: expect.any(Number),
        subject:
          'Offer Desk: the scheduled refresh of "Offer Desk" needs your authorization',
        body: [
          'The scheduled refresh (Refresh campaigns) of the spreadsheet "Offer Desk" did not run at 2026-01-05 10:00 (Etc/UTC): Google asks you to authorize Offer Desk again, and until you do, no scheduled refresh runs.',
          '',
          `What happened: ${NOT_RUN}`,
          '',
          `What to do: Open ${AUTHORIZE_URL} and allow Offer Desk, or open the spreadsheet and choose any item of Extensions > Offer Desk: Google asks for the authorization there. The schedule stays on and refreshes again once you have.`,
          '',
          `Spreadsheet: https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit`,
          '',
          'Offer Desk emails at most once a day about each kind of problem; the sidebar shows every run under Last scheduled run.',
        ].join('\n'),
      },
    ]);

    // The next day: one more email; once authorized, the schedule refreshes again.
    rt.runDueTriggers(Date.UTC(2026, 0, 6, 0, 30));
    expect(subjects(rt)).toHaveLength(2);
    rt.authorizations.grant(USER);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(view(rt).lastRun).toMatchObject({
      outcome: 'ok',
      message:
        'Refresh campaigns: Refreshed 5 campaigns (main account): Campaigns: 5 new, 0 removed.',
    });
    expect(emulator.requests.length).toBeGreaterThan(0);
    expect(subjects(rt)).toHaveLength(2);
  });

  it('still records the skipped run when MailApp itself waits for the authorization', () => {
    const {rt} = setup();
    rt.authorizations.require(USER, ['UrlFetchApp', 'MailApp']);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(view(rt).lastRun).toEqual({
      at: expect.any(Number),
      outcome: 'unauthorized',
      message: NOT_RUN,
      email:
        'No email: sending failed (Authorization is required to perform that action.).',
    });
    expect(rt.outbox.sent).toEqual([]);
  });
});

describe('a scheduled run without its spreadsheet', () => {
  it('records that Google gave it no active spreadsheet, refreshes nothing and never pauses', () => {
    const {rt, emulator} = setup();
    rt.triggerContext.spreadsheet = false;
    expect(hours(rt, 6)).toEqual(Array(6).fill(undefined));
    rt.triggerContext.spreadsheet = true;
    expect(emulator.requests).toEqual([]);
    expect(view(rt)).toMatchObject({
      paused: null,
      lastRun: {
        outcome: 'misfired',
        message:
          'Refresh campaigns not run: Google started it without its spreadsheet (Apps Script gave the run no active spreadsheet), so nothing was refreshed.',
        email: 'No email: one about this was already sent today.',
      },
    });
    expect(rt.triggers.records).toHaveLength(1);
    // Without the spreadsheet, the email names it by its id and address, in UTC.
    expect(rt.outbox.sent.map(m => [m.subject, m.body.split('\n')[0]])).toEqual(
      [
        [
          `Offer Desk: the scheduled refresh of "spreadsheet ${SHEET_ID}" did not run`,
          `The scheduled refresh (Refresh campaigns) of the spreadsheet "spreadsheet ${SHEET_ID}" did not run at 2026-01-05 10:00 (UTC): Google started it without its spreadsheet (Apps Script gave the run no active spreadsheet), so nothing was refreshed.`,
        ],
      ],
    );
  });

  it('records that it got no document lock, and refreshes nothing', () => {
    const {rt, emulator} = setup();
    rt.triggerContext.documentLock = false;
    expect(hours(rt, 1)).toEqual([undefined]);
    rt.triggerContext.documentLock = true;
    expect(emulator.requests).toEqual([]);
    expect(view(rt).lastRun).toMatchObject({
      outcome: 'misfired',
      message:
        'Refresh campaigns not run: Apps Script gave the run no document lock (outside the spreadsheet’s context), so nothing was refreshed.',
    });
  });

  it('records a trigger that fired in another spreadsheet on the schedule it belongs to', () => {
    const {rt, emulator} = setup();
    // The schedule (and its trigger) belong to another spreadsheet of this user.
    const props = rt.properties.user(USER).map;
    const key = `offerDesk.schedule.${SHEET_ID}`;
    props.set('offerDesk.schedule.other-sheet', props.get(key)!);
    props.delete(key);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(emulator.requests).toEqual([]);
    expect(
      JSON.parse(props.get('offerDesk.lastScheduledRun.other-sheet')!),
    ).toMatchObject({
      outcome: 'misfired',
      message: `Refresh campaigns not run: its trigger fired in another spreadsheet (${SHEET_ID}), so nothing was refreshed.`,
    });
    expect(view(rt).lastRun).toBeNull();
  });

  it('says so where a trigger fires that no schedule of the user has', () => {
    const {rt, emulator} = setup();
    rt.properties.user(USER).map.delete(`offerDesk.schedule.${SHEET_ID}`);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(emulator.requests).toEqual([]);
    expect(view(rt)).toMatchObject({
      hours: 0,
      lastRun: {
        outcome: 'misfired',
        message:
          'Refresh everything not run: a trigger of Offer Desk fired in this spreadsheet, but no scheduled refresh of yours is saved here, so it refreshed nothing. Choose Off and save in Scheduled refresh to remove the trigger.',
      },
    });
    rt.call('setRefreshSchedule', 0);
    expect(rt.triggers.records).toEqual([]);
  });
});

describe('the daily trigger runtime quota', () => {
  it('is no failure: the run says what it means, the schedule never pauses, the next day runs', () => {
    // Room for one run of about 1.4 s (virtual), which applies due changes first and then
    // refreshes: the second crosses it early on.
    const {rt} = setup({triggerDailyRuntimeMs: 1800});
    const errors = hours(rt, 7);
    // The second run got the error mid-way and recorded it; Google refuses the later ones at once.
    expect(errors).toEqual([
      undefined,
      undefined,
      ...Array(5).fill(TRIGGER_TIME_USED_UP),
    ]);
    expect(view(rt)).toMatchObject({
      hours: 1,
      paused: null,
      lastRun: {
        outcome: 'quota',
        message:
          'Refresh campaigns did not finish: Google\'s daily time for triggers is used up ("Service using too much computer time for one day": 90 minutes a day for a gmail.com account, 6 hours with Google Workspace, for all triggers of the account together). This is no fault of the refresh: the schedule stays on and runs again once the time resets, within 24 hours. A longer interval (every 4, 8 or 12 hours, or once a day) uses less of it.',
      },
    });
    expect(view(rt).lastRun?.email).toBeUndefined();
    expect(rt.outbox.sent).toEqual([]);
    expect(rt.triggers.records).toHaveLength(1);

    // A new day, a new quota: the schedule refreshes again.
    rt.runDueTriggers(Date.UTC(2026, 0, 6, 0, 30));
    const next = view(rt).lastRun!;
    expect(next.outcome).toBe('ok');
    expect(next.at).toBeGreaterThan(Date.UTC(2026, 0, 6));
  });
});

describe('a 21st scheduled spreadsheet', () => {
  it('is refused with what Google’s error means and what to do', () => {
    const {rt} = offerDesk({offers: 3});
    triggersUsedUp(rt, USER);
    expect(() => rt.call('setRefreshSchedule', 4)).toThrow(
      'The scheduled refresh was not saved, and none runs in this spreadsheet now: Google refused its trigger ("This script has too many triggers. Triggers must be deleted from the script before more can be added."). Google allows one person 20 triggers of an add-on, in all spreadsheets together, and each scheduled refresh is one: yours are probably running in 20 other spreadsheets. Turn off the scheduled refresh of a spreadsheet you no longer need refreshed (open it, then Extensions > Offer Desk > Schedule > Turn scheduled refresh off), then save this one again.',
    );
    expect(view(rt)).toMatchObject({hours: 0});
  });
});
