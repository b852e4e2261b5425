/**
 * The sidebar's History list: the last job runs that sent something, newest first by time
 * (whatever the History sheet's sort), each with what it changed.
 */
import {ConfigError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {accountLabel, accountOfCell} from '../../sheets/accounts';
import {readRecentRuns} from '../../sheets/history';
import {counted} from '../../text/wording';
import {historyLimit} from '../change-log';
import type {HistoryRow} from '../../sheets/schemas/history';
import {isRevertible} from './revert';
import {SettingsStore} from '../settings-store';
import {SERVER_JOB, sinceOf} from '../refresh/server-changes';

/** The History sizes one may choose: a sheet of 12 columns, within Sheets' 10 million cells. */
export const HISTORY_LIMITS = {min: 1000, max: 500000};

/** Runs the sidebar lists. */
export const LISTED_RUNS = 20;
/** Changed fields shown per run; the rest are counted. */
const SHOWN_LINES = 5;

export interface ChangeRun {
  changeId: string;
  /** When it started (its rows' time), ms since the epoch (NaN when the time cell was changed). */
  at: number;
  job: string;
  /** Whose records it changed: one account's label, or each with its count of records. */
  account: string;
  user: string;
  /** History rows by outcome. */
  ok: number;
  error: number;
  unknown: number;
  records: number;
  sheets: string[];
  /** A push's change: revert puts it back (or takes it out of rows the server refused). */
  revertible: boolean;
  /**
   * Fields a refresh found changed on the server outside Offer Desk (one account's, listed on
   * their own): since when, as History shows a time ('' when not known). Never revertible.
   */
  server?: {since: string};
  /** "Budgets 1001 daily_cap [ALL]: 100 → 150", the first few. */
  lines: string[];
  /** Lines not shown. */
  more: number;
}

export interface HistoryView {
  runs: ChangeRun[];
  /** The spreadsheet's time zone: the sidebar shows times in it. */
  timeZone: string;
  /** Rows the History keeps before the oldest runs move to an archive sheet. */
  limit: number;
}

/** Sets the History size of this spreadsheet (for the current user's runs). */
export function setHistoryLimit(platform: Platform, rows: unknown): number {
  const value = Number(String(rows ?? '').replace(/[,_\s]/g, ''));
  const {min, max} = HISTORY_LIMITS;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(
      `History size not saved: it must be a whole number of rows from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, not "${String(rows).slice(0, 40)}".`,
    );
  }
  new SettingsStore(platform.userProperties).setHistoryLimit(
    platform.documentId(),
    value,
  );
  return value;
}

export function recentChanges(platform: Platform): HistoryView {
  const workbook = platform.workbook();
  return {
    runs: readRecentRuns(workbook, LISTED_RUNS).flatMap(byKind),
    timeZone: workbook.timeZone(),
    limit: historyLimit(platform),
  };
}

/**
 * A run's rows as the list shows them: what Offer Desk wrote, then what its refresh found
 * changed on the server, one item per account.
 */
function byKind(rows: readonly HistoryRow[]): ChangeRun[] {
  const own = rows.filter(r => r.job !== SERVER_JOB);
  const seen = new Map<string, HistoryRow[]>();
  for (const row of rows) {
    if (row.job !== SERVER_JOB) continue;
    seen.set(row.account, [...(seen.get(row.account) ?? []), row]);
  }
  return [
    ...(own.length > 0 ? [summarize(own)] : []),
    ...[...seen.values()].map(server => ({
      ...summarize(server),
      revertible: false,
      server: {since: sinceOf(server[0].message) ?? ''},
    })),
  ];
}

/**
 * Whose records a run changed: the one account, or each with its count of records
 * ("main account: 1 record, sub-account b: 2 records"), whichever way its rows spell it.
 */
function accountsOf(rows: readonly HistoryRow[]): string {
  const records = new Map<string, Set<string>>();
  for (const r of rows) {
    const account = accountOfCell(r.account);
    const label = account === undefined ? '' : accountLabel(account);
    records.set(
      label,
      (records.get(label) ?? new Set()).add(`${r.sheet}\u0000${r.record}`),
    );
  }
  const named = [...records].filter(([label]) => label !== '');
  if (named.length === 1 && records.size === 1) return named[0][0];
  return named
    .map(([label, ids]) => `${label}: ${counted(ids.size, 'record')}`)
    .join(', ');
}

function summarize(rows: readonly HistoryRow[]): ChangeRun {
  const [first] = rows;
  const count = (outcome: string) =>
    rows.filter(r => r.outcome === outcome).length;
  const lines = rows.map(
    r =>
      `${r.sheet} ${r.record} ${r.field}: ${r.before || '(empty)'} → ${r.after || '(empty)'}${r.outcome === 'OK' || r.outcome === 'SEEN' ? '' : ` (${r.outcome})`}`,
  );
  return {
    changeId: first.change_id,
    at: first.time.getTime(),
    job: first.job,
    account: accountsOf(rows),
    user: first.user,
    ok: count('OK'),
    error: count('ERROR'),
    unknown: count('UNKNOWN'),
    records: new Set(rows.map(r => `${r.sheet}\u0000${r.record}`)).size,
    sheets: [...new Set(rows.map(r => r.sheet))],
    // Even a refused push: revert takes the refused values out of the rows still holding them.
    revertible: rows.some(r => isRevertible(r.sheet)),
    lines: lines.slice(0, SHOWN_LINES),
    more: Math.max(0, lines.length - SHOWN_LINES),
  };
}
