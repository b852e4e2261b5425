/**
 * Issue 32, one outbox (DESIGN 4.5): a scheduled change's request is posted to the outbox
 * before it leaves, as a `write` of its job (`scheduled push`), named by its change; a lost
 * answer leaves it standing, and the next scheduled run reads the record back and settles
 * it. A refresh meanwhile neither settles it nor logs it as a push's. The built dist/Code.js
 * in the local runtime against the emulator.
 */
import {budgetsPulled} from '../support/history';
import {memoOf, recordsOf} from '../support/offer-desk';

const HOUR_MS = 3600_000;

/**
 * One offer's daily_cap 100 -> 150 scheduled in 2 hours (put back `until` hours from now, if
 * given), the schedule off, so only the runs a test makes follow.
 */
function oneScheduled(until?: number) {
  const desk = budgetsPulled(1);
  const [id] = desk.ids;
  desk.cap(id, '150');
  const now = Math.floor(desk.rt.clock.now() / 1000);
  desk.rt.call('pushBudgets', {
    at: now + 2 * 3600,
    ...(until ? {until: now + until * 3600} : {}),
  });
  const changeId = String(recordsOf(desk.rt, 'Scheduled')[0].change_id);
  desk.rt.call('setRefreshSchedule', 0);
  return {...desk, id, changeId};
}

/** The answer to the PUT of the next scheduled run lost. */
function dropPut(d: ReturnType<typeof oneScheduled>) {
  d.emulator.faults.add({
    kind: 'drop',
    method: 'PUT',
    path: '/api/open/v3/offer/budget',
    count: 1,
  });
}

/**
 * The scheduled run `hours` from now, the answer to its PUT lost and the list failing while it
 * is out: the run that lost it cannot read it back.
 */
function runLost(d: ReturnType<typeof oneScheduled>, hours: number) {
  dropPut(d);
  // Its fetches: the record read first, the PUT, then reading it back.
  d.rt.collaborator.duringFetch(2, () =>
    d.emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/api/open/v3/offers',
    }),
  );
  d.rt.runDueTriggers(d.rt.clock.now() + hours * HOUR_MS);
  d.rt.call('applyScheduledChanges');
  d.emulator.faults.clear();
}

/** oneScheduled, sent at its time with its answer lost. */
function oneLost(until?: number) {
  const d = oneScheduled(until);
  runLost(d, 2);
  return d;
}

const history = (d: ReturnType<typeof oneLost>) =>
  recordsOf(d.rt, 'History')
    .filter(r => r.record === String(d.id))
    .map(r => [r.job, r.before, r.after, r.outcome]);

const puts = (d: ReturnType<typeof oneLost>) =>
  d.emulator.requests.filter(r => r.method === 'PUT').length;

describe('a scheduled change whose answer is lost', () => {
  it('stands in the outbox as a write of its job; a refresh leaves it there, and the next scheduled run settles it', () => {
    const d = oneLost();
    const out = {
      kind: 'write',
      job: 'scheduled push',
      account: '',
      record: `Budgets ${d.id}`,
      change: d.changeId,
      request: {sheet: 'Budgets', sent: [expect.any(Array)]},
      time: expect.stringMatching(/^\d{4}-/),
    };
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: [out]});

    // The refresh sees the record applied, but the change is the scheduled run's to settle.
    d.rt.call('refreshOffers');
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: [out]});
    expect(recordsOf(d.rt, 'Scheduled')[0]).toMatchObject({status: 'ERROR'});
    expect(history(d)).toEqual([['scheduled push', '100', '150', 'UNKNOWN']]);

    const sent = puts(d);
    d.rt.call('applyScheduledChanges');
    expect(puts(d)).toBe(sent);
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: []});
    expect(recordsOf(d.rt, 'Scheduled')[0]).toMatchObject({
      status: 'OK',
      message: expect.stringMatching(
        /^Read back at .*: the server holds it \(the answer to its request was lost\)\.$/,
      ),
    });
    expect(history(d)).toEqual([
      ['scheduled push', '100', '150', 'UNKNOWN'],
      ['scheduled push', '100', '150', 'OK'],
    ]);
  });

  it('a push of the same record meanwhile does not take it for its own: it stays for the scheduled run, which settles it', () => {
    const d = oneLost();
    d.cap(d.id, '170');
    d.rt.call('pushBudgets');
    const entries = (memoOf(d.rt, 'outbox') as {entries: unknown[]}).entries;
    expect(entries).toEqual([
      expect.objectContaining({job: 'scheduled push', change: d.changeId}),
    ]);
    d.rt.call('applyScheduledChanges');
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: []});
    expect(history(d).map(([job]) => job)).not.toContain('refreshOffers');
  });

  it('a put-back whose answer is lost stands as a write of `scheduled revert`, and the next run settles it REVERTED', () => {
    const desk = oneScheduled(3);
    const {id} = desk;
    desk.rt.runDueTriggers(desk.rt.clock.now() + 2 * HOUR_MS);
    desk.rt.call('applyScheduledChanges');
    expect(recordsOf(desk.rt, 'Scheduled')[0]).toMatchObject({status: 'OK'});
    runLost(desk, 1);
    expect(memoOf(desk.rt, 'outbox')).toMatchObject({
      entries: [
        {kind: 'write', job: 'scheduled revert', record: `Budgets ${id}`},
      ],
    });
    desk.rt.call('applyScheduledChanges');
    expect(memoOf(desk.rt, 'outbox')).toMatchObject({entries: []});
    expect(recordsOf(desk.rt, 'Scheduled')[0]).toMatchObject({
      status: 'REVERTED',
    });
    expect(desk.emulator.offerView(id)!.budget[0].daily_cap).toBe('100');
  });

  it('a new schedule of the field is refused while the lost change is still to be put back', () => {
    const desk = oneLost(5);
    const {id, changeId} = desk;
    desk.cap(id, '300');
    const at = Math.floor(desk.rt.clock.now() / 1000) + 3600;
    expect(() => desk.rt.call('pushBudgets', {at})).toThrow(
      `daily_cap [ALL] of Budgets ${id} was sent with its answer lost, and is to be put back at 2026-01-05 14:00 (Etc/UTC) once the next scheduled run reads it back, by change ${changeId} (row 2 of the Scheduled sheet): schedule this one after that put-back. Nothing was scheduled, and your edits are kept.`,
    );
    expect(recordsOf(desk.rt, 'Scheduled')).toHaveLength(1);
  });

  it('is read back in the run that lost it: OK there, its entry settled, one History row, nothing sent twice', () => {
    const d = oneScheduled();
    dropPut(d);
    d.rt.runDueTriggers(d.rt.clock.now() + 2 * HOUR_MS);
    d.rt.call('applyScheduledChanges');
    expect(puts(d)).toBe(1);
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: []});
    expect(recordsOf(d.rt, 'Scheduled')[0]).toMatchObject({
      status: 'OK',
      message: expect.stringMatching(
        /^Read back at .*: the server holds it \(the answer to its request was lost\)\.$/,
      ),
    });
    expect(history(d)).toEqual([['scheduled push', '100', '150', 'OK']]);
    d.rt.call('applyScheduledChanges');
    expect(puts(d)).toBe(1);
  });

  it('read back in the same run as not applied: ERROR "Not applied", never sent a second time (a push would resend it)', () => {
    const d = oneScheduled();
    d.emulator.faults.add({
      kind: 'drop',
      method: 'PUT',
      path: '/api/open/v3/offer/budget',
      count: 1,
      applied: false,
    });
    d.rt.runDueTriggers(d.rt.clock.now() + 2 * HOUR_MS);
    d.rt.call('applyScheduledChanges');
    expect(puts(d)).toBe(1);
    expect(d.emulator.offerView(d.id)!.budget[0].daily_cap).toBe('100');
    expect(memoOf(d.rt, 'outbox')).toMatchObject({entries: []});
    expect(recordsOf(d.rt, 'Scheduled')[0]).toMatchObject({
      status: 'ERROR',
      message:
        'Not applied: read back, the server does not hold it (its request got no answer). Not sent again: schedule it again if it is still wanted.',
    });
    expect(history(d)).toEqual([['scheduled push', '100', '150', 'ERROR']]);
    d.rt.call('applyScheduledChanges');
    expect(puts(d)).toBe(1);
  });
});
