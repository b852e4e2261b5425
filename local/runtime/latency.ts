/**
 * The price list of simulated Apps Script time (DESIGN.md section 6). Apps Script's cost is round
 * trips, so every service call advances the virtual clock by a fixed price; numbers are rough
 * medians of what consumer-account scripts observe, meant to rank designs, not to predict seconds.
 */
export interface LatencyModel {
  /** Floor for one HTTP exchange (network plus server). A transport reporting more wins. */
  httpRoundTripMs: number;
  /** UrlFetchApp's own work per request (also paid for each request inside a fetchAll batch). */
  urlFetchPerRequestMs: number;
  /**
   * One round trip to the document: a Spreadsheet call that needs its answer, or the sending
   * of the queued writes (spreadsheet/write-cache.ts). Range geometry getters are free.
   */
  spreadsheetCallMs: number;
  /** The script's own work for a write the service queues (write caching). */
  spreadsheetQueuedCallMs: number;
  /**
   * Added per cell value a Spreadsheet call carries: every cell of a read or of an array
   * written (setValues, setNumberFormats, setNotes...); a value set on a whole range
   * (setNumberFormat, setValue, setDataValidation, a clear) carries one.
   */
  spreadsheetPerCellMs: number;
  propertiesCallMs: number;
  cacheCallMs: number;
  lockCallMs: number;
  /** Trigger management and authorization lookups. */
  scriptAppCallMs: number;
  driveCallMs: number;
  /** Menus, alerts, sidebars and toasts (each is a round trip to the editor). */
  uiCallMs: number;
  /** Utilities, Session, HtmlService: local work. */
  otherCallMs: number;
}

export const DEFAULT_LATENCY: Readonly<LatencyModel> = Object.freeze({
  httpRoundTripMs: 250,
  urlFetchPerRequestMs: 5,
  spreadsheetCallMs: 40,
  spreadsheetQueuedCallMs: 2,
  spreadsheetPerCellMs: 0.01,
  propertiesCallMs: 15,
  cacheCallMs: 10,
  lockCallMs: 10,
  scriptAppCallMs: 50,
  driveCallMs: 100,
  uiCallMs: 50,
  otherCallMs: 1,
});
