import {ApiError, ConfigError} from '../../../src/api/errors';
import {LockBusyError} from '../../../src/jobs/run';
import {
  getSchedule,
  scheduledRefresh,
  setRefreshSchedule,
} from '../../../src/jobs/host/schedule';
import {getSettings} from '../../../src/jobs/host/settings';
import type {Workbook} from '../../../src/platform/ports';
import {ScriptedTransport, fakePlatform} from '../../support/fakes';
import {RecordingTriggers, summary} from '../ui/fakes';

function setup() {
  const triggers = new RecordingTriggers();
  // No state sheet: nothing pulled yet, so a schedule's calls are those of empty lists.
  const workbook = {
    timeZone: () => 'Europe/Berlin',
    name: () => 'Offers of the agency',
    sheet: () => null,
  } as unknown as Workbook;
  const platform = fakePlatform(
    new ScriptedTransport(() => {
      throw new Error('no request expected');
    }),
    {triggers, workbook: () => workbook},
  );
  return {platform, triggers};
}

/** A refresh of everything saved hourly, as the trigger finds it. */
function scheduled() {
  const desk = setup();
  setRefreshSchedule(desk.platform, 1);
  return desk;
}

describe('setRefreshSchedule', () => {
  it('installs one time-driven trigger for scheduledRefresh, every n hours', () => {
    const {platform, triggers} = setup();
    const view = setRefreshSchedule(platform, 4);
    expect(triggers.list()).toEqual([
      {handler: 'scheduledRefresh', timing: {everyHours: 4}},
    ]);
    expect(view).toEqual({
      hours: 4,
      hourOfDay: null,
      timeZone: 'Europe/Berlin',
      job: 'refreshAll',
      triggerMissing: false,
      paused: null,
      lastRun: null,
    });
    expect(getSettings(platform).refreshEveryHours).toBe(4);
  });

  it('replaces the trigger when saved again, so there is only ever one', () => {
    const {platform, triggers} = setup();
    setRefreshSchedule(platform, 1);
    setRefreshSchedule(platform, 12, {job: 'refreshOffers'});
    const view = setRefreshSchedule(platform, 24, {
      hourOfDay: 6,
      job: 'refreshCampaigns',
    });
    expect(triggers.list()).toEqual([
      {handler: 'scheduledRefresh', timing: {everyDays: 1, atHour: 6}},
    ]);
    expect(view).toMatchObject({
      hours: 24,
      hourOfDay: 6,
      job: 'refreshCampaigns',
    });
  });

  it('runs daily at an hour Apps Script picks when no hour is given', () => {
    const {platform, triggers} = setup();
    setRefreshSchedule(platform, 24);
    expect(triggers.list()).toEqual([
      {handler: 'scheduledRefresh', timing: {everyDays: 1, atHour: undefined}},
    ]);
  });

  it('0 removes the trigger and the schedule', () => {
    const {platform, triggers} = setup();
    setRefreshSchedule(platform, 2);
    expect(setRefreshSchedule(platform, 0)).toMatchObject({hours: 0});
    expect(triggers.list()).toEqual([]);
    expect(getSettings(platform).refreshEveryHours).toBe(0);
  });

  it.each([
    [
      3,
      {},
      'A scheduled refresh runs every 1, 2, 4, 6, 8, 12 hours or once a day (24): 3 is none of these.',
    ],
    [
      4,
      {hourOfDay: 6},
      'An hour of the day applies only to the daily refresh (24 hours).',
    ],
    [
      24,
      {hourOfDay: 24},
      'The hour of the day must be a whole hour from 0 to 23, not 24.',
    ],
    [
      24,
      {hourOfDay: 6.5},
      'The hour of the day must be a whole hour from 0 to 23, not 6.5.',
    ],
    [
      1,
      {job: 'pushBudgets'},
      '"pushBudgets" cannot be scheduled: choose one of refreshCampaigns, refreshOffers, refreshCreatives, refreshAll, refreshSubAccounts.',
    ],
  ])(
    'refuses %p hours with %p and keeps the schedule it had',
    (hours, options, message) => {
      const {platform, triggers} = setup();
      setRefreshSchedule(platform, 8);
      expect(() => setRefreshSchedule(platform, hours, options)).toThrow(
        new ConfigError(message),
      );
      expect(triggers.list()).toEqual([
        {handler: 'scheduledRefresh', timing: {everyHours: 8}},
      ]);
    },
  );

  it('says when the saved schedule lost its trigger outside Offer Desk', () => {
    const {platform, triggers} = setup();
    setRefreshSchedule(platform, 6);
    triggers.installed.clear();
    expect(getSchedule(platform).triggerMissing).toBe(true);
  });
});

describe('scheduledRefresh', () => {
  it('runs the chosen refresh and records its summary for the sidebar', () => {
    const {platform} = scheduled();
    setRefreshSchedule(platform, 4, {job: 'refreshOffers'});
    const ran: string[] = [];
    const record = scheduledRefresh(platform, job => {
      ran.push(job);
      return summary({
        ok: 300,
        message: '300 OK, 0 invalid, 0 error, 0 unchanged (main account).',
      });
    });
    expect(ran).toEqual(['refreshOffers']);
    const expected = {
      at: platform.clock.now(),
      outcome: 'ok',
      message:
        'Refresh offers and budgets: 300 OK, 0 invalid, 0 error, 0 unchanged (main account).',
    };
    expect(record).toEqual(expected);
    expect(getSchedule(platform).lastRun).toEqual(expected);
  });

  it('runs everything when no refresh was chosen', () => {
    const {platform} = scheduled();
    const ran: string[] = [];
    scheduledRefresh(platform, job => {
      ran.push(job);
      return summary();
    });
    expect(ran).toEqual(['refreshAll']);
  });

  it('marks a run whose rows need attention', () => {
    const {platform} = scheduled();
    const record = scheduledRefresh(platform, () =>
      summary({ok: 2, error: 1, message: '2 OK, 0 invalid, 1 error'}),
    );
    expect(record.outcome).toBe('attention');
  });

  it('skips and says why when another job holds the spreadsheet', () => {
    const {platform} = scheduled();
    const record = scheduledRefresh(platform, () => {
      throw new LockBusyError();
    });
    expect(record).toEqual({
      at: platform.clock.now(),
      outcome: 'skipped',
      message:
        'Refresh everything skipped: another Offer Desk job was running in this spreadsheet. The next scheduled refresh tries again.',
    });
  });

  it('records a failure the user can act on, and returns normally', () => {
    const {platform} = scheduled();
    const record = scheduledRefresh(platform, () => {
      throw new ApiError('GET offers', 200, 10004, 'invalid access-key', {});
    });
    expect(record).toMatchObject({
      outcome: 'error',
      message:
        'Refresh everything failed: GET offers: code 10004 invalid access-key',
    });
  });

  it('records an unforeseen failure, then throws it so Apps Script reports it', () => {
    const {platform} = scheduled();
    const bug = new TypeError('x is undefined');
    expect(() =>
      scheduledRefresh(platform, () => {
        throw bug;
      }),
    ).toThrow(bug);
    expect(getSchedule(platform).lastRun).toMatchObject({
      outcome: 'error',
      message:
        'Refresh everything failed: Offer Desk stopped unexpectedly: x is undefined. Rows already written keep their status; running the job again continues.',
    });
  });
});

describe('the trigger’s own conditions', () => {
  it('explains a 21st scheduled spreadsheet in either of Apps Script’s wordings, and leaves none', () => {
    for (const google of [
      'This add-on has created too many time-based triggers in this document for this Google user account.',
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    ]) {
      const {platform, triggers} = setup();
      triggers.createTimeDriven = () => {
        throw new Error(google);
      };
      expect(() => setRefreshSchedule(platform, 4)).toThrow(
        new ConfigError(
          `The scheduled refresh was not saved, and none runs in this spreadsheet now: Google refused its trigger ("${google}"). Google allows one person 20 triggers of an add-on, in all spreadsheets together, and each scheduled refresh is one: yours are probably running in 20 other spreadsheets. Turn off the scheduled refresh of a spreadsheet you no longer need refreshed (open it, then Extensions > Offer Desk > Schedule > Turn scheduled refresh off), then save this one again.`,
        ),
      );
      expect(getSchedule(platform).hours).toBe(0);
    }
  });

  it('saves the spreadsheet’s id and its trigger’s with the schedule', () => {
    const {platform} = scheduled();
    expect(
      JSON.parse(platform.userProperties.get('offerDesk.schedule.doc-1')!),
    ).toEqual({
      hours: 1,
      job: 'refreshAll',
      spreadsheetId: 'doc-1',
      triggerId: 't1',
      requests: 4,
      name: 'Offers of the agency',
    });
  });

  it('runs nothing, and counts no failure, while authorization is required', () => {
    const {platform} = scheduled();
    platform.authorization = {required: () => true, url: () => 'https://auth'};
    const ran: string[] = [];
    for (let n = 0; n < 6; n++) {
      expect(
        scheduledRefresh(platform, job => {
          ran.push(job);
          return summary();
        }).outcome,
      ).toBe('unauthorized');
    }
    expect(ran).toEqual([]);
    expect(getSchedule(platform).paused).toBeNull();
  });

  it('records the daily trigger quota as no failure, however often, and does not throw it', () => {
    const {platform} = scheduled();
    for (let n = 0; n < 6; n++) {
      expect(
        scheduledRefresh(platform, () => {
          throw new Error('Service using too much computer time for one day');
        }).outcome,
      ).toBe('quota');
    }
    expect(getSchedule(platform).paused).toBeNull();
  });

  it('finds its schedule by the trigger id where Apps Script gives no spreadsheet', () => {
    const {platform} = scheduled();
    platform.activeDocumentId = () => null;
    const record = scheduledRefresh(platform, () => summary(), {
      triggerUid: 't1',
    });
    expect(record.outcome).toBe('misfired');
    expect(
      JSON.parse(
        platform.userProperties.get('offerDesk.lastScheduledRun.doc-1')!,
      ),
    ).toMatchObject({outcome: 'misfired'});
  });
});
