/** Row statuses (DESIGN 4.3) and the colour each gives its sync_status cell. */

export type SyncStatus = 'OK' | 'INVALID' | 'ERROR' | 'EDITED' | 'CONFLICT';

export const STATUS_COLORS: Readonly<Record<SyncStatus, string>> = {
  OK: '#d9ead3',
  INVALID: '#fce5cd',
  ERROR: '#f4cccc',
  EDITED: '#cfe2f3',
  CONFLICT: '#ead1dc',
};

/** The message of a row edited and not pushed: a refresh's merge, and the edit itself (onEdit). */
export const EDITED_HERE = 'Edited here, not pushed yet.';

export function statusColor(status: unknown): string | null {
  return typeof status === 'string' && status in STATUS_COLORS
    ? STATUS_COLORS[status as SyncStatus]
    : null;
}

/** How the row message of a push whose budget guard held the row begins (jobs/push/budget-hold.ts). */
export const HELD_BY_GUARD = 'Held by the budget guard';

/** How the note of one run begins after a kept message: a preview's, or a guard's hold. */
const RUN_NOTES = [' Preview: ', ` ${HELD_BY_GUARD} `];

/**
 * A CONFLICT or ERROR row keeps its own message in a preview, or in a push whose budget guard
 * held it, the run's note after it (jobs/push/push.ts noteKeeping): what that message said,
 * without the note. The note tells one run; the next refresh, preview or push keeps only what
 * the row said.
 */
export function withoutRunNote(message: string): string {
  return RUN_NOTES.reduce((kept, note) => kept.split(note)[0], message);
}
