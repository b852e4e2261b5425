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
