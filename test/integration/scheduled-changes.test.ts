/**
 * Issue 27, "Changes that go out later" (DESIGN 4.5): a push given a time sends nothing then;
 * it writes the Scheduled sheet, puts the edited rows back to what was last pulled, and the
 * scheduled run sends what is due. The built dist/Code.js in the local runtime against the
 * emulator.
 */
import type {Emulator} from '../../local/emulator';
import {EXCEEDED_TIME, Runtime} from '../../local/runtime';
import {budgetsPulled, capSent} from '../support/history';
import {
  editableOffer,
  signedRequests,
  subAccountNames,
} from '../support/accounts';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  EMULATOR_URL,
  memoOf,
  normalisedTrackingEdit,
  offerDesk,
  offersPulled,
  recordsOf,
  rowOf,
  sheetOf,
  typeInto,
} from '../support/offer-desk';

const HOUR_S = 3600;

const nowS = (rt: Runtime) => Math.floor(rt.clock.now() / 1000);
const puts = (emulator: Emulator, since = 0) =>
  emulator.requests.filter(r => r.method === 'PUT' && r.seq > since);
const lastSeq = (emulator: Emulator) =>
  emulator.requests[emulator.requests.length - 1]?.seq ?? 0;
/** A log sheet's rows, each with only `headers`. */
const rowsOf = (rt: Runtime, sheet: string, headers: string[]) =>
  recordsOf(rt, sheet).map(r =>
    Object.fromEntries(headers.map(h => [h, r[h]])),
  );
const scheduled = (rt: Runtime) =>
  rowsOf(rt, 'Scheduled', ['record', 'field', 'before', 'after', 'status']);

/** Five offers pulled, the daily_cap of each typed 100 -> 150 + k. */
function fiveEdited() {
  const desk = budgetsPulled(5);
  desk.ids.forEach((id, k) => desk.cap(id, String(150 + k)));
  return desk;
}

describe('a push given a time', () => {
  it('sends nothing, writes one Scheduled row per field, puts the rows back to what was pulled, and turns on an hourly schedule', () => {
    const {rt, emulator, ids, budget} = fiveEdited();
    const since = lastSeq(emulator);
    const at = nowS(rt) + 2 * HOUR_S;
    const summary = rt.call('pushBudgets', {at}) as {message: string};
    expect(puts(emulator, since)).toEqual([]);
    expect(scheduled(rt)).toEqual(
      ids.map((id, k) => ({
        record: String(id),
        field: 'daily_cap [ALL]',
        before: '100',
        after: String(150 + k),
        status: 'WAITING',
      })),
    );
    const changeId = String(recordsOf(rt, 'Scheduled')[0].change_id);
    expect(summary.message).toBe(
      `Nothing sent: 5 fields of 5 records scheduled as change ${changeId} for 2026-01-05 11:00 (Etc/UTC). The rows show what the server holds until then; see the Scheduled sheet. No scheduled refresh was on: an hourly one is now, to send it.`,
    );
    for (const id of ids) {
      expect(budget(id)).toEqual(
        expect.objectContaining({
          daily_cap: 100,
          sync_status: '',
          sync_message: `Scheduled as change ${changeId} for 2026-01-05 11:00 (Etc/UTC): this row shows what the server holds until then, the Scheduled sheet what is coming.`,
        }),
      );
    }
    expect((rt.call('getSchedule') as {hours: number}).hours).toBe(1);
    // A manual push now finds nothing to send: the scheduled values are not in the rows.
    rt.call('pushBudgets');
    expect(puts(emulator, since)).toEqual([]);
  });

  it.each([
    [
      {at: 'soon'},
      '"at" must be a time in Unix seconds (e.g. 1767603600): "soon" is not.',
    ],
    [
      {at: -60},
      'The time to send (2026-01-05 08:59 (Etc/UTC)) is not in the future (it is 2026-01-05 09:00 (Etc/UTC)).',
    ],
    [
      {at: 2 * 366 * 24 * HOUR_S},
      'is more than a year ahead: a change is scheduled at most a year ahead.',
    ],
    [
      {at: 2 * HOUR_S, until: HOUR_S},
      'The time to put it back (2026-01-05 10:00 (Etc/UTC)) must come after the time to send it (2026-01-05 11:00 (Etc/UTC)).',
    ],
  ])(
    'refuses %j: a clear message, nothing scheduled, the edits kept',
    (given, why) => {
      const {rt, emulator, ids, budget} = fiveEdited();
      const relative = Object.fromEntries(
        Object.entries(given).map(([k, v]) => [
          k,
          typeof v === 'number' ? nowS(rt) + v : v,
        ]),
      );
      const since = lastSeq(emulator);
      expect(() => rt.call('pushBudgets', relative)).toThrow(
        `${why} Nothing was scheduled, and your edits are kept.`,
      );
      expect(puts(emulator, since)).toEqual([]);
      expect(rt.spreadsheet.getSheetByName('Scheduled')).toBeNull();
      expect(budget(ids[0]).daily_cap).toBe(150);
    },
  );

  it('refuses a second change of one field at an overlapping time, naming the first', () => {
    const {rt, ids, cap, budget} = fiveEdited();
    rt.call('pushBudgets', {
      at: nowS(rt) + 2 * HOUR_S,
      until: nowS(rt) + 5 * HOUR_S,
    });
    const first = String(recordsOf(rt, 'Scheduled')[0].change_id);
    cap(ids[0], '300');
    expect(() => rt.call('pushBudgets', {at: nowS(rt) + 4 * HOUR_S})).toThrow(
      `daily_cap [ALL] of Budgets ${ids[0]} is already scheduled, at an overlapping time, by change ${first} (row 2 of the Scheduled sheet): cancel that one first (type CANCELLED in its status). Nothing was scheduled, and your edits are kept.`,
    );
    expect(budget(ids[0]).daily_cap).toBe(300);
    expect(recordsOf(rt, 'Scheduled')).toHaveLength(5);
  });
});

const HOUR_MS = 3600_000;

/** Runs the due triggers up to `hours` from now; answers their errors. */
function hours(rt: Runtime, n: number) {
  return rt.runDueTriggers(rt.clock.now() + n * HOUR_MS).map(r => r.error);
}

const history = (rt: Runtime) =>
  rowsOf(rt, 'History', [
    'job',
    'record',
    'field',
    'before',
    'after',
    'outcome',
  ]);

describe('the scheduled run', () => {
  it('sends nothing before the time, the 5 changes at it, and puts them back at revert_at', () => {
    const {rt, emulator, ids, budget} = fiveEdited();
    rt.call('pushBudgets', {
      at: nowS(rt) + 2 * HOUR_S,
      until: nowS(rt) + 5 * HOUR_S,
    });
    const since = lastSeq(emulator);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(scheduled(rt).map(r => r.status)).toEqual(Array(5).fill('WAITING'));

    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since).map(r => r.body)).toEqual(
      ids.map((id, k) => capSent(id, 150 + k)),
    );
    expect(scheduled(rt).map(r => r.status)).toEqual(Array(5).fill('OK'));
    expect(history(rt)).toEqual(
      ids.map((id, k) => ({
        job: 'scheduled push',
        record: String(id),
        field: 'daily_cap [ALL]',
        before: '100',
        after: String(150 + k),
        outcome: 'OK',
      })),
    );
    // The refresh after it shows what is live now.
    expect(ids.map(id => budget(id).daily_cap)).toEqual([
      150, 151, 152, 153, 154,
    ]);

    const applied = lastSeq(emulator);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, applied)).toEqual([]);
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, applied).map(r => r.body)).toEqual(
      ids.map(id => capSent(id, 100)),
    );
    expect(scheduled(rt).map(r => r.status)).toEqual(Array(5).fill('REVERTED'));
    expect(
      history(rt)
        .slice(5)
        .map(r => [r.job, r.before, r.after]),
    ).toEqual(ids.map((_, k) => ['scheduled revert', String(150 + k), '100']));
    expect(ids.map(id => budget(id).daily_cap)).toEqual(Array(5).fill(100));
  });
});

/** fiveEdited, scheduled 2 hours ahead: its change id. */
function fiveScheduled() {
  const desk = fiveEdited();
  desk.rt.call('pushBudgets', {at: nowS(desk.rt) + 2 * HOUR_S});
  const changeId = String(recordsOf(desk.rt, 'Scheduled')[0].change_id);
  return {...desk, changeId, since: lastSeq(desk.emulator)};
}

/**
 * Five changes scheduled, then sent at their time as one batch whose answer is lost (the
 * schedule off, so only the runs a test makes follow).
 */
/**
 * The answer to the run's PUTs lost, and (a lost answer being read back in the run that lost
 * it) the list refused while they are out: the run cannot tell what became of them.
 */
function lostUnread(rt: Runtime, emulator: Emulator, path: string) {
  emulator.faults.add({kind: 'drop', method: 'PUT', path, count: 1});
  // Its fetches: the records read first, the PUTs, then reading them back.
  rt.collaborator.duringFetch(2, () =>
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
    }),
  );
  rt.call('applyScheduledChanges');
  emulator.faults.clear();
}

function fiveLost() {
  const desk = fiveScheduled();
  desk.rt.call('setRefreshSchedule', 0);
  desk.rt.runDueTriggers(desk.rt.clock.now() + 2 * HOUR_MS);
  lostUnread(desk.rt, desk.emulator, '/api/open/v3/offer/budget');
  return desk;
}

describe('what the scheduled run does not send', () => {
  it('a record changed on the server since: CONFLICT, nothing sent for it, the others sent', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    emulator.updateOffer(ids[1], {
      budget: [
        {
          target_geo: 'ALL',
          total_budget: '1000',
          daily_cap_type: 'BUDGET',
          daily_cap: '120',
        },
      ],
    });
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since).map(r => r.body)).toEqual(
      ids.flatMap((id, k) => (k === 1 ? [] : [capSent(id, 150 + k)])),
    );
    const rows = recordsOf(rt, 'Scheduled');
    expect(rows.map(r => r.status)).toEqual([
      'OK',
      'CONFLICT',
      'OK',
      'OK',
      'OK',
    ]);
    expect(rows[1].message).toBe(
      `Not sent: the server no longer holds the before value of daily_cap [ALL] of Budgets offer_id ${ids[1]} (changed since it was scheduled), so nothing was sent for it.`,
    );
    expect(emulator.offerView(ids[1])!.budget[0].daily_cap).toBe('120');
    // The owner hears of it: one email for the run, the conflict listed.
    const mails = rt.outbox.sent.filter(m =>
      m.subject.startsWith('Offer Desk: scheduled changes'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].body.split('\n').slice(0, 4)).toEqual([
      'The scheduled run of "Offer Desk" applied its due changes. Scheduled changes: 4 fields sent, 1 field CONFLICT (the server held another value: nothing sent). See the Scheduled sheet.',
      '',
      'Not done:',
      `• Budgets ${ids[1]} daily_cap [ALL]: CONFLICT: ${String(rows[1].message)}`,
    ]);
  });

  it('a row typed CANCELLED and a deleted row are never sent', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    typeInto(rt, 'Scheduled', 3, 'status', 'CANCELLED');
    sheetOf(rt, 'Scheduled').deleteRow(2);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since).map(r => r.body)).toEqual(
      ids.slice(2).map((id, k) => capSent(id, 152 + k)),
    );
    expect(recordsOf(rt, 'Scheduled').map(r => r.status)).toEqual([
      'CANCELLED',
      'OK',
      'OK',
      'OK',
    ]);
  });

  it('the sidebar lists the waiting change, and Cancel makes its rows CANCELLED: nothing sent', () => {
    const {rt, emulator, ids, changeId, since} = fiveScheduled();
    expect(rt.call('listWaitingChanges')).toEqual([
      {
        changeId,
        applyAt: '2026-01-05 11:00 (Etc/UTC)',
        revertAt: '',
        fields: ids.map(
          (id, k) => `Budgets ${id} daily_cap [ALL] 100 → ${150 + k}`,
        ),
      },
    ]);
    expect(rt.call('cancelScheduledChange', changeId)).toMatchObject({
      message: `Change ${changeId} cancelled: 5 fields will not be sent.`,
    });
    expect(rt.call('listWaitingChanges')).toEqual([]);
    expect(() => rt.call('cancelScheduledChange', changeId)).toThrow(
      `Change ${changeId} has no WAITING row in the Scheduled sheet: it was sent, cancelled or deleted already, or the id is not one. Nothing was changed.`,
    );
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(scheduled(rt).map(r => r.status)).toEqual(
      Array(5).fill('CANCELLED'),
    );
  });

  it('a change whose time passed more than the grace ago is missed, never sent late', () => {
    const {rt, emulator, since} = fiveScheduled();
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 9 * HOUR_MS);
    const applied = rt.call('applyScheduledChanges') as {message: string};
    expect(puts(emulator, since)).toEqual([]);
    expect(applied.message).toBe(
      'Scheduled changes: 5 fields ERROR. See the Scheduled sheet.',
    );
    const rows = recordsOf(rt, 'Scheduled');
    expect(rows.map(r => r.status)).toEqual(Array(5).fill('ERROR'));
    expect(rows[0].message).toBe(
      'Missed its time: due at 2026-01-05 11:00 (Etc/UTC), and no scheduled run came within 6 hours after (the schedule was off or paused, or Google asked for authorization again). Not sent: schedule it again if it is still wanted.',
    );
  });

  it('a grace set to 12 hours still sends it 9 hours late; a grace that is no number is refused', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    expect(() => rt.call('setScheduledGraceHours', 'soon')).toThrow(
      'The grace for scheduled changes is a number of hours above 0, at most 168: "soon" is not. It was not changed.',
    );
    expect(rt.call('setScheduledGraceHours', 12)).toBe(12);
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 11 * HOUR_MS);
    expect(rt.call('applyScheduledChanges')).toMatchObject({ok: 5});
    expect(puts(emulator, since)).toHaveLength(ids.length);
  });

  it('within the grace, "Apply due changes now" sends it', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 5 * HOUR_MS);
    expect(rt.call('applyScheduledChanges')).toMatchObject({
      ok: 5,
      message: 'Scheduled changes: 5 fields sent. See the Scheduled sheet.',
    });
    expect(puts(emulator, since).map(r => r.body)).toEqual(
      ids.map((id, k) => capSent(id, 150 + k)),
    );
  });
});

describe('the Scheduled sheet with a column renamed', () => {
  it('a column reading needs stops the run, naming it, nothing sent; a missing message column is put back', () => {
    const {rt, emulator, since} = fiveScheduled();
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
    // Column I: after.
    typeInto(rt, 'Scheduled', 1, 'after', 'new value');
    expect(() => rt.call('applyScheduledChanges')).toThrow(
      'Row 1 of the Scheduled sheet has no after header: Offer Desk reads that column to send the changes at their time, and would take it as empty. Name the column after again (undo the rename or the deletion), then try again',
    );
    expect(puts(emulator, since)).toEqual([]);
    typeInto(rt, 'Scheduled', 1, 'new value', 'after');
    typeInto(rt, 'Scheduled', 1, 'message', 'notes');
    expect(rt.call('applyScheduledChanges')).toMatchObject({ok: 5});
    expect(recordsOf(rt, 'Scheduled')[0]).toMatchObject({
      status: 'OK',
      notes: expect.stringMatching(/^Waiting: /),
      message: expect.stringMatching(/^Sent at /),
    });
  });
});

describe('an answer lost at the scheduled time', () => {
  it('leaves the row unknown, never sent again; the next run reads it back and says OK', () => {
    const {rt, emulator, ids, since} = fiveLost();
    const first = recordsOf(rt, 'Scheduled')[0];
    expect(first.status).toBe('ERROR');
    expect(String(first.message)).toMatch(
      /^Unknown outcome: the scheduled push was sent at 2026-01-05 11:00 \(Etc\/UTC\), and its answer was lost/,
    );
    emulator.faults.clear();
    const sent = puts(emulator, since).length;
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toHaveLength(sent);
    expect(recordsOf(rt, 'Scheduled')[0]).toMatchObject({
      status: 'OK',
      message:
        'Read back at 2026-01-05 11:00 (Etc/UTC): the server holds it (the answer to its request was lost).',
    });
    expect(emulator.offerView(ids[0])!.budget[0].daily_cap).toBe('150');
    // History says what reading back settled, after the UNKNOWN of the lost answer.
    expect(
      history(rt)
        .filter(r => r.record === String(ids[0]))
        .map(r => [r.job, r.before, r.after, r.outcome]),
    ).toEqual([
      ['scheduled push', '100', '150', 'UNKNOWN'],
      ['scheduled push', '100', '150', 'OK'],
    ]);
  });
});

describe('a scheduled run that Apps Script stops while its requests are out', () => {
  it('neither resends nor forgets: the rows were marked before the requests left, and the next run reads them back', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    emulator.faults.add({kind: 'slow', method: 'PUT', latencyMs: 400000});
    expect(hours(rt, 2)).toEqual([undefined, EXCEEDED_TIME]);
    const marked = recordsOf(rt, 'Scheduled');
    expect(marked.map(r => r.status)).toEqual(Array(5).fill('ERROR'));
    expect(String(marked[0].message)).toMatch(
      /^Unknown outcome: the scheduled push was sent at 2026-01-05 11:00 \(Etc\/UTC\), and no answer is recorded/,
    );
    emulator.faults.clear();
    const sent = puts(emulator, since).length;
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since)).toHaveLength(sent);
    expect(scheduled(rt).map(r => r.status)).toEqual(Array(5).fill('OK'));
    expect(ids.map(id => emulator.offerView(id)!.budget[0].daily_cap)).toEqual([
      '150',
      '151',
      '152',
      '153',
      '154',
    ]);
    // The killed run recorded nothing of them: the run that read them back does.
    expect(
      history(rt).map(r => [r.job, r.record, r.before, r.after, r.outcome]),
    ).toEqual(
      ids.map((id, k) => [
        'scheduled push',
        String(id),
        '100',
        String(150 + k),
        'OK',
      ]),
    );
  });
});

describe('a scheduled run near the time limit', () => {
  it('starts no chunk that would end past 5 minutes, leaves the rest WAITING and says so; the next run sends them, nothing twice', () => {
    const {rt, emulator, ids, cap} = budgetsPulled(250);
    // 3 times the pulled 100 at most: no budget guard question in the way.
    for (const id of ids) cap(id, '300');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
    const since = lastSeq(emulator);
    // Each exchange takes 130 s: a chunk (its read, then its 100 PUTs) ends 260 s after it starts.
    emulator.faults.configure({latencyMs: 130_000});
    const first = rt.call('applyScheduledChanges');
    const run = rt.executions.at(-1)!;
    expect(run.error).toBeUndefined();
    expect(run.endMs! - run.startMs).toBeLessThan(5 * 60 * 1000);
    expect(first).toMatchObject({
      ok: 100,
      remaining: 150,
      error: 0,
      message:
        'Scheduled changes: 100 fields sent, 150 fields left for lack of time (as they were: the next run sends them). See the Scheduled sheet.',
    });
    const statuses = () => recordsOf(rt, 'Scheduled').map(r => r.status);
    expect(statuses().filter(s => s === 'OK')).toHaveLength(100);
    expect(statuses().filter(s => s === 'WAITING')).toHaveLength(150);
    expect(recordsOf(rt, 'History')).toHaveLength(100);
    // What was posted as out and never left is no request out.
    expect(memoOf(rt, 'outbox')).toMatchObject({entries: []});

    emulator.faults.configure({latencyMs: 0});
    expect(rt.call('applyScheduledChanges')).toMatchObject({
      ok: 150,
      remaining: 0,
    });
    const sent = puts(emulator, since).map(r => r.body as {offer_id: number});
    expect(sent.map(b => b.offer_id).sort()).toEqual([...ids].sort());
    expect(statuses()).toEqual(Array(250).fill('OK'));
    expect(recordsOf(rt, 'History')).toHaveLength(250);
  });
});

describe('the Scheduled sheet changed while the run reads the server', () => {
  it('sorted, a row inserted and one typed CANCELLED: each status lands on its own change, and the cancelled one is not sent', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
    rt.collaborator.duringFetch(1, (_, c) => {
      c.sortRows('Scheduled', {column: 'after', ascending: false});
      c.insertRows('Scheduled', 2);
      // After the sort and the insert, the change of ids[2] (after 152) is row 5; J: status.
      c.typeInto('Scheduled', 'J5', 'CANCELLED');
    });
    expect(rt.call('applyScheduledChanges')).toMatchObject({
      ok: 4,
      skipped: 1,
      message:
        'Scheduled changes: 4 fields sent, 1 field not sent (its row was deleted or typed over while the run read the server). See the Scheduled sheet.',
    });
    expect(rt.collaborator.pending()).toBe(0);
    expect(puts(emulator, since).map(r => r.body)).toEqual(
      ids.flatMap((id, k) => (k === 2 ? [] : [capSent(id, 150 + k)])),
    );
    const rows = recordsOf(rt, 'Scheduled');
    expect(rows.map(r => [r.record, r.after, r.status])).toEqual([
      ['', '', ''],
      [String(ids[4]), '154', 'OK'],
      [String(ids[3]), '153', 'OK'],
      [String(ids[2]), '152', 'CANCELLED'],
      [String(ids[1]), '151', 'OK'],
      [String(ids[0]), '150', 'OK'],
    ]);
    expect(history(rt).map(r => r.record)).toEqual(
      ids.flatMap((id, k) => (k === 2 ? [] : [String(id)])),
    );
  });
});

describe('the budget guard, asked when the change is scheduled', () => {
  it('a held raise answered Yes then is sent at the time, with no question asked', () => {
    const {rt, emulator, ids, cap} = budgetsPulled(2);
    cap(ids[0], '1000');
    rt.ui.answerNextAlert('YES');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    const asked = rt.ui.alerts().filter(a => a.buttons === 'YES_NO');
    expect(asked.map(a => a.title)).toEqual(['Send large budget changes?']);
    expect(scheduled(rt)).toEqual([
      {
        record: String(ids[0]),
        field: 'daily_cap [ALL]',
        before: '100',
        after: '1000',
        status: 'WAITING',
      },
    ]);
    const since = lastSeq(emulator);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since).map(r => r.body)).toEqual([
      capSent(ids[0], 1000),
    ]);
    expect(rt.ui.alerts().filter(a => a.buttons === 'YES_NO')).toHaveLength(1);
  });

  it('a held raise answered No is not scheduled: its row stays EDITED', () => {
    const {rt, ids, cap, budget} = budgetsPulled(2);
    cap(ids[0], '1000');
    cap(ids[1], '150');
    rt.ui.answerNextAlert('NO');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    expect(scheduled(rt).map(r => r.record)).toEqual([String(ids[1])]);
    expect(budget(ids[0])).toMatchObject({
      daily_cap: 1000,
      sync_status: 'EDITED',
    });
  });
});

describe('every account in one workbook', () => {
  it("a sub-account's change is read and sent with its keys, whoever acts", () => {
    const desk = offerDesk({subAccounts: 2, listsSubAccounts: true});
    const {rt, emulator} = desk;
    const [sub] = subAccountNames(emulator);
    const id = editableOffer(emulator, sub);
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    typeInto(
      rt,
      'Budgets',
      rowOf(rt, 'Budgets', 'offer_id', id),
      'daily_cap',
      '222',
    );
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    expect(recordsOf(rt, 'Scheduled').map(r => r.account)).toEqual([sub]);
    rt.call('setActingAccount', '');
    const since = lastSeq(emulator);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    const signed = signedRequests(emulator, since).filter(
      r => r.op === 'PUT offer/budget' || r.query.offer_id !== undefined,
    );
    expect(signed.map(r => [r.op, r.signer])).toEqual([
      ['GET offers', sub],
      ['PUT offer/budget', sub],
    ]);
    expect(emulator.account(sub).offers.get(id)!.budget[0]).toMatchObject({
      daily_cap: '222',
    });
    expect(recordsOf(rt, 'History')).toEqual([
      expect.objectContaining({
        job: 'scheduled push',
        account: sub,
        record: String(id),
        outcome: 'OK',
      }),
    ]);
  });
});

describe('campaigns and tracking', () => {
  it('a campaign change goes out at its time, only the fields changed, and is put back at revert_at', () => {
    const {rt, emulator} = offerDesk({campaigns: 3});
    const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
      c => c.maintain_by === 'ADV' && c.promotion_type === 'APP',
    )!;
    rt.call('refreshCampaigns');
    const row = rowOf(rt, 'Campaigns', 'campaign_id', campaign.campaign_id);
    typeInto(rt, 'Campaigns', row, 'description', 'Weekend sale');
    rt.call('pushCampaigns', {
      at: nowS(rt) + 2 * HOUR_S,
      until: nowS(rt) + 3 * HOUR_S,
    });
    expect(recordsOf(rt, 'Campaigns')[row - 2].description).toBe(
      campaign.description,
    );
    const since = lastSeq(emulator);
    expect(hours(rt, 3)).toEqual([undefined, undefined, undefined]);
    expect(puts(emulator, since).map(r => r.body)).toEqual([
      {campaign_id: campaign.campaign_id, description: 'Weekend sale'},
      {campaign_id: campaign.campaign_id, description: campaign.description},
    ]);
    expect(scheduled(rt).map(r => [r.field, r.status])).toEqual([
      ['description', 'REVERTED'],
    ]);
  });

  it('a tracking change goes out at its time with the whole of 2.8; support_server_click, which the list never returns, is compared and sent as Offer Desk knows it, and the rows say so', () => {
    const {rt, emulator, ids, offerRow, offer} = offersPulled();
    const [id] = ids;
    const old = String(offer(id).click_url);
    rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.main.accessKey,
      supportServerClick: 'NO',
    });
    typeInto(
      rt,
      'Offers',
      offerRow(id),
      'click_url',
      'https://t.example.test/new',
    );
    rt.call('pushTracking', {
      at: nowS(rt) + 2 * HOUR_S,
      until: nowS(rt) + 3 * HOUR_S,
    });
    // The sidebar's default stood in for the unknown value: it is part of the change.
    expect(scheduled(rt)).toEqual([
      {
        record: String(id),
        field: 'click_url',
        before: old,
        after: 'https://t.example.test/new',
        status: 'WAITING',
      },
      {
        record: String(id),
        field: 'support_server_click',
        before: '',
        after: 'NO',
        status: 'WAITING',
      },
    ]);
    expect(offer(id).click_url).toBe(old);
    // The default changed meanwhile: the change sends what was decided when it was scheduled.
    rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.main.accessKey,
      supportServerClick: 'YES',
    });
    const since = lastSeq(emulator);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    const sent = {
      offer_id: id,
      tracking_method: 'APPSFLYER',
      click_url: 'https://t.example.test/new',
      support_server_click: 'NO',
    };
    expect(puts(emulator, since).map(r => r.body)).toEqual([sent]);
    const applied = recordsOf(rt, 'Scheduled');
    expect(applied.map(r => r.status)).toEqual(['OK', 'OK']);
    expect(String(applied[0].message)).toMatch(
      / support_server_click is not listed by the server: its before value was compared with what Offer Desk last sent, not with the server's\. To be put back at 2026-01-05 12:00 \(Etc\/UTC\)\.$/,
    );
    // Remembered as sent: the refresh after it shows it.
    expect(offer(id)).toMatchObject({
      click_url: 'https://t.example.test/new',
      support_server_click: 'NO',
    });

    expect(hours(rt, 1)).toEqual([undefined]);
    expect(puts(emulator, since).map(r => r.body)).toEqual([
      sent,
      {...sent, click_url: old},
    ]);
    const reverted = recordsOf(rt, 'Scheduled');
    expect(reverted.map(r => r.status)).toEqual(['REVERTED', 'ERROR']);
    expect(reverted[1].message).toBe(
      'Not put back: support_server_click before this change was not known to Offer Desk (the server does not list it, and no push from here had sent it), so there is nothing to put back: it stays as the change set it.',
    );
    expect(String(reverted[0].message)).toMatch(
      / support_server_click went out as Offer Desk last sent it \(NO\): the server does not list it\.$/,
    );
    expect(
      history(rt).map(r => [r.job, r.field, r.before, r.after, r.outcome]),
    ).toEqual([
      ['scheduled push', 'click_url', old, 'https://t.example.test/new', 'OK'],
      ['scheduled push', 'support_server_click', '', 'NO', 'OK'],
      [
        'scheduled revert',
        'click_url',
        'https://t.example.test/new',
        old,
        'OK',
      ],
      // The link passed its test on the server: no write of Offer Desk's (issue 35).
      ['changed on the server', 'status', 'PENDING', 'RUNNING', 'SEEN'],
    ]);
  });

  it('a scheduled support_server_click that Offer Desk has since sent otherwise is CONFLICT: nothing sent', () => {
    const {rt, emulator, ids, offerRow} = offersPulled();
    const [id] = ids;
    const type = (header: string, text: string) =>
      typeInto(rt, 'Offers', offerRow(id), header, text);
    type('support_server_click', 'YES');
    type('click_url', 'https://t.example.test/a');
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    type('support_server_click', 'NO');
    rt.call('pushTracking', {at: nowS(rt) + 2 * HOUR_S});
    expect(scheduled(rt)).toEqual([
      {
        record: String(id),
        field: 'support_server_click',
        before: 'YES',
        after: 'NO',
        status: 'WAITING',
      },
    ]);
    // Pushed by hand meanwhile: what Offer Desk knows the server holds is no longer YES.
    type('support_server_click', 'NO');
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    const since = lastSeq(emulator);
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    expect(puts(emulator, since)).toEqual([]);
    expect(recordsOf(rt, 'Scheduled')).toEqual([
      expect.objectContaining({
        status: 'CONFLICT',
        message: `Not sent: the server no longer holds the before value of support_server_click of Offers offer_id ${id} (changed since it was scheduled; support_server_click, which the server does not list, as Offer Desk last sent it), so nothing was sent for it.`,
      }),
    ]);
  });
});

describe('a tracking change whose answer was lost', () => {
  it('is read back by its listed fields (a PUT is applied whole); one of support_server_click alone cannot be, and says so, never resent', () => {
    const {rt, emulator, ids, offerRow} = offersPulled();
    const type = (id: number, header: string, text: string) =>
      typeInto(rt, 'Offers', offerRow(id), header, text);
    // ids[1]: support_server_click known (sent by a push), then scheduled alone.
    type(ids[1], 'support_server_click', 'YES');
    type(ids[1], 'click_url', 'https://t.example.test/b');
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    type(ids[1], 'support_server_click', 'NO');
    type(ids[0], 'support_server_click', 'YES');
    type(ids[0], 'click_url', 'https://t.example.test/a');
    rt.call('pushTracking', {at: nowS(rt) + 2 * HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
    lostUnread(rt, emulator, '/api/open/v3/tracking');
    const lost = recordsOf(rt, 'Scheduled');
    expect(lost.map(r => r.status)).toEqual(['ERROR', 'ERROR', 'ERROR']);
    emulator.faults.clear();
    const since = lastSeq(emulator);
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toEqual([]);
    const read = recordsOf(rt, 'Scheduled');
    expect(read.map(r => [r.record, r.field, r.status])).toEqual([
      [String(ids[0]), 'click_url', 'OK'],
      [String(ids[0]), 'support_server_click', 'OK'],
      [String(ids[1]), 'support_server_click', 'ERROR'],
    ]);
    expect(read[2].message).toBe(
      'Outcome not known: the answer to its request was lost, and the server does not list support_server_click, so reading the record back cannot tell whether it was applied. Not sent again: refresh Offers and schedule or push it again if it is not as wanted.',
    );
    expect(String(read[0].message)).toMatch(
      /the server holds it \(the answer to its request was lost\); support_server_click, which the server does not list, is taken as sent with the rest \(a request is applied whole\)\.$/,
    );
    // A third run has nothing left to read or send.
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toEqual([]);
  });
});

describe('sharing', () => {
  it("another editor's run leaves the change alone; the author's trigger sends it", () => {
    const [owner, editor] = ['owner@example.com', 'editor@example.com'];
    const {rt, emulator, ids} = budgetsPulled(2, {users: [owner, editor]});
    rt.setUser(editor);
    rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.main.accessKey,
      apiKey: DEMO_ACCOUNTS.main.apiKey,
    });
    rt.setUser(owner);
    typeInto(rt, 'Budgets', 2, 'daily_cap', '150');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 3 * HOUR_MS);
    const since = lastSeq(emulator);

    rt.setUser(editor);
    expect(rt.call('listWaitingChanges')).toHaveLength(1);
    expect(rt.call('applyScheduledChanges')).toMatchObject({
      message:
        'No change you scheduled is due (a change goes out only from the runs of whoever scheduled it).',
    });
    expect(puts(emulator, since)).toEqual([]);
    rt.setUser(owner);
    expect(rt.call('applyScheduledChanges')).toMatchObject({ok: 1});
    expect(puts(emulator, since).map(r => r.body)).toEqual([
      capSent(ids[0], 150),
    ]);
  });
});

describe('a tracking change whose answer was lost, on a server that keeps click_url in its own form', () => {
  it('reads back neither what was sent nor what it was: its outcome is not known (never "Not applied"), and it is never sent again', () => {
    const {rt, emulator, id} = normalisedTrackingEdit();
    rt.call('pushTracking', {at: nowS(rt) + 2 * HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
    emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: '/api/open/v3/tracking',
      count: 1,
    });
    rt.call('applyScheduledChanges');
    emulator.faults.clear();
    expect(emulator.offerView(id)!.click_url).toBe(
      'https://track.example.com/c?Id=7',
    );
    const since = lastSeq(emulator);

    rt.call('applyScheduledChanges');

    expect(puts(emulator, since)).toEqual([]);
    const message =
      'Outcome not known: the answer to its request was lost, and reading it back shows click_url "https://track.example.com/c?Id=7", neither what was sent nor what it was (the server\'s own form of it, or a change made since). Not sent again: refresh Offers and schedule or push it again if it is not as wanted.';
    expect(
      recordsOf(rt, 'Scheduled').map(r => [r.field, r.status, r.message]),
    ).toEqual([
      ['click_url', 'ERROR', message],
      ['support_server_click', 'ERROR', message],
    ]);
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toEqual([]);
  });
});

describe('a lost answer read back from a list that lags behind', () => {
  it('a record not listed yet: its outcome stays unknown, never "Not sent"; the next run reads it again and says OK', () => {
    const {rt, emulator, since} = fiveLost();
    emulator.faults.clear();
    const sent = puts(emulator, since).length;
    // The list answers two of the five offers.
    emulator.faults.add({
      kind: 'page',
      page: 'short',
      method: 'GET',
      path: '/api/open/v3/offers',
      count: 1,
    });

    rt.call('applyScheduledChanges');

    expect(puts(emulator, since)).toHaveLength(sent);
    const unlisted = recordsOf(rt, 'Scheduled').filter(r => r.status !== 'OK');
    expect(unlisted.map(r => [r.status, r.message])).toEqual(
      [2, 3, 4].map(k => [
        'ERROR',
        `Unknown outcome: the scheduled push was sent with no answer recorded, and reading it back did not list offer_id ${unlisted[k - 2]?.record}: the next run reads it again.`,
      ]),
    );
    rt.call('applyScheduledChanges');
    expect(puts(emulator, since)).toHaveLength(sent);
    expect(recordsOf(rt, 'Scheduled').map(r => r.status)).toEqual(
      Array(5).fill('OK'),
    );
  });

  it('records still not listed past the grace: left not known, in History too, and read no more', () => {
    const {rt, emulator, since} = fiveLost();
    emulator.faults.clear();
    // Every list answers half the offers asked for (two of five, then one of three).
    emulator.faults.add({
      kind: 'page',
      page: 'short',
      method: 'GET',
      path: '/api/open/v3/offers',
    });
    rt.call('applyScheduledChanges');
    rt.runDueTriggers(rt.clock.now() + 7 * HOUR_MS);
    const sent = puts(emulator, since).length;

    rt.call('applyScheduledChanges');

    expect(puts(emulator, since)).toHaveLength(sent);
    const rows = recordsOf(rt, 'Scheduled');
    const left = rows.filter(r => r.status !== 'OK');
    expect(left.map(r => [r.status, r.message])).toEqual(
      [0, 1].map(k => [
        'ERROR',
        `Outcome not known: the answer to its request was lost, and reading it back did not list offer_id ${left[k]?.record} within 6 hours after its time (deleted, or not this account's). Not sent again: refresh Budgets and schedule or push it again if it is not as wanted.`,
      ]),
    );
    expect(
      history(rt)
        .filter(r => r.record === left[0].record)
        .map(r => r.outcome),
    ).toEqual(['UNKNOWN', 'UNKNOWN']);
    emulator.clearRequests();
    rt.call('applyScheduledChanges');
    expect(emulator.requests).toEqual([]);
  });
});

describe('a tracking change put back on a server that keeps click_url in its own form', () => {
  it('CONFLICT at revert_at says what the server holds, and never that it was changed since', () => {
    const {rt, emulator, id} = normalisedTrackingEdit();
    rt.call('pushTracking', {
      at: nowS(rt) + 2 * HOUR_S,
      until: nowS(rt) + 3 * HOUR_S,
    });
    expect(hours(rt, 2)).toEqual([undefined, undefined]);
    const since = lastSeq(emulator);

    expect(hours(rt, 1)).toEqual([undefined]);

    expect(puts(emulator, since)).toEqual([]);
    expect(
      recordsOf(rt, 'Scheduled').map(r => [r.field, r.status, r.message]),
    ).toEqual(
      ['click_url', 'support_server_click'].map(field => [
        field,
        'CONFLICT',
        `Not sent: the server no longer holds the after value of click_url of Offers offer_id ${id}: it holds click_url "https://track.example.com/c?Id=7" (the server's own form of what was sent, or a change made since), so nothing was sent for it.`,
      ]),
    );
  });
});

describe('a lost answer whose record cannot be read back', () => {
  it('stays unknown within the grace, then is left not known, in History too, and read no more', () => {
    const {rt, emulator, ids, since} = fiveLost();
    emulator.faults.clear();
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
    });
    rt.call('applyScheduledChanges');
    expect(String(recordsOf(rt, 'Scheduled')[0].message)).toMatch(
      /^Unknown outcome: the scheduled push was sent at 2026-01-05 11:00 \(Etc\/UTC\), and its answer was lost/,
    );
    rt.runDueTriggers(rt.clock.now() + 7 * HOUR_MS);
    const sent = puts(emulator, since).length;

    rt.call('applyScheduledChanges');

    expect(puts(emulator, since)).toHaveLength(sent);
    const rows = recordsOf(rt, 'Scheduled');
    expect(rows.map(r => r.status)).toEqual(Array(5).fill('ERROR'));
    expect(rows[0].message).toBe(
      'Outcome not known: the answer to its request was lost, and reading it back failed (GET offers: HTTP 503 unexpected answer: 503 Service Unavailable (emulator fault)) within 6 hours after its time. Not sent again: refresh Budgets and schedule or push it again if it is not as wanted.',
    );
    expect(
      history(rt)
        .filter(r => r.record === String(ids[0]))
        .map(r => r.outcome),
    ).toEqual(['UNKNOWN', 'UNKNOWN']);
    emulator.clearRequests();
    rt.call('applyScheduledChanges');
    expect(emulator.requests).toEqual([]);
  });
});

describe('a row typed CANCELLED while its request is out', () => {
  it('too late to stop it: the stored change keeps the answer, the next run shows it on the row, never sent again', () => {
    const {rt, emulator, ids, since} = fiveScheduled();
    rt.call('setRefreshSchedule', 0);
    rt.runDueTriggers(rt.clock.now() + 2 * HOUR_MS);
    // The second fetch is the batch of PUTs, its rows marked as out; J: status.
    rt.collaborator.duringFetch(2, (_, c) =>
      c.typeInto('Scheduled', 'J4', 'CANCELLED'),
    );
    rt.call('applyScheduledChanges');
    expect(emulator.offerView(ids[2])!.budget[0].daily_cap).toBe('152');
    const sent = puts(emulator, since).length;

    rt.call('applyScheduledChanges');

    expect(puts(emulator, since)).toHaveLength(sent);
    expect(recordsOf(rt, 'Scheduled')[2]).toMatchObject({
      record: String(ids[2]),
      status: 'OK',
      message: expect.stringMatching(
        /^Sent at 2026-01-05 11:00 \(Etc\/UTC\): History change \S+\. Its row was typed CANCELLED after its request had left: too late to stop it\.$/,
      ),
    });
    expect(
      history(rt)
        .filter(r => r.record === String(ids[2]))
        .map(r => r.outcome),
    ).toEqual(['OK']);
  });
});
