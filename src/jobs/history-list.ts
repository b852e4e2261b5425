/**
 * The sidebar's History list: the last job runs that sent something, newest first, each with
 * what it changed, read from the newest History rows only.
 */
import type {Platform} from '../platform/ports';
import {readHistoryBackwards} from '../sheets/history';
import type {HistoryRow} from '../sheets/schemas/history';
import {isRevertible} from './revert';

/** Runs the sidebar lists. */
export const LISTED_RUNS = 20;
/** Changed fields shown per run; the rest are counted. */
const SHOWN_LINES = 5;

export interface ChangeRun {
  changeId: string;
  /** When its answers arrived, ms since the epoch (NaN when the time cell was changed). */
  at: number;
  job: string;
  account: string;
  user: string;
  /** History rows by outcome. */
  ok: number;
  error: number;
  unknown: number;
  records: number;
  sheets: string[];
  /** Some of it can be put back (a push's applied or unknown change). */
  revertible: boolean;
  /** "Budgets 1001 daily_cap [ALL]: 100 → 150", the first few. */
  lines: string[];
  /** Lines not shown. */
  more: number;
}

export interface HistoryView {
  runs: ChangeRun[];
  /** The spreadsheet's time zone: the sidebar shows times in it. */
  timeZone: string;
}

export function recentChanges(platform: Platform): HistoryView {
  const workbook = platform.workbook();
  const rows = readHistoryBackwards(
    workbook,
    read => new Set(read.map(r => r.change_id)).size > LISTED_RUNS,
  );
  const runs = new Map<string, HistoryRow[]>();
  for (const row of rows) {
    if (row.change_id === '') continue;
    const run = runs.get(row.change_id);
    if (run) run.push(row);
    else if (runs.size < LISTED_RUNS) runs.set(row.change_id, [row]);
  }
  return {
    runs: [...runs.values()].map(run => summarize(run.reverse())),
    timeZone: workbook.timeZone(),
  };
}

function summarize(rows: readonly HistoryRow[]): ChangeRun {
  const [first] = rows;
  const count = (outcome: string) =>
    rows.filter(r => r.outcome === outcome).length;
  const lines = rows.map(
    r =>
      `${r.sheet} ${r.record} ${r.field}: ${r.before || '(empty)'} → ${r.after || '(empty)'}${r.outcome === 'OK' ? '' : ` (${r.outcome})`}`,
  );
  return {
    changeId: first.change_id,
    at: first.time.getTime(),
    job: first.job,
    account: first.account,
    user: first.user,
    ok: count('OK'),
    error: count('ERROR'),
    unknown: count('UNKNOWN'),
    records: new Set(rows.map(r => `${r.sheet}\u0000${r.record}`)).size,
    sheets: [...new Set(rows.map(r => r.sheet))],
    revertible: rows.some(r => isRevertible(r.sheet) && r.outcome !== 'ERROR'),
    lines: lines.slice(0, SHOWN_LINES),
    more: Math.max(0, lines.length - SHOWN_LINES),
  };
}
