/**
 * The changes still waiting, for the sidebar's list (issue 27), and cancelling one: its
 * WAITING rows become CANCELLED, which no run sends. Any editor may cancel; only the owner's
 * trigger, with the owner's keys, ever sends.
 */
import {ConfigError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {ScheduledEntry, ScheduledSheet} from '../../sheets/scheduled';
import {counted} from '../../text/wording';
import {withDocumentLock} from '../run';
import {StateBook} from '../../state/book';
import {Outbox} from '../../state/outbox';
import {StoredChanges, pairRows} from './stored';
import type {JobSummary} from '../run';
import {zoned} from './when';

/** One waiting change as the sidebar lists it. */
export interface WaitingChange {
  changeId: string;
  /** When it goes out and is put back ('' never), in the spreadsheet's time zone. */
  applyAt: string;
  revertAt: string;
  /** "Budgets 123 daily_cap [ALL] 100 → 150", one per field. */
  fields: string[];
}

/**
 * The WAITING changes as stored (what will go out, whatever their rows were typed over to),
 * soonest first; one scheduled before the store, as its rows read.
 */
export function listWaiting(platform: Platform): WaitingChange[] {
  const workbook = platform.workbook();
  const sheet = ScheduledSheet.open(workbook, false, () =>
    platform.clock.now(),
  );
  // Read only: the store is paired with the sheet here, never saved.
  const book = StateBook.open(workbook);
  const stored = StoredChanges.open(book, Outbox.of(book));
  pairRows(stored, sheet, () => true);
  const byChange = new Map<string, ScheduledEntry[]>();
  for (const entry of stored.entries) {
    if (entry.status !== 'WAITING') continue;
    byChange.set(entry.change_id, [
      ...(byChange.get(entry.change_id) ?? []),
      entry,
    ]);
  }
  return [...byChange.values()]
    .sort((a, b) => a[0].applyAt - b[0].applyAt)
    .map(entries => {
      const [first] = entries;
      const at = (ms: number) => (Number.isNaN(ms) ? '' : zoned(workbook, ms));
      return {
        changeId: first.change_id,
        applyAt: at(first.applyAt),
        revertAt: at(first.revertAt),
        fields: entries.map(
          e => `${e.sheet} ${e.record} ${e.field} ${e.before} → ${e.after}`,
        ),
      };
    });
}

/**
 * Cancels the WAITING fields of one change, in the store and on their rows; sends nothing.
 * Any editor may, with or without keys of their own: it holds the document lock, never
 * connects.
 */
export function cancelScheduledChange(
  platform: Platform,
  changeId: string,
): JobSummary {
  const id = String(changeId ?? '').trim();
  return withDocumentLock(platform, () => {
    const workbook = platform.workbook();
    const book = StateBook.open(workbook);
    const stored = StoredChanges.open(book, Outbox.of(book));
    const sheet = ScheduledSheet.open(workbook, false, () =>
      platform.clock.now(),
    );
    // A change scheduled before the store is cancelled as its rows read.
    pairRows(stored, sheet, row => row.change_id === id);
    const waiting = stored.entries.filter(
      e => e.change_id === id && e.status === 'WAITING',
    );
    if (waiting.length === 0) {
      throw new ConfigError(
        `Change ${id || '(no id)'} has no WAITING row in the Scheduled sheet: it was sent, cancelled or deleted already, or the id is not one. Nothing was changed.`,
      );
    }
    const by = platform.identity.email() || 'an editor';
    const message = `Cancelled by ${by} at ${zoned(workbook, platform.clock.now())}.`;
    for (const entry of waiting) {
      stored.mark(entry, 'CANCELLED', message);
      if (sheet && entry.index >= 0)
        sheet.mark({...entry}, 'CANCELLED', message);
    }
    book.save();
    sheet?.flush();
    workbook.flush();
    return {
      job: 'cancelScheduledChange',
      account: '',
      ok: 0,
      invalid: 0,
      error: 0,
      skipped: 0,
      remaining: 0,
      dryRun: false,
      problems: [],
      message: `Change ${id} cancelled: ${counted(waiting.length, 'field')} will not be sent.`,
    };
  });
}
