/**
 * The stored fields and the Scheduled rows that show them, marked together: the store is the
 * truth (stored.ts), the rows say what became of it and, typed over, how they differ from it.
 */
import {
  ScheduledEntry,
  ScheduledSheet,
  ScheduledStatus,
} from '../../sheets/scheduled';
import {Job} from '../kernel';
import {EXTRA, Paired, StoredChanges, differsNote} from './stored';

/** The stored fields and the Scheduled rows that show them, marked together. */
export interface View {
  mark(entry: ScheduledEntry, status: ScheduledStatus, message: string): void;
  /** Adds to a row's message what the store does not keep (how the row differs from it). */
  note(entry: ScheduledEntry, words: string): void;
  /** Writes a row alone, the store untouched: a row that shows no stored field. */
  shown(row: ScheduledEntry, status: ScheduledStatus, message: string): void;
  /** Writes the rows; answers those not written (deleted or typed over since the read). */
  flush(): Set<number>;
  /** The fields marked in this run. */
  marked: Set<ScheduledEntry>;
}

export function viewOf(
  sheet: ScheduledSheet | null,
  stored: StoredChanges,
): View {
  const show = (
    entry: ScheduledEntry,
    status: ScheduledStatus,
    message: string,
  ) => {
    if (sheet && entry.index >= 0) sheet.mark({...entry}, status, message);
  };
  const marked = new Set<ScheduledEntry>();
  return {
    marked,
    mark: (entry, status, message) => {
      marked.add(entry);
      stored.mark(entry, status, message);
      show(entry, status, message);
    },
    shown: show,
    note: (entry, words) =>
      show(
        entry,
        entry.status as ScheduledStatus,
        words ? `${entry.message} ${words}` : entry.message,
      ),
    flush: () => new Set(sheet?.flush().map(e => e.index)),
  };
}

/**
 * Each row typed over says so, and what is stored: what goes out. A row typed CANCELLED
 * after its request had left shows what became of it, and that it was too late.
 */
export function showDiffers(
  job: Job,
  view: View,
  {differs, late, noted, reshown, extra}: Paired,
): void {
  for (const row of extra) view.shown(row, 'ERROR', EXTRA);
  for (const entry of reshown)
    if (!view.marked.has(entry)) view.note(entry, '');
  for (const [entry, fields] of differs) {
    if (noted.has(entry) && !view.marked.has(entry)) continue;
    view.note(entry, differsNote(job.workbook, entry, fields));
  }
  for (const entry of late)
    view.note(
      entry,
      'Its row was typed CANCELLED after its request had left: too late to stop it.',
    );
}
