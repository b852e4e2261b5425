/**
 * The progress board in a cache, one entry per spreadsheet: a job writes how far it has come,
 * the sidebar polls it from another execution while the job still runs. Over the document
 * cache (apps-script.ts), every editor's sidebar sees it: one job at a time runs in a
 * spreadsheet, whoever started it. A cache entry may vanish at any time; the sidebar then
 * just shows no numbers until the next report.
 */
import type {Cache, JobProgress, ProgressBoard} from './ports';

const KEY = 'offerDesk.progress.';
/** Longer than any execution (6 minutes), so a finished job's last report also expires. */
const TTL_SECONDS = 10 * 60;
/** Before the board's key: when `seen` was last ticked in Alerts. */
const TICKED = 'alertsTicked.';
/** The longest CacheService keeps an entry: a sidebar open longer re-counts when shown. */
const TICKED_SECONDS = 6 * 60 * 60;
/** Reports closer together than this are not written: each write is a CacheService call. */
export const REPORT_SPACING_MS = 1000;

export function cacheProgressBoard(
  cache: () => Cache,
  documentId: () => string,
  now: () => number,
): ProgressBoard {
  let last: {job: string; at: number} | undefined;
  // When this execution first reported: tells a live run from one Apps Script cut off.
  let since: number | undefined;
  // The spreadsheet never changes within an execution; asking its id is two service calls.
  let id: string | undefined;
  const key = () => KEY + (id ??= documentId());
  return {
    report(job, done, total) {
      const at = now();
      const counts = {
        done: Math.max(0, Math.floor(Number(done) || 0)),
        total: Math.max(0, Math.floor(Number(total) || 0)),
      };
      const edge = counts.done === 0 || counts.done >= counts.total;
      if (!edge && last?.job === job && at - last.at < REPORT_SPACING_MS) {
        return;
      }
      last = {job, at};
      since ??= at;
      const entry: JobProgress = {job, ...counts, at, since};
      cache().put(key(), JSON.stringify(entry), TTL_SECONDS);
    },

    read() {
      const raw = cache().get(key());
      return raw ? (JSON.parse(raw) as JobProgress) : null;
    },

    end() {
      if (since === undefined) return;
      cache().remove(key());
      last = undefined;
      since = undefined;
    },

    alertsTicked(at) {
      cache().put(TICKED + key(), String(at), TICKED_SECONDS);
    },

    alertsTickedAt() {
      const raw = cache().get(TICKED + key());
      return raw === null ? null : Number(raw);
    },
  };
}
