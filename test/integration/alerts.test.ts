/**
 * Issue 21, "Done when": the alerts of a refresh of offers on the built bundle. An admin
 * change of an offer's status and stop reason on the emulator, then a scheduled refresh: one
 * Alerts row and one email naming the offer and the reason; a refresh with no change: nothing;
 * the condition clearing: one row.
 */
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf, sheetOf, typeInto} from '../support/offer-desk';

const HOUR = 3600_000;

/** Three running offers, pulled once (the first pull tells nothing: nothing to compare with). */
function watched(clickTestSeconds = 30) {
  const desk = offerDesk({offers: 3, clickTestSeconds});
  const ids = [...desk.emulator.account('demo_adv').offers.keys()];
  for (const id of ids)
    desk.emulator.updateOffer(id, {status: 'RUNNING', offer_stop_reason: ''});
  desk.rt.call('refreshOffers');
  const name = (id: number) => desk.emulator.offerView(id)!.offer_name;
  return {...desk, ids, name};
}

const alerts = (rt: Runtime) =>
  rt.spreadsheet.getSheetByName('Alerts')
    ? recordsOf(rt, 'Alerts').map(r => [
        r.account,
        r.offer_id,
        r.offer_name,
        r.what,
        r.before,
        r.after,
        r.reason,
        r.seen,
      ])
    : [];

const hourLater = (rt: Runtime) => rt.runDueTriggers(rt.clock.now() + HOUR);

describe('Alerts: what changed on the server that needs a person', () => {
  it('a scheduled refresh tells a stopped offer once, by a row and an email; its clearing by one row', () => {
    const {rt, emulator, ids, name} = watched();
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    hourLater(rt);
    expect(alerts(rt)).toEqual([]);
    expect(rt.outbox.sent).toEqual([]);

    const id = ids[1];
    emulator.updateOffer(id, {
      status: 'STOPPED',
      offer_stop_reason: 'INSUFFICIENT_BALANCE',
    });
    hourLater(rt);
    expect(alerts(rt)).toEqual([
      [
        '(main account)',
        id,
        name(id),
        'status left RUNNING',
        'RUNNING',
        'STOPPED',
        'INSUFFICIENT_BALANCE',
        '',
      ],
    ]);
    expect(rt.outbox.sent).toHaveLength(1);
    const [mail] = rt.outbox.sent;
    // The status is a watched field too: History has it (issue 35), the email counts it.
    expect(mail.subject).toBe(
      'Offer Desk: 1 new alert and 1 field changed on the server in "Offer Desk"',
    );
    expect(mail.body).toContain(
      `• offer ${id} (${name(id)}): status left RUNNING (RUNNING → STOPPED), reason INSUFFICIENT_BALANCE`,
    );
    expect(mail.body).toContain(
      `Spreadsheet (sheet Alerts): ${rt.spreadsheet.getUrl()}`,
    );
    expect(
      (rt.call('getSchedule') as {lastRun?: {email?: string}}).lastRun?.email,
    ).toBe(
      `Emailed 1 new alert and 1 field changed on the server to ${mail.to}.`,
    );

    // No change: no row, no email.
    hourLater(rt);
    expect(alerts(rt)).toHaveLength(1);
    expect(rt.outbox.sent).toHaveLength(1);

    // It clears: one row.
    emulator.updateOffer(id, {status: 'RUNNING', offer_stop_reason: ''});
    hourLater(rt);
    expect(alerts(rt).slice(1)).toEqual([
      [
        '(main account)',
        id,
        name(id),
        'status back to RUNNING',
        'STOPPED',
        'RUNNING',
        '',
        '',
      ],
    ]);
    hourLater(rt);
    expect(alerts(rt)).toHaveLength(2);
  });

  it('a menu refresh names the new alerts; the sidebar counts the rows not seen', () => {
    const {rt, emulator, ids, name} = watched();
    emulator.updateOffer(ids[0], {offer_stop_reason: 'CREATIVE_REJECTED'});
    emulator.updateOffer(ids[2], {status: 'OVER_DAILY_CAP'});
    const summary = rt.call('refreshOffers') as {
      message: string;
      alerts: string[];
    };
    expect(summary.alerts).toEqual([
      `offer ${ids[0]} (${name(ids[0])}): stop reason appeared (now CREATIVE_REJECTED), reason CREATIVE_REJECTED`,
      `offer ${ids[2]} (${name(ids[2])}): status left RUNNING (RUNNING → OVER_DAILY_CAP)`,
    ]);
    expect(summary.message).toMatch(/ 2 new alerts: offer .*\.$/);
    expect(rt.outbox.sent).toEqual([]);
    expect(rt.call('countUnseenAlerts')).toBe(2);
    typeInto(rt, 'Alerts', 2, 'seen', 'x');
    expect(rt.call('countUnseenAlerts')).toBe(1);
    // The sheet warns before an edit, and keeps the time as a date.
    const protection = sheetOf(rt, 'Alerts').getProtections(
      rt.globals.SpreadsheetApp.ProtectionType.SHEET,
    )[0];
    expect(protection.isWarningOnly()).toBe(true);
  });

  it('a click URL not passed 6 hours after the add-on set the tracking, told once', () => {
    // The click URL test takes 8 hours on this server.
    const {rt, emulator, ids} = watched(8 * 3600);
    const id = ids[0];
    emulator.updateOffer(id, {
      maintain_by: 'ADV',
      tracking_method: 'APPSFLYER',
    });
    rt.call('refreshOffers');
    const row = recordsOf(rt, 'Offers').findIndex(r => r.offer_id === id) + 2;
    typeInto(rt, 'Offers', row, 'click_url', 'https://track.example.com/new');
    typeInto(rt, 'Offers', row, 'support_server_click', 'NO');
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    rt.clock.advance(5 * HOUR);
    rt.call('refreshOffers');
    expect(alerts(rt)).toEqual([]);
    rt.clock.advance(2 * HOUR);
    rt.call('refreshOffers');
    rt.call('refreshOffers');
    expect(alerts(rt).map(a => [a[1], a[3], a[5]])).toEqual([
      [id, 'click URL not passed 6 hours after Offer Desk set it', 'PENDDING'],
    ]);
    rt.clock.advance(2 * HOUR);
    rt.call('refreshOffers');
    expect(alerts(rt).map(a => [a[1], a[3], a[4], a[5]])[1]).toEqual([
      id,
      'click URL passed its test',
      'PENDDING',
      'PASS',
    ]);
  });

  it("writes nothing into the user's own sheet named Alerts, but names the alerts, and writes them once it is renamed", () => {
    const {rt, emulator, ids} = watched();
    const own = rt.spreadsheet.insertSheet('Alerts');
    own.getRange('A1:B2').setValues([
      ['my notes', 'owner'],
      ['call the bank', 'ana'],
    ]);
    emulator.updateOffer(ids[0], {status: 'STOPPED'});
    const first = rt.call('refreshOffers') as {
      message: string;
      alerts: string[];
    };
    const line = new RegExp(
      `^offer ${ids[0]} .*: status left RUNNING \\(RUNNING → STOPPED\\)$`,
    );
    expect(first.alerts).toEqual([expect.stringMatching(line)]);
    expect(first.message).toMatch(
      /1 new alert: offer .*\. The Alerts sheet could not be written \(Row 1 of the Alerts sheet has no time header.*\): the next refresh of offers writes its alerts\.$/,
    );
    expect(own.getRange('A1:B2').getValues()).toEqual([
      ['my notes', 'owner'],
      ['call the bank', 'ana'],
    ]);
    own.setName('My alerts');
    const second = rt.call('refreshOffers') as {
      message: string;
      alerts?: string[];
    };
    // Told once, by the first summary; written now.
    expect(second.alerts).toBeUndefined();
    expect(second.message).not.toMatch(/alert/);
    expect(alerts(rt).map(a => a[3])).toEqual(['status left RUNNING']);
  });
});

interface LastRun {
  outcome: string;
  message: string;
  email?: string;
}

const lastRun = (rt: Runtime) =>
  (rt.call('getSchedule') as {lastRun: LastRun}).lastRun;

/** The emails of alerts sent so far, by the lines naming offers. */
const alertMails = (rt: Runtime) =>
  rt.outbox.sent
    .filter(m => m.subject.includes('new alert'))
    .map(m => m.body.split('\n').filter(l => l.startsWith('• ')));

/** Renames the header `from` of `sheet` to `to`, as a person would. */
function retype(rt: Runtime, sheet: string, from: string, to: string) {
  const header = sheetOf(rt, sheet)
    .getRange(1, 1, 1, sheetOf(rt, sheet).getLastColumn())
    .getValues()[0];
  sheetOf(rt, sheet)
    .getRange(1, header.indexOf(from) + 1)
    .setValue(to);
}

describe('An alert is told once, whatever fails in the run (issue 26)', () => {
  it('a refresh that fails at Budgets after saving Offers: the next refresh writes, names and emails the alert', () => {
    const {rt, emulator, ids, name} = watched();
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    emulator.updateOffer(ids[1], {
      status: 'STOPPED',
      offer_stop_reason: 'INSUFFICIENT_BALANCE',
    });
    retype(rt, 'Budgets', 'offer_id', 'which offer');
    hourLater(rt);
    expect(lastRun(rt).outcome).toBe('error');
    // The Offers state was saved: the next pull compares STOPPED with STOPPED.
    expect(
      recordsOf(rt, 'Offers').find(r => r.offer_id === ids[1])!.status,
    ).toBe('STOPPED');
    expect(alertMails(rt)).toEqual([]);

    retype(rt, 'Budgets', 'which offer', 'offer_id');
    hourLater(rt);
    const told = `• offer ${ids[1]} (${name(ids[1])}): status left RUNNING (RUNNING → STOPPED), reason INSUFFICIENT_BALANCE`;
    expect(lastRun(rt)).toMatchObject({
      outcome: 'ok',
      email: 'Emailed 1 new alert to user@example.com.',
    });
    expect(lastRun(rt).message).toContain(told.slice(2));
    expect(alertMails(rt)).toEqual([[told]]);
    expect(alerts(rt).map(a => [a[1], a[3]])).toEqual([
      [ids[1], 'status left RUNNING'],
    ]);
    // Told once: the next run neither writes nor emails it again.
    hourLater(rt);
    expect(alertMails(rt)).toHaveLength(1);
    expect(alerts(rt)).toHaveLength(1);
  });

  it('a menu refresh that fails at Budgets: the next one names the alert in its summary', () => {
    const {rt, emulator, ids} = watched();
    emulator.updateOffer(ids[0], {status: 'STOPPED'});
    retype(rt, 'Budgets', 'offer_id', 'which offer');
    expect(() => rt.call('refreshOffers')).toThrow(/offer_id/);
    retype(rt, 'Budgets', 'which offer', 'offer_id');
    const summary = rt.call('refreshOffers') as {alerts: string[]};
    expect(summary.alerts).toEqual([
      expect.stringMatching(
        new RegExp(`^offer ${ids[0]} .*: status left RUNNING`),
      ),
    ]);
    expect(alerts(rt).map(a => a[3])).toEqual(['status left RUNNING']);
  });

  it('a scheduled refresh that fails at Creatives after writing its alerts: the next good run emails them, once', () => {
    const {rt, emulator, ids, name} = watched();
    rt.call('refreshAll');
    rt.call('setRefreshSchedule', 1, {job: 'refreshAll'});
    emulator.updateOffer(ids[2], {status: 'STOPPED'});
    retype(rt, 'Creatives', 'creative_md5', 'which file');
    hourLater(rt);
    expect(lastRun(rt).outcome).toBe('error');
    expect(alerts(rt).map(a => [a[1], a[3]])).toEqual([
      [ids[2], 'status left RUNNING'],
    ]);
    expect(alertMails(rt)).toEqual([]);

    retype(rt, 'Creatives', 'which file', 'creative_md5');
    hourLater(rt);
    expect(alertMails(rt)).toEqual([
      [
        `• offer ${ids[2]} (${name(ids[2])}): status left RUNNING (RUNNING → STOPPED)`,
      ],
    ]);
    expect(alerts(rt)).toHaveLength(1);
    hourLater(rt);
    expect(alertMails(rt)).toHaveLength(1);
  });

  it("with the user's own sheet named Alerts, scheduled runs say so and still email each alert once", () => {
    const {rt, emulator, ids, name} = watched();
    rt.spreadsheet.insertSheet('Alerts').getRange('A1').setValue('my notes');
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    emulator.updateOffer(ids[0], {status: 'STOPPED'});
    hourLater(rt);
    expect(lastRun(rt)).toMatchObject({
      outcome: 'attention',
      email:
        'Emailed 1 new alert and 1 field changed on the server to user@example.com.',
    });
    expect(lastRun(rt).message).toMatch(
      /The Alerts sheet could not be written \(Row 1 of the Alerts sheet has no time header.*\): the next refresh of offers writes its alerts\.$/,
    );
    expect(alertMails(rt)).toEqual([
      [
        `• offer ${ids[0]} (${name(ids[0])}): status left RUNNING (RUNNING → STOPPED)`,
      ],
    ]);
    expect(rt.outbox.sent[0].body).toContain(
      'The Alerts sheet could not be written (Row 1 of the Alerts sheet has no time header',
    );
    hourLater(rt);
    expect(lastRun(rt).outcome).toBe('attention');
    expect(alertMails(rt)).toHaveLength(1);
    expect(sheetOf(rt, 'Alerts').getRange('A1:A2').getValues()).toEqual([
      ['my notes'],
      [''],
    ]);

    sheetOf(rt, 'Alerts').setName('My notes');
    hourLater(rt);
    expect(lastRun(rt).outcome).toBe('ok');
    expect(alerts(rt).map(a => [a[1], a[3]])).toEqual([
      [ids[0], 'status left RUNNING'],
    ]);
    expect(alertMails(rt)).toHaveLength(1);
  });
});

describe('Ticking seen (issue 36 item 4)', () => {
  it('warns about no seen cell, rows appended past the sheet size included; every other cell still warns', () => {
    const {rt, emulator, ids} = watched();
    emulator.updateOffer(ids[0], {status: 'OVER_DAILY_CAP'});
    rt.call('refreshOffers');
    const sheet = sheetOf(rt, 'Alerts');
    const header = sheet
      .getRange(1, 1, 1, sheet.getLastColumn())
      .getValues()[0] as string[];
    const seen = header.indexOf('seen') + 1;
    expect(sheet.protectionWarningAt(2, seen)).toBeUndefined();
    expect(sheet.protectionWarningAt(2, seen - 1)).toBeDefined();
    // The sheet full to its last row: the next alerts grow it, and their seen cells are free too.
    sheet
      .getRange(3, 1, sheet.getMaxRows() - 2, 1)
      .setValue('2026-01-01 00:00');
    emulator.updateOffer(ids[1], {status: 'OVER_DAILY_CAP'});
    rt.call('refreshOffers');
    const last = sheet.getLastRow();
    expect(last).toBeGreaterThan(3);
    expect(sheet.protectionWarningAt(last, seen)).toBeUndefined();
    expect(sheet.protectionWarningAt(last, 1)).toBeDefined();
  });
});

describe('Ticking seen tells the open sidebars (issue 36 item 4)', () => {
  it("onEdit of seen notes the tick in the document's cache, which the sidebar's poll answers", () => {
    const {rt, emulator, ids} = watched();
    emulator.updateOffer(ids[0], {status: 'OVER_DAILY_CAP'});
    rt.call('refreshOffers');
    const before = rt.call('getSidebarState') as {alertsTicked: unknown};
    expect(before.alertsTicked).toBeNull();
    typeInto(rt, 'Alerts', 2, 'seen', 'x');
    rt.edited('Alerts', 'A2');
    expect(
      (rt.call('getSidebarState') as {alertsTicked: unknown}).alertsTicked,
    ).toBeNull();
    const header = sheetOf(rt, 'Alerts')
      .getRange(1, 1, 1, sheetOf(rt, 'Alerts').getLastColumn())
      .getValues()[0] as string[];
    const seen = String.fromCharCode(64 + header.indexOf('seen') + 1);
    const ticked = rt.clock.now();
    rt.edited('Alerts', `${seen}2`);
    const after = rt.call('getSidebarState') as {alertsTicked: number};
    expect(after.alertsTicked).toBeGreaterThanOrEqual(ticked);
    expect(rt.executions.at(-2)).toMatchObject({
      functionName: 'onEdit',
      authMode: 'LIMITED',
    });
  });
});
