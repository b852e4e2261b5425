/** Row statuses (DESIGN 4.3) and the colour each gives its sync_status cell. */

export type SyncStatus = 'OK' | 'INVALID' | 'ERROR' | 'EDITED' | 'CONFLICT';

export const STATUS_COLORS: Readonly<Record<SyncStatus, string>> = {
  OK: '#d9ead3',
  INVALID: '#fce5cd',
  ERROR: '#f4cccc',
  EDITED: '#cfe2f3',
  CONFLICT: '#ead1dc',
};

export function statusColor(status: unknown): string | null {
  return typeof status === 'string' && status in STATUS_COLORS
    ? STATUS_COLORS[status as SyncStatus]
    : null;
}

/**
 * A CONFLICT or ERROR row keeps its own message in a preview, the preview's note after it
 * (jobs/push/push.ts previewMark): what that message said, without the note. The note tells
 * one preview; the next refresh or preview keeps only what the row said.
 */
export function withoutPreviewNote(message: string): string {
  return message.split(' Preview: ')[0];
}
