/**
 * The memo that keeps the scheduled changes (jobs/scheduled/stored.ts, DESIGN 4.5): the truth
 * of which the Scheduled sheet is a view. Its name lives here, below the jobs, so a refresh
 * reads what was sent from the store, never from cells a person may have typed over.
 */
import type {ScheduledRow} from '../sheets/schemas/scheduled';
import type {StateBook} from './book';

export const SCHEDULED_MEMO = 'scheduled changes';

/** The text cells of a stored field, as the memo keeps them beside its times. */
export type StoredTexts = Omit<ScheduledRow, 'apply_at' | 'revert_at'>;

/** The stored fields' texts; none where nothing was ever scheduled (or the memo is not a list). */
export function storedTexts(book: StateBook): StoredTexts[] {
  const kept = book.memo<unknown>(SCHEDULED_MEMO);
  return Array.isArray(kept) ? (kept as StoredTexts[]) : [];
}
