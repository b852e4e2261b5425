/**
 * A scheduled refresh that fails or finds conflicts tells the user who set it: the last run's
 * result in the sidebar, an email at most once a day per kind of problem (within MailApp's
 * quota), and after 5 failures in a row the schedule pauses itself. The built dist/Code.js in
 * the local runtime, its triggers fired on the virtual clock, against the emulator.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime, RuntimeOptions} from '../../local/runtime';
import {
  EMULATOR_URL,
  offerDesk,
  recordsOf,
  typeInto,
} from '../support/offer-desk';

const HOUR_MS = 3600 * 1000;
const USER = 'user@example.com';
const SHEET_URL =
  'https://docs.google.com/spreadsheets/d/1OfferDeskSpreadsheetId0000000000000000000000/edit';
const BAD_TOKEN =
  'GET campaign: code 10005 invalid token [token: The token must be md5(api_key + md5(timestamp)) in lowercase hex.]';

interface LastRun {
  at: number;
  outcome: string;
  message: string;
  email?: string;
}

interface View {
  hours: number;
  triggerMissing: boolean;
  paused: string | null;
  lastRun: LastRun | null;
}

function keys(rt: Runtime, apiKey: string): void {
  rt.call('saveSettings', {
    baseUrl: EMULATOR_URL,
    accessKey: DEMO_ACCOUNTS.main.accessKey,
    apiKey,
  });
}

const wrongKeys = (rt: Runtime) => keys(rt, 'fake-wrong-api-key-00000000000');
const rightKeys = (rt: Runtime) => keys(rt, DEMO_ACCOUNTS.main.apiKey);

/** Berlin: the times in the emails are the spreadsheet's, an hour ahead of UTC in January. */
function setup(runtime: RuntimeOptions = {}) {
  const desk = offerDesk({offers: 12}, runtime);
  desk.rt.globals.SpreadsheetApp.getActive().setSpreadsheetTimeZone(
    'Europe/Berlin',
  );
  return desk;
}

/** Fires the schedule `count` times (it runs hourly), answering each run's error. */
function hours(rt: Runtime, count: number): Array<string | undefined> {
  return rt.runDueTriggers(rt.clock.now() + count * HOUR_MS).map(r => r.error);
}

const view = (rt: Runtime) => rt.call('getSchedule') as View;
const mails = (rt: Runtime) =>
  rt.outbox.sent.map(m => ({to: m.to, subject: m.subject, body: m.body}));

function failedEmail(time: string) {
  return {
    to: USER,
    subject: 'Offer Desk: the scheduled refresh of "Offer Desk" failed',
    body: [
      `The scheduled refresh (Refresh campaigns) of the spreadsheet "Offer Desk" failed at ${time} (Europe/Berlin).`,
      '',
      `What happened: Refresh campaigns failed: ${BAD_TOKEN}`,
      '',
      'What to do: Open the spreadsheet, then Extensions > Offer Desk > Open sidebar: Test connection says whether the address and keys work. The next scheduled run tries again; after 5 failures in a row the schedule pauses itself.',
      '',
      `Spreadsheet: ${SHEET_URL}`,
      '',
      'Offer Desk emails at most once a day about each kind of problem; the sidebar shows every run under Last scheduled run.',
    ].join('\n'),
  };
}

describe('a scheduled refresh that fails', () => {
  it('emails its owner once on the first day however many runs fail, and again on the next day', () => {
    const {rt, emulator} = setup();
    wrongKeys(rt);
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    expect(hours(rt, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(mails(rt)).toEqual([failedEmail('2026-01-05 11:00')]);
    expect(view(rt)).toMatchObject({
      hours: 1,
      paused: null,
      triggerMissing: false,
      lastRun: {
        outcome: 'error',
        message: `Refresh campaigns failed: ${BAD_TOKEN}`,
        email: 'No email: one about this was already sent today.',
      },
    });
    expect(rt.triggers.records).toHaveLength(1);

    // The keys fixed until just before midnight in Berlin: the runs get through, no email.
    rightKeys(rt);
    emulator.clearRequests();
    rt.runDueTriggers(Date.UTC(2026, 0, 5, 22, 30));
    expect(emulator.requests.length).toBeGreaterThan(0);
    expect(view(rt).lastRun).toMatchObject({outcome: 'ok'});
    expect(view(rt).lastRun?.email).toBeUndefined();
    expect(rt.outbox.sent).toHaveLength(1);

    wrongKeys(rt);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(mails(rt)).toEqual([
      failedEmail('2026-01-05 11:00'),
      failedEmail('2026-01-06 00:00'),
    ]);
    expect(view(rt).lastRun?.email).toBe(`Emailed ${USER}.`);
  });

  it('pauses itself after 5 failures in a row, says why and emails once; a run that gets through resets the count, saving again resumes', () => {
    const {rt} = setup();
    wrongKeys(rt);
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    hours(rt, 4);
    rightKeys(rt);
    hours(rt, 1);
    wrongKeys(rt);
    // 4 failures, 1 that got through, 4 failures: still scheduled.
    hours(rt, 4);
    expect(rt.triggers.records).toHaveLength(1);
    expect(view(rt).paused).toBeNull();

    const runs = rt.runDueTriggers(rt.clock.now() + 3 * HOUR_MS);
    // The fifth failure in a row removed the trigger: nothing ran after it.
    expect(runs).toHaveLength(1);
    expect(rt.triggers.records).toEqual([]);
    const paused = view(rt);
    expect(paused).toMatchObject({
      hours: 1,
      triggerMissing: false,
      paused: `Paused after 5 failed runs in a row: ${BAD_TOKEN}. Choose a schedule again to resume.`,
      lastRun: {
        outcome: 'error',
        message: `Refresh campaigns failed: ${BAD_TOKEN}`,
        email: `Emailed ${USER}.`,
      },
    });
    expect(rt.outbox.sent.map(m => m.subject)).toEqual([
      'Offer Desk: the scheduled refresh of "Offer Desk" failed',
      'Offer Desk: the scheduled refresh of "Offer Desk" is paused',
    ]);
    expect(rt.outbox.sent[1].body.split('\n')).toEqual([
      'The scheduled refresh (Refresh campaigns) of the spreadsheet "Offer Desk" failed 5 times in a row, the last at 2026-01-05 20:00 (Europe/Berlin), so it paused itself: it does not run until you choose a schedule again.',
      '',
      `What happened: Refresh campaigns failed: ${BAD_TOKEN}`,
      '',
      "What to do: Fix the cause (Extensions > Offer Desk > Open sidebar: Test connection), then save the schedule again in the sidebar's Scheduled refresh to resume it.",
      '',
      `Spreadsheet: ${SHEET_URL}`,
      '',
      'Offer Desk emails at most once a day about each kind of problem; the sidebar shows every run under Last scheduled run.',
    ]);

    rightKeys(rt);
    expect(
      rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'}),
    ).toMatchObject({paused: null, triggerMissing: false});
    expect(rt.triggers.records).toHaveLength(1);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(view(rt).lastRun).toMatchObject({outcome: 'ok'});
    expect(rt.outbox.sent).toHaveLength(2);
  });

  it('skipping a turn for a busy lock is no failure: no email, no count', () => {
    const {rt} = setup();
    rt.call('setRefreshSchedule', 1);
    rt.locks.holdByOther('document', rt.clock.now() + 6 * HOUR_MS);
    hours(rt, 5);
    rt.locks.releaseOther('document');
    expect(rt.triggers.records).toHaveLength(1);
    expect(view(rt)).toMatchObject({
      paused: null,
      lastRun: {outcome: 'skipped'},
    });
    expect(view(rt).lastRun?.email).toBeUndefined();
    expect(rt.outbox.sent).toEqual([]);
  });
});

describe('a scheduled refresh that keeps conflicts', () => {
  it('emails once a day about them, and the sidebar says so', () => {
    const {rt, emulator} = setup();
    rt.call('refreshAll');
    /** Edits row `row` of Budgets here and its offer's budget on the server. */
    const conflict = (row: number) => {
      const id = recordsOf(rt, 'Budgets')[row - 2].offer_id as number;
      typeInto(rt, 'Budgets', row, 'total_budget', '4321');
      emulator.updateOffer(id, {
        budget: [
          {
            target_geo: 'ALL',
            total_budget: '999',
            daily_cap_type: 'BUDGET' as const,
            daily_cap: '99',
          },
        ],
      });
    };
    conflict(2);
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(recordsOf(rt, 'Budgets')[0]).toMatchObject({
      sync_status: 'CONFLICT',
    });
    const message = view(rt).lastRun!.message;
    expect(message).toBe(
      'Refresh offers and budgets: Refreshed 12 offers (main account): 1 in CONFLICT (changed here and on the server). 2 fields changed on the server, see History.',
    );
    // Rows wait for the user: the sidebar's last-run line says so, as the email does.
    expect(view(rt).lastRun?.outcome).toBe('attention');
    // The server's side of the conflict is a change made outside Offer Desk (issue 35): the
    // alert email counts it.
    expect(view(rt).lastRun?.email).toBe(
      `Emailed ${USER}. Emailed 2 fields changed on the server to ${USER}.`,
    );
    expect(mails(rt)).toEqual([
      // Sent inside the run; the conflicts email after it.
      expect.objectContaining({
        subject: 'Offer Desk: 2 fields changed on the server in "Offer Desk"',
      }),
      {
        to: USER,
        subject:
          'Offer Desk: the scheduled refresh of "Offer Desk" found conflicts',
        body: [
          'The scheduled refresh (Refresh offers and budgets) of the spreadsheet "Offer Desk" ran at 2026-01-05 11:00 (Europe/Berlin) and kept 1 row as CONFLICT: edited in the sheet while they changed on the server.',
          '',
          `What happened: ${message}`,
          '',
          "What to do: Open the spreadsheet and look at the rows whose sync_status is CONFLICT: push to send your values, or type the server's values (in sync_message) to keep them.",
          '',
          `Spreadsheet: ${SHEET_URL}`,
          '',
          'Offer Desk emails at most once a day about each kind of problem; the sidebar shows every run under Last scheduled run.',
        ].join('\n'),
      },
    ]);

    conflict(3);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(view(rt).lastRun?.message).toMatch(/1 in CONFLICT/);
    expect(view(rt).lastRun?.email).toBe(
      `No email: one about this was already sent today. Emailed 2 fields changed on the server to ${USER}.`,
    );
    expect(rt.outbox.sent).toHaveLength(3);
  });
});

describe('when no email can go', () => {
  /** The campaigns refresh scheduled with refused keys, failing `runs` times: no email. */
  function failing(rt: Runtime, runs: number): LastRun | null {
    wrongKeys(rt);
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    expect(hours(rt, runs)).toEqual(Array(runs).fill(undefined));
    expect(rt.outbox.sent).toEqual([]);
    return view(rt).lastRun;
  }

  /** The run's own result, whatever became of the email. */
  const failed = (email: string) => ({
    at: expect.any(Number),
    outcome: 'error',
    message: `Refresh campaigns failed: ${BAD_TOKEN}`,
    email,
  });

  it('with the daily quota used up, sends none, keeps the run’s result and says so', () => {
    const {rt} = setup({mailDailyQuota: 0});
    expect(failing(rt, 2)).toEqual(
      failed(
        'No email: the daily email quota of this Google account is used up.',
      ),
    );
  });

  it('without the owner’s address, sends none and says so', () => {
    const {rt} = setup({hideEmail: true});
    expect(failing(rt, 1)).toEqual(
      failed(
        'No email: Google does not give Offer Desk the email address of this account.',
      ),
    );
  });

  it('when MailApp refuses the email, the run still records its own result', () => {
    const {rt} = setup();
    const odd = {getEmail: () => 'not-an-address'};
    rt.globals.Session.getActiveUser = () => odd as never;
    expect(failing(rt, 1)).toEqual(
      failed('No email: sending failed (Invalid email: not-an-address).'),
    );
  });
});

describe('a schedule changed by the user while its run goes on', () => {
  it('stays as the user left it: the run that ends counts no failure into a schedule turned off', () => {
    const {rt} = setup();
    wrongKeys(rt);
    rt.call('setRefreshSchedule', 1, {job: 'refreshCampaigns'});
    const key = `offerDesk.schedule.${SHEET_URL.split('/')[5]}`;
    const props = rt.properties.user(USER).map;
    expect(props.has(key)).toBe(true);
    // The sidebar, in an execution of its own, turns the schedule off while the run fetches.
    rt.collaborator.duringFetch(1, () => {
      props.delete(key);
    });

    expect(hours(rt, 1)).toEqual([undefined]);

    expect(props.has(key)).toBe(false);
    expect(view(rt)).toMatchObject({
      hours: 0,
      paused: null,
      lastRun: {
        outcome: 'error',
        message: `Refresh campaigns failed: ${BAD_TOKEN}`,
      },
    });
  });
});
