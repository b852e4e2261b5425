/**
 * What one run of the scheduled trigger does (index.ts scheduledRefresh): the due scheduled
 * changes, then the refresh the schedule names.
 */
import type {Platform} from '../../platform/ports';
import type {Execution, RunOptions} from '../kernel';
import type {JobSummary} from '../run';
import * as schedule from '../host/schedule';
import {RefreshWaitsError} from '../refresh/refresh-cost';
import {applyScheduledChanges} from './apply';

/**
 * The due changes, then the refresh, as jobs of one execution: under one lock, so no push
 * slips in between to be overwritten by the refresh, and over one state book, so the refresh
 * sees what the changes wrote. The refresh plans in the time the changes left it.
 */
export function scheduledTurn(
  p: Platform,
  within: Execution,
  refresh: (options: RunOptions) => JobSummary,
): JobSummary {
  // Due changes first: they go out at their time, whatever the refresh then takes.
  const applied = applyScheduledChanges(p, {scheduled: true, within});
  const touched =
    applied.ok + applied.error + (applied.conflict ?? 0) + applied.remaining;
  const at = p.clock.now();
  // While changes wait the trigger fires hourly; the refresh keeps its own interval.
  if (!schedule.refreshDue(p, at)) {
    schedule.backToRefreshInterval(p);
    return {
      ...applied,
      message: `${applied.message} The refresh itself was not due this hour: it runs at its own interval.`,
    };
  }
  let waits = false;
  try {
    const refreshed = refresh({
      scheduled: true,
      within,
      ...(touched > 0 ? {after: 'the scheduled changes'} : {}),
    });
    if (touched === 0) return refreshed;
    const emails = [applied.alertsEmail, refreshed.alertsEmail];
    return {
      ...refreshed,
      remaining: refreshed.remaining + applied.remaining,
      message: `${applied.message} ${refreshed.message}`,
      alertsEmail: emails.filter(Boolean).join(' '),
    };
  } catch (e) {
    if (!(e instanceof RefreshWaitsError)) throw e;
    // Nothing sent: the refresh stays due, and the trigger hourly, for the next run.
    waits = true;
    return {...applied, message: `${applied.message} ${e.message}`};
  } finally {
    if (!waits) schedule.refreshRan(p, at);
  }
}
