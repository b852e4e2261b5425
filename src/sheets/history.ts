/**
 * The History sheet's I/O (schemas/history.ts) over the log-sheet machinery (log-sheet.ts): a
 * job run's changes appended in one block, the oldest runs by time moved whole (the user's own
 * columns included) to a dated archive sheet past a size, and runs read back by change_id and
 * time, never by row order: a History sorted or filtered by hand reads the same.
 *
 * The sheet is the add-on's log: protected whole with a warning (a sheet protection covers
 * the rows appended later too), text columns formatted as plain text so a value such as
 * `=1+1` or `007` stays what was sent. Columns are found by header, as everywhere. A column
 * that listing or revert reads, renamed or deleted, stops them (and the next append) with a
 * message naming it, instead of being read as empty: an empty `before` would revert a link to
 * nothing. A sheet with content but no change_id header in row 1 (the user's own sheet named
 * History, or the header row deleted) is not read as runs nor written into.
 */
import type {Workbook} from '../platform/ports';
import {accountCellOf} from './accounts';
import {isDate} from './cell';
import {LogCells, LogRun, LogSheet, LogSpec} from './log-sheet';
import {HISTORY, HistoryRow} from './schemas/history';

export const DEFAULT_HISTORY_LIMIT = 50000;
const PROTECTION =
  "The History sheet is Offer Desk's record of what it sent: revert a change from the sidebar instead of editing it here.";

/** Every column but message: listing and revert read them. */
const HISTORY_LOG: LogSpec = {
  schema: HISTORY as never,
  time: 'time',
  protection: PROTECTION,
  needed: HISTORY.columns.map(c => c.header).filter(h => h !== 'message'),
  neededFor: 'to list and revert changes',
};

/** SEEN: a change made outside Offer Desk, found by a refresh (jobs/refresh/server-changes.ts). */
export type HistoryOutcome = 'OK' | 'ERROR' | 'UNKNOWN' | 'SEEN';

/** What one job run shares across its History rows. */
export interface HistoryRun {
  changeId: string;
  job: string;
  account: string;
  user: string;
  at: Date;
}

/** One field of one record a job run sent, and what came of it. */
export interface HistoryChange {
  /** Whose record, in any spelling accounts.ts reads (written as its cell): the run's account when not given. */
  account?: string;
  /** The run's job when not given: a refresh records what it found changed on the server. */
  job?: string;
  sheet: string;
  record: string;
  field: string;
  before: string;
  after: string;
  outcome: HistoryOutcome;
  message: string;
}

function historyRow(cells: LogCells): HistoryRow {
  const text = (header: keyof HistoryRow) => String(cells[header] ?? '');
  const time = cells.time;
  return {
    time: isDate(time) ? time : new Date(NaN),
    change_id: text('change_id').trim(),
    job: text('job'),
    account: text('account'),
    user: text('user'),
    sheet: text('sheet'),
    record: text('record'),
    field: text('field'),
    before: text('before'),
    after: text('after'),
    outcome: text('outcome'),
    message: text('message'),
  };
}

export interface AppendResult {
  /** The archive sheet the oldest runs moved to, and how many rows. */
  archived?: {sheet: string; rows: number};
}

/** The History sheet, made when missing; its header row read (LogSheet.open). */
export function openHistory(workbook: Workbook): LogSheet {
  return LogSheet.open(workbook, HISTORY_LOG, {create: true})!;
}

/**
 * Appends a job run's changes in one block. Past `limit` rows, the oldest runs by time (whole
 * runs: a change is never split) move to the archive sheet of the day first, a tenth of the
 * limit more than needed so that archiving is rare. `opened`: the sheet as this run opened
 * it before (a run appends after each batch); opened here when not given.
 */
export function appendHistory(
  workbook: Workbook,
  run: HistoryRun,
  changes: readonly HistoryChange[],
  limit = DEFAULT_HISTORY_LIMIT,
  opened?: LogSheet,
): AppendResult {
  if (changes.length === 0) return {};
  const history = opened ?? openHistory(workbook);
  const rows = changes.map(({account, job, ...change}): LogCells => ({
    time: run.at,
    change_id: run.changeId,
    job: job ?? run.job,
    account: accountCellOf(account ?? run.account),
    user: run.user,
    ...change,
  }));
  const held = history.held();
  let result: AppendResult = {};
  if (held + rows.length > limit) {
    const name = `History archive ${dayOf(workbook, run.at)}`;
    const count = held + rows.length - limit + Math.floor(limit / 10);
    const moved = history.archive(workbook, name, count);
    if (moved > 0) result = {archived: {sheet: name, rows: moved}};
  }
  history.append(rows);
  return result;
}

/** yyyy-mm-dd in the spreadsheet's time zone. */
export function dayOf(workbook: Workbook, at: Date): string {
  return timeOf(workbook, at).slice(0, 10);
}

/** yyyy-mm-dd hh:mm:ss in the spreadsheet's time zone, as the History sheet shows a time. */
export function timeOf(workbook: Workbook, at: Date): string {
  const local = new Date(
    at.getTime() + workbook.utcOffsetMinutes(at.getTime()) * 60000,
  );
  return local.toISOString().slice(0, 19).replace('T', ' ');
}

/** Every History row of one change, wherever the sheet's sort put them, oldest first. */
export function readChange(workbook: Workbook, changeId: string): HistoryRow[] {
  const history = LogSheet.open(workbook, HISTORY_LOG, {create: false});
  if (!history) return [];
  return byTime(history.read(history.find(changeId)).map(historyRow));
}

/**
 * The rows of every other run newer than `after` by time, newest run first: read only when a
 * revert meets a field changed since its change, to tell whose change that was.
 */
export function readRunsAfter(
  workbook: Workbook,
  changeId: string,
  after: Date,
): HistoryRow[][] {
  return readRuns(workbook, runs =>
    runs.filter(run => run.key !== changeId && run.time > after.getTime()),
  );
}

/** The `count` newest runs by time, newest first, each its rows oldest first. */
export function readRecentRuns(
  workbook: Workbook,
  count: number,
): HistoryRow[][] {
  return readRuns(workbook, runs => runs.slice(0, count));
}

/** The rows of the runs `pick` keeps of all (newest first), each run's oldest first. */
function readRuns(
  workbook: Workbook,
  pick: (runs: LogRun[]) => LogRun[],
): HistoryRow[][] {
  const history = LogSheet.open(workbook, HISTORY_LOG, {create: false});
  if (!history) return [];
  const runs = pick(history.runs());
  const rows = history.read(runs.flatMap(run => run.rows)).map(historyRow);
  const byId = new Map(runs.map(run => [run.key, [] as HistoryRow[]]));
  for (const row of rows) byId.get(row.change_id)?.push(row);
  return [...byId.values()].map(byTime);
}

/** Rows by time, sheet order among equals; an unreadable time keeps its place at the end. */
function byTime(rows: HistoryRow[]): HistoryRow[] {
  const ms = (row: HistoryRow) =>
    Number.isNaN(row.time.getTime()) ? Infinity : row.time.getTime();
  return rows
    .map((row, i) => ({row, i}))
    .sort((a, b) => ms(a.row) - ms(b.row) || a.i - b.i)
    .map(({row}) => row);
}
