import {createRuntime} from '../../local/runtime';

const ADDON = `
function schedule(hours) {
  return ScriptApp.newTrigger('scheduledRefresh').timeBased().everyHours(hours).create().getUniqueId();
}
function scheduleMinutes() { ScriptApp.newTrigger('scheduledRefresh').timeBased().everyMinutes(5).create(); }
function unschedule() {
  ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).forEach(function (t) { ScriptApp.deleteTrigger(t); });
}
function scheduledRefresh(e) {
  PropertiesService.getUserProperties().setProperty('ran', String(e.triggerUid) + '@' + e.hour);
  return e.authMode === ScriptApp.AuthMode.FULL;
}
function uiFromTrigger() { SpreadsheetApp.getUi(); }
`;

function setup(users?: string[]) {
  const rt = createRuntime({distDir: null, users});
  rt.load(ADDON, 'Code.js');
  return rt;
}

describe('ScriptApp triggers', () => {
  it('lets an add-on hold one time-driven trigger per user per document', () => {
    const rt = setup(['ann@example.com', 'bob@example.com']);
    rt.run('schedule', {args: [1]});
    expect(() => rt.run('schedule', {args: [2]})).toThrow(
      'This add-on has created too many time-based triggers in this document for this Google user account.',
    );
    rt.setUser('bob@example.com');
    rt.run('schedule', {args: [4]});
    expect(
      rt.triggers.records.map(t => [t.user, t.handler, t.everyMs / 3600000]),
    ).toEqual([
      ['ann@example.com', 'scheduledRefresh', 1],
      ['bob@example.com', 'scheduledRefresh', 4],
    ]);
    rt.run('unschedule');
    expect(rt.triggers.records.map(t => t.user)).toEqual(['ann@example.com']);
  });

  it('refuses minute-level triggers for add-ons and intervals Apps Script does not offer', () => {
    const rt = setup();
    expect(() => rt.run('scheduleMinutes')).toThrow('at most once per hour');
    expect(() => rt.run('schedule', {args: [3]})).toThrow(
      'everyHours must be 1, 2, 4, 6, 8 or 12',
    );
    const builder = rt.globals.ScriptApp.newTrigger('x').timeBased();
    expect(() => builder.everyMinutes(7)).toThrow(
      'everyMinutes must be 1, 5, 10, 15 or 30',
    );
  });

  it('allows 20 triggers per user per script when not an add-on', () => {
    const rt = createRuntime({distDir: null, addon: false});
    const S = rt.globals.ScriptApp;
    for (let i = 0; i < 20; i++)
      S.newTrigger(`f${i}`).timeBased().everyMinutes(1).create();
    expect(() =>
      S.newTrigger('f20').timeBased().everyHours(1).create(),
    ).toThrow(
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
  });

  it('describes triggers as Apps Script does', () => {
    const rt = setup();
    rt.run('schedule', {args: [1]});
    const [t] = rt.globals.ScriptApp.getProjectTriggers();
    const S = rt.globals.ScriptApp;
    expect([
      t.getHandlerFunction(),
      t.getEventType(),
      t.getTriggerSource(),
      t.getTriggerSourceId(),
    ]).toEqual([
      'scheduledRefresh',
      S.EventType.CLOCK,
      S.TriggerSource.CLOCK,
      null,
    ]);
  });

  it('fires a trigger as its owner, in an execution of its own, with a time-driven event', () => {
    const rt = setup(['ann@example.com', 'bob@example.com']);
    const id = rt.run('schedule', {args: [1]}) as string;
    rt.setUser('bob@example.com');
    expect(rt.fireTrigger(id)).toBe(true);
    expect(rt.properties.user('ann@example.com').toObject()).toEqual({
      ran: `${id}@9`,
    });
    const run = rt.executions[rt.executions.length - 1];
    expect([run.kind, run.user, run.functionName]).toEqual([
      'trigger',
      'ann@example.com',
      'scheduledRefresh',
    ]);
  });

  it('runs due triggers as the virtual clock moves on', () => {
    const rt = setup();
    rt.run('schedule', {args: [2]});
    const runs = rt.runDueTriggers(rt.clock.now() + 5 * 3600000);
    expect(runs.map(r => new Date(r.startMs).getUTCHours())).toEqual([11, 13]);
  });

  it('refuses the UI inside a time-driven trigger', () => {
    const rt = setup();
    rt.globals.ScriptApp.newTrigger('uiFromTrigger')
      .timeBased()
      .everyDays(1)
      .atHour(6)
      .create();
    const runs = rt.runDueTriggers(rt.clock.now() + 86400000);
    expect(
      runs.map(r => [
        r.functionName,
        r.error,
        new Date(r.startMs).getUTCHours(),
      ]),
    ).toEqual([
      [
        'uiFromTrigger',
        'Cannot call SpreadsheetApp.getUi() from this context.',
        6,
      ],
    ]);
  });
});
