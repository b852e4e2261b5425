/**
 * What the user reads when a job ends: one line when all went well, the rows that need a look
 * when not, and for a job that could not run, its reason: never a stack trace.
 */
import {
  ApiError,
  ConfigError,
  NetworkError,
  OutcomeUnknownError,
} from '../../api/errors';
import {SheetLayoutError} from '../../sheets/table';
import {JobSummary, LockBusyError} from '../run';

/** Rows listed in an alert; the rest are counted and found by their sync_status. */
export const ROWS_LISTED = 8;

/** Failures with a message written for the user: anything else is a bug of ours. */
export function isExpectedFailure(e: unknown): boolean {
  return (
    e instanceof ConfigError ||
    e instanceof LockBusyError ||
    e instanceof ApiError ||
    e instanceof NetworkError ||
    e instanceof OutcomeUnknownError ||
    e instanceof SheetLayoutError
  );
}

/**
 * A request that got no answer at all (an unknown host, a refused connection), worded as Test
 * connection words it: which request, and what to check.
 */
export function unreachableMessage(e: NetworkError): string {
  return `Could not reach the API: ${e.message}. Check the base URL (host and port) and that the server is up.`;
}

export function failureMessage(e: unknown): string {
  if (e instanceof NetworkError) return unreachableMessage(e);
  const text = e instanceof Error ? e.message : String(e);
  if (isExpectedFailure(e)) return text;
  return `Offer Desk stopped unexpectedly: ${text}. Rows already written keep their status; running the job again continues.`;
}

/**
 * Runs what the sidebar called, failing with the words the menu shows: google.script.run
 * passes the sidebar an error's message only, and a raw "network error: Address unavailable"
 * tells a newcomer less than Test connection does.
 */
export function wordedForSidebar<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw new Error(failureMessage(e));
  }
}

/** The summary line, then the first rows that need attention and where the others are. */
export function attentionText(summary: JobSummary): string {
  const lines = [summary.message];
  const rows = summary.problems.slice(0, ROWS_LISTED);
  if (rows.length > 0) lines.push('');
  for (const p of rows) {
    lines.push(`${p.sheet} row ${p.row}: ${p.status}: ${p.message}`);
  }
  const unlisted = summary.invalid + summary.error - rows.length;
  if (unlisted > 0) {
    const sheets = [...new Set(summary.problems.map(p => p.sheet))];
    lines.push(
      `…and ${unlisted} more: see sync_status and sync_message in ${sheets.join(', ') || 'the sheet'}.`,
    );
  }
  return lines.join('\n');
}
