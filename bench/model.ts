/**
 * The lower bound of a scenario, priced with the runtime's own latency model (DESIGN.md
 * section 6): the fewest round trips any correct add-on needs for the same work.
 *
 * - HTTP: requests that do not depend on each other's answers form a phase; phases follow one
 *   another (a create needs its uploads' md5s, the other pages of a list need page 1's
 *   `total`). A phase of k requests takes ceil(k / BOUND_BATCH_SIZE) fetchAll batches; a batch
 *   costs one round trip (its slowest exchange) plus UrlFetchApp's own work per request.
 * - Sheets: each sheet the job handles costs one read (of the cells it held before) and, when
 *   any cell of it changed, one write of just the changed cells. Reads are round trips; the
 *   writes are queued (write caching) and sent together in one round trip at the end. A sheet
 *   that held rows and is written also costs one read of its id column just before the write
 *   (issue 19: the one writer puts each write on the row that holds its record then, since
 *   people sort and insert rows while a job runs).
 *   Looking sheets and ranges up, formats, notes, colours and the add-on's hidden state sheet
 *   are not part of the bound: they are overhead the ratio shows.
 * - Every account (`'*'`): one phase for the sub-account keys (the nameless listing), then
 *   each account's lists as listings of their own, paged together (everyAccountPhases).
 * - Drive: a material file is two Drive REST requests over UrlFetchApp, its metadata then its
 *   bytes: two HTTP phases before the uploads (scenarios.ts `drivePhases`).
 * - Locks, properties, caches and request signing are left out (overhead again).
 */
import {DEFAULT_LATENCY, type LatencyModel} from '../local/runtime';

/**
 * Requests per fetchAll batch the bound allows. Apps Script documents no cap; 100 is the
 * largest batch the add-on itself sends (DEFAULT_BATCH_SIZE of src/api/client.ts), so the
 * ratio measures everything but that choice.
 */
export const BOUND_BATCH_SIZE = 100;

/** Requests that may share batches: none needs another's answer. */
export interface Phase {
  what: string;
  requests: number;
}

/** A paged list of the API: page 1 tells `total`, the other pages follow. */
export interface Listing {
  what: string;
  records: number;
  pageSize: number;
}

/** A sheet the job reads and may write, as the bench saw it before and after the run. */
export interface SheetTouch {
  sheet: string;
  /** Cells of its used range before the run (0 when it did not exist). */
  cellsBefore: number;
  /** Its data rows before the run (below the header). */
  rowsBefore: number;
  /** Cells whose contents changed (0: the sheet needs no write). */
  changedCells: number;
}

export interface Needs {
  /** In order: each phase needs the answers of the one before. */
  phases: Phase[];
  sheets: SheetTouch[];
}

export interface Bound {
  requests: number;
  batches: number;
  /** Reads and writes. */
  sheetCalls: number;
  /** The reads, and the sending of the writes. */
  sheetRoundTrips: number;
  cells: number;
  httpMs: number;
  sheetsMs: number;
  ms: number;
}

/** Pages of a listing: page 1 is asked even when the list is empty. */
export function pagesOf(listing: Listing): number {
  return Math.max(1, Math.ceil(listing.records / listing.pageSize));
}

/** Several listings at once: all first pages in one phase, then all other pages in one. */
export function listingPhases(listings: readonly Listing[]): Phase[] {
  const rest = listings.reduce((n, l) => n + pagesOf(l) - 1, 0);
  const phases: Phase[] = [
    {
      what: `page 1 of ${[...new Set(listings.map(l => l.what))].join(', ')}`,
      requests: listings.length,
    },
  ];
  if (rest > 0) phases.push({what: 'the other pages', requests: rest});
  return phases;
}

/**
 * Acting as every account: the sub-account keys first (one listing signed by the main
 * account, whose answer names the accounts), then every account's lists together, each
 * account's list a listing of its own (ceil(N / page size) requests), all first pages in one
 * phase and all other pages in the next.
 */
export function everyAccountPhases(
  keys: Listing,
  perAccount: ReadonlyArray<readonly Listing[]>,
): Phase[] {
  return [...listingPhases([keys]), ...listingPhases(perAccount.flat())];
}

export function lowerBound(
  needs: Needs,
  latency: LatencyModel = DEFAULT_LATENCY,
  batchSize = BOUND_BATCH_SIZE,
): Bound {
  const active = needs.phases.filter(p => p.requests > 0);
  const requests = active.reduce((n, p) => n + p.requests, 0);
  const batches = active.reduce(
    (n, p) => n + Math.ceil(p.requests / batchSize),
    0,
  );
  const httpMs =
    batches * latency.httpRoundTripMs + requests * latency.urlFetchPerRequestMs;
  const idReads = needs.sheets.filter(
    s => s.changedCells > 0 && s.rowsBefore > 0,
  );
  const reads = needs.sheets.length + idReads.length;
  const writes = needs.sheets.filter(s => s.changedCells > 0).length;
  const sheetCalls = reads + writes;
  const sheetRoundTrips = reads + (writes > 0 ? 1 : 0);
  const cells = needs.sheets.reduce(
    (n, s) => n + s.cellsBefore + s.changedCells,
    idReads.reduce((n, s) => n + s.rowsBefore, 0),
  );
  const sheetsMs =
    sheetRoundTrips * latency.spreadsheetCallMs +
    writes * latency.spreadsheetQueuedCallMs +
    cells * latency.spreadsheetPerCellMs;
  return {
    requests,
    batches,
    sheetCalls,
    sheetRoundTrips,
    cells,
    httpMs,
    sheetsMs,
    ms: httpMs + sheetsMs,
  };
}

/** The latency model and the bound's rules, as the report states them. */
export function describeModel(
  latency: LatencyModel = DEFAULT_LATENCY,
  batchSize = BOUND_BATCH_SIZE,
): string[] {
  const ms = (n: number) => `${n} ms`;
  return [
    `HTTP: a round trip costs ${ms(latency.httpRoundTripMs)} (or the server's latency if higher); UrlFetchApp adds ${ms(latency.urlFetchPerRequestMs)} per request; a fetchAll batch costs its slowest request plus ${ms(latency.urlFetchPerRequestMs)} per request in it.`,
    `Spreadsheet: ${ms(latency.spreadsheetCallMs)} per round trip (a call that needs the document's answer) plus ${ms(latency.spreadsheetPerCellMs)} per cell read or written (values, formats, notes and colours alike). Writes are queued (write caching): ${ms(latency.spreadsheetQueuedCallMs)} each plus their cells, and the queue costs one round trip when the next read, a flush or the end of the execution sends it. A Range (getRange) is coordinates: ${ms(latency.otherCallMs)}.`,
    `Other services per call: DriveApp ${ms(latency.driveCallMs)}, ScriptApp ${ms(latency.scriptAppCallMs)}, Ui ${ms(latency.uiCallMs)}, Properties ${ms(latency.propertiesCallMs)}, Cache ${ms(latency.cacheCallMs)}, Lock ${ms(latency.lockCallMs)}, Utilities/Session/HtmlService ${ms(latency.otherCallMs)}.`,
    `Lower bound: HTTP phases (independent requests) in fetchAll batches of at most ${batchSize}, each batch one round trip plus the per-request cost; a paged list needs page 1 before the others (several lists share both phases); acting as every account, the sub-account keys are one phase before the lists, and each account's list is a listing of its own; one read per sheet (the cells it held) plus, if anything changed, one write of the changed cells, the writes sent in one round trip, and one read of the id column of a sheet that held rows and is written (the one writer); a material file's Drive metadata and bytes are two phases of requests before its upload. Formats, look-ups, locks, properties and signing are overhead, not bound.`,
  ];
}
