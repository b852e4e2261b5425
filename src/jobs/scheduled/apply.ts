/**
 * applyScheduledChanges (DESIGN 4.5, issues 27 and 32): sends the scheduled changes that are
 * due, first thing in every scheduled run and from the menu. What goes out is the stored
 * change (stored.ts), never a cell of the Scheduled sheet, which shows it (view.ts); which
 * fields are due and in what order is due.ts, what each does decide.ts (a changed record whose
 * base is the server's record read now, its request the push's own build, as-record.ts), and
 * send.ts hands them to the push's own delivery (push/push-delivery.ts).
 *
 * - Each record is read first (one list request per 50 records of one account; one account
 *   whose read fails holds back no other): where the server still holds every `before` of the
 *   change, the record's request is built from what the server holds with those fields set to
 *   `after` (a budget group added on the server since is kept); where it does not, the rows
 *   are CONFLICT and nothing is sent for it. At `revert_at`, the same the other way round,
 *   REVERTED once accepted.
 * - A field the server does not list (an offer's support_server_click) is read as the add-on
 *   last sent it, and the row says so: compared and resent as the add-on knows it, never
 *   claimed to be the server's. One whose value before the change was not known is not put
 *   back at revert_at (ERROR, saying so): the revert sends it as it is.
 * - The due changes are read together (a record at most once a round: a second change of it is
 *   read again once the first is settled), then delivered as a push's writes are: in chunks of
 *   as many fetchAll batches as the slowest batch so far says end in time, inside the job's
 *   time budget; near Apps Script's limit nothing more starts, the rest stay as they were
 *   (WAITING) and the summary says how many; the next run continues.
 * - A chunk's requests are posted to the outbox (a `write` of job `scheduled push` or
 *   `scheduled revert`, named by its change) and its rows marked (ERROR, "Unknown outcome: …",
 *   for people) before they leave, through the one writer, on the rows that hold each
 *   change's identity then; a row deleted or typed CANCELLED meanwhile is not sent. Each row is
 *   settled once its answer is in, written with the next chunk's marks before that chunk
 *   leaves. A lost answer is read back in the same run, never sent again: what reading back
 *   cannot tell (unlisted, unread) keeps its entry for the next run, until the grace after its
 *   time; a run killed midway leaves its entries, and the next run reads them back first.
 * - A change whose time passed more than the grace ago (6 hours unless set) is ERROR "missed
 *   its time", never sent late; one whose revert_at passed first is ERROR "missed its window".
 *   CANCELLED rows, and deleted WAITING ones, are never sent.
 * - Every write is a History row, job `scheduled push` or `scheduled revert`, signed, like
 *   every request, by the record's account.
 */
import type {Platform} from '../../platform/ports';
import {ScheduledSheet} from '../../sheets/scheduled';
import {counted} from '../../text/wording';
import {RunOptions, withJob} from '../kernel';
import type {JobSummary} from '../run';
import {SettingsStore} from '../settings-store';
import {scheduledChangesEmail} from './apply-mail';
import {StoredChanges, pairRows} from './stored';
import {Tally, dueItems, KEPT_CLOSED_MS, lastTime, isOpen} from './due';
import {viewOf, showDiffers} from './view';
import {applyItems} from './send';

export function applyScheduledChanges(
  platform: Platform,
  options: RunOptions = {},
): JobSummary {
  return withJob(platform, 'applyScheduledChanges', options, job => {
    const tally: Tally = {
      applied: 0,
      reverted: 0,
      conflict: 0,
      error: 0,
      requests: 0,
      left: 0,
      withdrawn: 0,
      unread: 0,
      unreadAccounts: new Set(),
      problems: [],
    };
    const sheet = ScheduledSheet.open(job.workbook, false, () =>
      platform.clock.now(),
    );
    // Only this person's changes: they go out with the keys of whoever scheduled them.
    const store = new SettingsStore(platform.userProperties);
    const documentId = platform.documentId();
    const mine = new Set(store.scheduledChanges(documentId));
    const stored = StoredChanges.open(job.book, job.outbox);
    // Changes of this person scheduled before the store existed: taken in as their rows read.
    const paired = pairRows(stored, sheet, row => mine.has(row.change_id));
    const view = viewOf(sheet, stored);
    const entries = stored.entries.filter(e => mine.has(e.change_id));
    const items = dueItems(entries, platform.clock.now(), job.outbox);
    if (items.length > 0) applyItems(job, view, items, tally);
    showDiffers(job, view, paired);
    view.flush();
    const open = new Set(
      entries.filter(e => isOpen(e, job.outbox)).map(e => e.change_id),
    );
    if (open.size < mine.size) store.setScheduledChanges(documentId, [...open]);
    // What will send nothing any more is kept a week, for its row to be shown as stored
    // (typed over since, or not written while it was typed over).
    const now = platform.clock.now();
    stored.prune(
      e => isOpen(e, job.outbox) || now - lastTime(e) < KEPT_CLOSED_MS,
    );
    const summary = job.summary({
      sheet: 'Scheduled',
      ok: tally.applied + tally.reverted,
      invalid: 0,
      error: tally.error,
      skipped: tally.withdrawn + tally.unread,
      remaining: tally.left,
      conflict: tally.conflict,
      requests: tally.requests,
    });
    const message = applyMessage(tally);
    const email =
      options.scheduled && message !== NOTHING_DUE
        ? scheduledChangesEmail(platform, message, tally.problems)
        : undefined;
    return {...summary, message, ...(email ? {alertsEmail: email} : {})};
  });
}

const NOTHING_DUE =
  'No change you scheduled is due (a change goes out only from the runs of whoever scheduled it).';

/** "Scheduled changes: 5 fields sent, 1 put back, 1 CONFLICT: see the Scheduled sheet." */
function applyMessage(tally: Tally): string {
  const parts = [
    tally.applied > 0 ? `${counted(tally.applied, 'field')} sent` : '',
    tally.reverted > 0 ? `${counted(tally.reverted, 'field')} put back` : '',
    tally.conflict > 0
      ? `${counted(tally.conflict, 'field')} CONFLICT (the server held another value: nothing sent)`
      : '',
    tally.error > 0 ? `${counted(tally.error, 'field')} ERROR` : '',
    tally.withdrawn > 0
      ? `${counted(tally.withdrawn, 'field')} not sent (${tally.withdrawn === 1 ? 'its row was' : 'their rows were'} deleted or typed over while the run read the server)`
      : '',
    tally.left > 0
      ? `${counted(tally.left, 'field')} left for lack of time (as they were: the next run sends ${tally.left === 1 ? 'it' : 'them'})`
      : '',
    tally.unread > 0
      ? `${counted(tally.unread, 'field')} not sent yet (${tally.unread === 1 ? 'its record' : 'their records'} in ${[...tally.unreadAccounts].join(', ')} could not be read first: the next run tries again)`
      : '',
  ].filter(p => p !== '');
  if (parts.length === 0) return NOTHING_DUE;
  return `Scheduled changes: ${parts.join(', ')}. See the Scheduled sheet.`;
}
