/**
 * "No status says more than the add-on knows", for the scheduled refresh: Apps Script stops a
 * scheduled run at its time limit, and the sidebar's last-run line and the schedule's health
 * must not go on telling the run before. The built dist/Code.js in the local runtime against
 * the emulator.
 */
import {EXCEEDED_TIME} from '../../local/runtime';
import {offerDesk} from '../support/offer-desk';

const HOUR_MS = 3600_000;

interface View {
  paused: string | null;
  lastRun: {outcome: string; message: string} | null;
}

describe('a scheduled refresh that Apps Script stops', () => {
  it('leaves "started and has not finished"; the next run counts it as a failure, and five such pause the schedule', () => {
    const {rt, emulator} = offerDesk({offers: 5});
    rt.call('setRefreshSchedule', 1);
    const hours = (n: number) =>
      rt.runDueTriggers(rt.clock.now() + n * HOUR_MS).map(r => r.error);
    const view = () => rt.call('getSchedule') as View;
    expect(hours(1)).toEqual([undefined]);
    expect(view().lastRun?.outcome).toBe('ok');

    // Every list request now takes longer than an execution may last.
    emulator.faults.add({kind: 'slow', method: 'GET', latencyMs: 400000});
    expect(hours(1)).toEqual([EXCEEDED_TIME]);
    expect(view().lastRun).toEqual(
      expect.objectContaining({
        outcome: 'unfinished',
        message:
          'Refresh everything started and has not finished: it is running, or Apps Script stopped it (at its 6-minute limit for one run, most likely; the next scheduled run counts that as a failure).',
      }),
    );
    expect(view().paused).toBeNull();

    // Each run counts the one before it, stopped: the sixth finds the fifth failure.
    expect(hours(4)).toEqual(Array(4).fill(EXCEEDED_TIME));
    expect(view().paused).toBeNull();
    expect(hours(1)).toEqual([EXCEEDED_TIME]);
    expect(view().paused).toBe(
      'Paused after 5 failed runs in a row: it never finished: Apps Script stopped it, most likely at its time limit for one run (6 minutes). What it wrote before shows in the sheets. Choose a schedule again to resume.',
    );
    // The owner heard of it: the first failure, then the pause (one email a day per kind).
    expect(rt.outbox.sent.map(m => m.subject)).toEqual([
      'Offer Desk: the scheduled refresh of "Offer Desk" failed',
      'Offer Desk: the scheduled refresh of "Offer Desk" is paused',
    ]);
    // Paused: its trigger is gone, no run follows.
    expect(hours(3)).toEqual([]);
  });

  it('a run that finishes replaces its start record and resets the count', () => {
    const {rt, emulator} = offerDesk({offers: 5});
    rt.call('setRefreshSchedule', 1);
    const hours = (n: number) =>
      rt.runDueTriggers(rt.clock.now() + n * HOUR_MS).map(r => r.error);
    emulator.faults.add({kind: 'slow', method: 'GET', latencyMs: 400000});
    expect(hours(2)).toEqual([EXCEEDED_TIME, EXCEEDED_TIME]);
    emulator.faults.clear();
    expect(hours(1)).toEqual([undefined]);
    const view = rt.call('getSchedule') as View & {failures?: number};
    expect(view.lastRun?.outcome).toBe('ok');
    expect(view.paused).toBeNull();
  });
});
