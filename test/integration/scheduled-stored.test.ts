/**
 * Issue 32, section 2 (DESIGN 4.5): what goes out is what was checked when it was scheduled.
 * The stored change is the truth and the Scheduled sheet a view of it; its times are instants;
 * a change never goes out after its window, nor fights another over one field; scheduling is
 * all or nothing. The built dist/Code.js in the local runtime against the emulator.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
const USER = 'user@example.com';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  AGENCY_SUB_ACCOUNTS,
  editableOffer,
  signedRequests,
  subAccountNames,
} from '../support/accounts';
import {budgetsPulled, capSent} from '../support/history';
import {
  offerDesk,
  recordsOf,
  sheetOf,
  triggersUsedUp,
  typeInto,
} from '../support/offer-desk';

const HOUR_S = 3600;
const HOUR_MS = 3600_000;

const nowS = (rt: Runtime) => Math.floor(rt.clock.now() / 1000);
const lastSeq = (emulator: Emulator) =>
  emulator.requests[emulator.requests.length - 1]?.seq ?? 0;
const puts = (emulator: Emulator, since: number) =>
  emulator.requests
    .filter(r => r.method === 'PUT' && r.seq > since)
    .map(r => r.body);
const hours = (rt: Runtime, n: number) =>
  rt.runDueTriggers(rt.clock.now() + n * HOUR_MS).map(r => r.error);
const scheduledRow = (rt: Runtime, k: number) => recordsOf(rt, 'Scheduled')[k];

/** Two offers pulled, the first's daily_cap scheduled 100 -> 150 two hours ahead. */
function oneScheduled(until?: number) {
  const desk = budgetsPulled(2);
  desk.cap(desk.ids[0], '150');
  desk.rt.call('pushBudgets', {
    at: nowS(desk.rt) + 2 * HOUR_S,
    ...(until ? {until: nowS(desk.rt) + until * HOUR_S} : {}),
  });
  return {...desk, since: lastSeq(desk.emulator)};
}

describe('a Scheduled row typed over', () => {
  it.each([
    ['after', '9999'],
    ['record', 'OTHER'],
    ['account', 'sub-account demo_sub_a'],
  ])(
    '%s: never sent as typed; the stored change goes out, the row says it differs',
    (header, typed) => {
      const {rt, emulator, ids, since} = oneScheduled();
      const column = Object.keys(scheduledRow(rt, 0)).indexOf(header);
      expect(column).toBeGreaterThanOrEqual(0);
      typeInto(rt, 'Scheduled', 2, header, typed);
      expect(hours(rt, 2)).toEqual([undefined, undefined]);
      expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
      const row = scheduledRow(rt, 0);
      expect(row[header]).toBe(typed);
      expect(row.status).toBe('OK');
      const stored =
        header === 'after'
          ? '150'
          : header === 'record'
            ? String(ids[0])
            : 'main account';
      expect(String(row.message)).toContain(
        `This row differs from the stored change (stored: ${header} ${stored}): a cell typed over is never sent; what goes out is the stored change.`,
      );
    },
  );

  it('typed WAITING over a CANCELLED row sends nothing: the cancel is stored', () => {
    const {rt, emulator, since} = oneScheduled();
    typeInto(rt, 'Scheduled', 2, 'status', 'CANCELLED');
    rt.call('applyScheduledChanges');
    typeInto(rt, 'Scheduled', 2, 'status', 'WAITING');
    expect(hours(rt, 3)).toEqual([undefined, undefined, undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(scheduledRow(rt, 0).status).toBe('CANCELLED');
  });
});

describe('the times of a change', () => {
  it('are instants: a change of the spreadsheet time zone moves no change', () => {
    const {rt, emulator, ids, since} = oneScheduled();
    expect(scheduledRow(rt, 0).apply_at).toBe(
      '2026-01-05 11:00 +00:00 (Etc/UTC)',
    );
    rt.spreadsheet.setSpreadsheetTimeZone('Asia/Tokyo');
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
  });

  it('a change no run reached before its revert_at is never sent: ERROR naming the missed window', () => {
    const {rt, emulator, since} = oneScheduled(3);
    rt.call('setRefreshSchedule', 0);
    rt.clock.advance(4 * HOUR_MS);
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toEqual([]);
    expect(scheduledRow(rt, 0)).toMatchObject({
      status: 'ERROR',
      message:
        'Missed its window: due at 2026-01-05 11:00 (Etc/UTC) and to be put back at 2026-01-05 12:00 (Etc/UTC), and no scheduled run came before the put-back. Not sent, nor put back: schedule it again if it is still wanted.',
    });
  });
});

describe('one field, two changes', () => {
  it('a new schedule is refused while an applied change of the field is still to be put back', () => {
    const {rt, emulator, ids, cap, budget} = oneScheduled(5);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('150');
    cap(ids[0], '300');
    const changeId = String(scheduledRow(rt, 0).change_id);
    expect(() => rt.call('pushBudgets', {at: nowS(rt) + HOUR_S})).toThrow(
      `daily_cap [ALL] of Budgets ${ids[0]} was changed, and is still to be put back at 2026-01-05 14:00 (Etc/UTC), by change ${changeId} (row 2 of the Scheduled sheet): schedule this one after that put-back. Nothing was scheduled, and your edits are kept.`,
    );
    expect(budget(ids[0]).daily_cap).toBe(300);
    expect(recordsOf(rt, 'Scheduled')).toHaveLength(1);
  });

  it('at one instant, the put-back goes before the next change, on a sheet sorted newest first', () => {
    const {rt, emulator, ids, cap} = budgetsPulled(2);
    const start = nowS(rt);
    cap(ids[0], '150');
    rt.call('pushBudgets', {at: start + 2 * HOUR_S, until: start + 4 * HOUR_S});
    cap(ids[0], '300');
    rt.call('pushBudgets', {at: start + 4 * HOUR_S});
    const since = lastSeq(emulator);
    const scheduled = sheetOf(rt, 'Scheduled');
    scheduled
      .getRange(2, 1, 2, scheduled.getLastColumn())
      .sort({column: 1, ascending: false});
    expect(hours(rt, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(puts(emulator, since)).toEqual([
      capSent(ids[0], 150),
      capSent(ids[0], 100),
      capSent(ids[0], 300),
    ]);
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('300');
  });
});

describe('scheduling is all or nothing', () => {
  it('the trigger refused: nothing scheduled, the rows keep the values typed', () => {
    const desk = budgetsPulled(2);
    const {rt, emulator, ids, cap, budget} = desk;
    triggersUsedUp(rt, USER);
    cap(ids[0], '150');
    const since = lastSeq(emulator);
    expect(() => rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S})).toThrow(
      /^Nothing was scheduled: the hourly trigger that sends it could not be set\. The scheduled refresh was not saved/,
    );
    expect(budget(ids[0]).daily_cap).toBe(150);
    expect(recordsOf(rt, 'Scheduled')).toEqual([]);
    rt.clock.advance(3 * HOUR_MS);
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toEqual([]);
  });
});

describe('cancelling', () => {
  it('an editor without keys of their own cancels from the sidebar: nothing is sent', () => {
    const {rt, emulator, since} = oneScheduled();
    const changeId = String(scheduledRow(rt, 0).change_id);
    rt.setUser('bo@example.com');
    expect(rt.call('cancelScheduledChange', changeId)).toMatchObject({
      message: `Change ${changeId} cancelled: 1 field will not be sent.`,
    });
    rt.setUser('user@example.com');
    expect(hours(rt, 3)).toEqual([undefined, undefined, undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(scheduledRow(rt, 0)).toMatchObject({
      status: 'CANCELLED',
      message: expect.stringMatching(/^Cancelled by bo@example\.com at /),
    });
  });
});

describe('a refresh every 4 hours', () => {
  it('a change due in 1 hour goes out within the hour after; the refresh keeps its 4 hours; the trigger goes back once none waits', () => {
    const desk = budgetsPulled(2);
    const {rt, emulator, ids, cap} = desk;
    rt.call('setRefreshSchedule', 4);
    cap(ids[0], '150');
    const summary = rt.call('pushBudgets', {at: nowS(rt) + HOUR_S}) as {
      message: string;
    };
    expect(summary.message).toMatch(
      / The scheduled refresh now fires every hour while changes wait, to send each within the hour after its time; it still refreshes every 4 hours\.$/,
    );
    const since = lastSeq(emulator);
    // A refresh lists offers; reading a record first lists it by its id.
    const refreshes = () =>
      emulator.requests.filter(
        r =>
          r.seq > since &&
          r.method === 'GET' &&
          !Object.keys(r.query).some(k => k.startsWith('offer_id')),
      ).length;
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
    expect(refreshes()).toBe(0);
    expect(rt.triggers.records.map(t => t.everyMs)).toEqual([4 * HOUR_MS]);
  });
});

describe('one account whose read fails, among three', () => {
  /**
   * Three accounts' offers pulled as every account, each daily_cap typed 100 -> 321; with a
   * second group (GB) pulled as it is, which makes a push read each budget first.
   */
  function threeAccounts(second = false) {
    const desk = offerDesk({
      subAccounts: AGENCY_SUB_ACCOUNTS,
      listsSubAccounts: true,
    });
    const {rt, emulator} = desk;
    const subs = subAccountNames(emulator);
    const owners = [DEMO_ACCOUNTS.main.name, subs[0], subs[1]];
    const ids = owners.map(name => editableOffer(emulator, name));
    if (second) {
      for (const id of ids)
        emulator.updateOffer(id, {
          target_geo: 'US,GB',
          budget: [
            {
              target_geo: 'US',
              daily_cap_type: 'BUDGET',
              daily_cap: '100',
              total_budget: '1000',
            },
            {
              target_geo: 'GB',
              daily_cap_type: 'BUDGET',
              daily_cap: '60',
              total_budget: '1000',
            },
          ],
        });
    }
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    for (const id of ids)
      typeInto(
        rt,
        'Budgets',
        recordsOf(rt, 'Budgets').findIndex(
          r => r.offer_id === id && r.country_code !== 'GB',
        ) + 2,
        'daily_cap',
        '321',
      );
    return {...desk, owners, ids, broken: subs[0]};
  }

  it('a scheduled run sends the others; its entries stay WAITING, named, and go out at the next run', () => {
    const {rt, emulator, owners, broken} = threeAccounts();
    rt.call('pushBudgets', {at: nowS(rt) + HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.clock.advance(HOUR_MS);
    emulator.faults.add({kind: 'error', status: 503, account: broken});
    const since = lastSeq(emulator);
    const summary = rt.call('applyScheduledChanges') as {message: string};
    const sent = signedRequests(emulator, since).filter(r =>
      r.op.startsWith('PUT'),
    );
    expect(sent.map(r => r.signer).sort()).toEqual(
      owners.filter(o => o !== broken).sort(),
    );
    const rows = recordsOf(rt, 'Scheduled');
    const mine = rows.find(r => r.account === broken)!;
    expect(mine.status).toBe('WAITING');
    expect(String(mine.message)).toMatch(
      /^Not sent yet: reading offer_id \d+ first failed \(.*503.*\)\. The next scheduled run tries again\.$/,
    );
    expect(rows.filter(r => r.status === 'OK')).toHaveLength(2);
    expect(summary.message).toContain(
      `1 field not sent yet (its record in sub-account ${broken} could not be read first: the next run tries again)`,
    );
    emulator.faults.clear();
    const again = lastSeq(emulator);
    rt.call('applyScheduledChanges');
    expect(
      signedRequests(emulator, again)
        .filter(r => r.op.startsWith('PUT'))
        .map(r => r.signer),
    ).toEqual([broken]);
  });

  it("a push's read-first: the others sent, its rows EDITED naming why, sent by the next push", () => {
    const {rt, emulator, ids, owners, broken} = threeAccounts(true);
    // A second group, pulled as it is, makes the push read each budget first.
    emulator.faults.add({kind: 'error', status: 503, account: broken});
    const since = lastSeq(emulator);
    const pushed = rt.call('pushBudgets') as {ok: number};
    const signers = signedRequests(emulator, since)
      .filter(r => r.op.startsWith('PUT'))
      .map(r => r.signer);
    expect(pushed.ok).toBe(4);
    expect(signers.sort()).toEqual(owners.filter(o => o !== broken).sort());
    const row = recordsOf(rt, 'Budgets').find(
      r => r.offer_id === ids[1] && r.country_code === 'US',
    )!;
    expect(row.sync_status).toBe('EDITED');
    expect(String(row.sync_message)).toMatch(
      /^Not sent yet: the push reads the server's offer_id \d+ first .*503.*Run the push again\.$/,
    );
    emulator.faults.clear();
    const again = lastSeq(emulator);
    expect(rt.call('pushBudgets')).toMatchObject({ok: 2});
    expect(
      signedRequests(emulator, again)
        .filter(r => r.op.startsWith('PUT'))
        .map(r => r.signer),
    ).toEqual([broken]);
  });
});

describe('the words of a change put back (issue 36, item 6)', () => {
  it('OK says the put-back is to come; REVERTED keeps the record of the send; History of the put-back cites the change it reverts', () => {
    const {rt} = oneScheduled(4);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    const sent = String(scheduledRow(rt, 0).message);
    const changeId = String(scheduledRow(rt, 0).change_id);
    const applied = /History change (\S+)\./.exec(sent)![1];
    expect(sent).toBe(
      `Sent at 2026-01-05 11:00 (Etc/UTC): History change ${applied}. To be put back at 2026-01-05 13:00 (Etc/UTC).`,
    );
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    const row = scheduledRow(rt, 0);
    expect(row.status).toBe('REVERTED');
    expect(String(row.message)).toMatch(
      new RegExp(
        `^${sent.replace(/[.()]/g, '\\$&')} Put back at 2026-01-05 13:00 \\(Etc/UTC\\): History change (?!${applied})\\S+\\.$`,
      ),
    );
    const reverts = recordsOf(rt, 'History').filter(
      r => r.job === 'scheduled revert',
    );
    expect(reverts.map(r => r.message)).toEqual([
      `Put back at 2026-01-05 13:00 (Etc/UTC): reverts History change ${applied}, scheduled change ${changeId}.`,
    ]);
  });
});

describe('changes scheduled before the store', () => {
  it('are taken in from their rows by their owner’s run, and go out at their time', () => {
    const {rt, emulator, ids, since} = oneScheduled();
    // As an earlier version left them: the row alone.
    const state = sheetOf(rt, 'Offer Desk state');
    const names = state.getRange(1, 1, 1, state.getLastColumn()).getValues()[0];
    const column = names.indexOf('scheduled changes') + 1;
    expect(column).toBeGreaterThan(0);
    state.getRange(1, column, state.getLastRow(), 1).clearContent();
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
    expect(scheduledRow(rt, 0).status).toBe('OK');
  });
});

describe('CANCELLED typed in an applied row still to be put back', () => {
  it('cancels the put-back: the server keeps the value sent, and the field may be scheduled again', () => {
    const {rt, emulator, ids, cap, since} = oneScheduled(5);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    typeInto(rt, 'Scheduled', 2, 'status', 'CANCELLED');
    expect(hours(rt, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
    expect(scheduledRow(rt, 0)).toMatchObject({
      status: 'CANCELLED',
      message: expect.stringMatching(
        / Its put-back was cancelled \(CANCELLED typed in its row\): the server keeps the value sent\.$/,
      ),
    });
    cap(ids[0], '200');
    expect(() => rt.call('pushBudgets', {at: nowS(rt) + HOUR_S})).not.toThrow();
  });
});

describe('a row copied, or typed over', () => {
  it('a copy of a WAITING row with another after is never sent, and says so', () => {
    const {rt, emulator, ids, since} = oneScheduled();
    const scheduled = sheetOf(rt, 'Scheduled');
    const width = scheduled.getLastColumn();
    scheduled
      .getRange(3, 1, 1, width)
      .setValues(scheduled.getRange(2, 1, 1, width).getValues());
    typeInto(rt, 'Scheduled', 3, 'after', '999');
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
    expect(recordsOf(rt, 'Scheduled').map(r => [r.after, r.status])).toEqual([
      ['150', 'OK'],
      ['999', 'ERROR'],
    ]);
    expect(scheduledRow(rt, 1).message).toBe(
      'Not sent: this row shows no field of its stored change (a copy of a row, or typed in), so nothing sends it. To change a scheduled change, cancel it and schedule it again.',
    );
  });

  it('the sidebar lists what is stored, not what a row was typed over to', () => {
    const {rt, ids} = oneScheduled();
    typeInto(rt, 'Scheduled', 2, 'after', '999');
    expect(rt.call('listWaitingChanges')).toMatchObject([
      {fields: [`Budgets ${ids[0]} daily_cap [ALL] 100 → 150`]},
    ]);
  });
});

describe('the refresh interval changed while a change waits', () => {
  it('the trigger stays hourly: the change goes out within the hour after its time', () => {
    const {rt, emulator, ids, since} = oneScheduled();
    rt.call('setRefreshSchedule', 8);
    expect(rt.triggers.records.map(t => t.everyMs)).toEqual([HOUR_MS]);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since)).toEqual([capSent(ids[0], 150)]);
    expect(rt.triggers.records.map(t => t.everyMs)).toEqual([8 * HOUR_MS]);
  });
});
