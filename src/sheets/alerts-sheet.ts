/**
 * The Alerts sheet's I/O (schemas/alerts.ts): a log sheet (log-sheet.ts) like History. Each
 * refresh appends its alerts in one block, all of one time (a refresh's rows are one run, by
 * time); past its size the oldest runs move, whole rows, to a dated archive sheet. The add-on
 * never edits a row it wrote: `seen` is the user's, and the sidebar counts the rows not seen.
 */
import type {CellValue, Workbook} from '../platform/ports';
import {accountCellOf} from './accounts';
import {dayOf} from './history';
import {LogSheet, LogSpec} from './log-sheet';
import {ALERTS} from './schemas/alerts';

export const ALERTS_LIMIT = 50000;

const ALERTS_LOG: LogSpec = {
  schema: ALERTS as never,
  time: 'time',
  protection:
    "The Alerts sheet is Offer Desk's record of what changed on the server: tick seen when you have looked; the other cells are written once and never changed.",
  // Ticking seen is what the docs ask for: it must not warn (issue 36).
  editable: ['seen'],
  needed: ['time'],
};

/** One alert as appendAlerts writes it. */
export interface AlertCells {
  /** Whose offer, in any spelling accounts.ts reads: written as its cell. */
  account: string;
  offerId: string;
  offerName: string;
  what: string;
  before: string;
  after: string;
  reason: string;
}

/** Appends one refresh's alerts in one block; nothing when there are none. */
export function appendAlerts(
  workbook: Workbook,
  at: Date,
  alerts: readonly AlertCells[],
  limit = ALERTS_LIMIT,
): void {
  if (alerts.length === 0) return;
  const log = LogSheet.open(workbook, ALERTS_LOG, {create: true})!;
  const held = log.held();
  if (held + alerts.length > limit) {
    const count = held + alerts.length - limit + Math.floor(limit / 10);
    log.archive(workbook, `Alerts archive ${dayOf(workbook, at)}`, count);
  }
  log.append(
    alerts.map(a => ({
      time: at,
      account: accountCellOf(a.account),
      // An id as a number, as in Offers (right-aligned, found by a numeric filter); the API's
      // ids are whole numbers, and anything else is written as it came.
      offer_id: /^\d+$/.test(a.offerId) ? Number(a.offerId) : a.offerId,
      offer_name: a.offerName,
      what: a.what,
      before: a.before,
      after: a.after,
      reason: a.reason,
      seen: '',
    })),
  );
}

/** A `seen` cell the user left as not seen: empty, FALSE, NO or 0. */
function unseen(cell: CellValue): boolean {
  if (cell === false || cell === 0) return true;
  return ['', 'FALSE', 'NO', '0'].includes(String(cell).trim().toUpperCase());
}

/** Alerts rows not seen yet: the `seen` column read whole, once; 0 without an Alerts sheet. */
export function unseenAlerts(workbook: Workbook): number {
  const sheet = workbook.sheet(ALERTS.name);
  if (!sheet) return 0;
  const last = sheet.lastRow();
  if (last < 2) return 0;
  const header = sheet.readBlock(1, 1, 1, sheet.maxColumns())[0];
  const seen = header.findIndex(h => String(h).trim() === 'seen');
  const time = header.findIndex(h => String(h).trim() === 'time');
  if (seen < 0 || time < 0) return 0;
  const left = Math.min(seen, time);
  const cells = sheet.readBlock(
    2,
    left + 1,
    last - 1,
    Math.abs(seen - time) + 1,
  );
  // A row with no time is not one the add-on wrote (the user's own line).
  return cells.filter(
    row => String(row[time - left]).trim() !== '' && unseen(row[seen - left]),
  ).length;
}
