/**
 * The small interfaces through which everything outside src/platform/ reaches Apps Script.
 * Jobs, the API client, rules and sheets depend on these shapes only, so tests can hand them
 * fakes and the local runtime can hand them the real adapters over its fake globals.
 */

/** A file to upload: Apps Script's Blob satisfies this structurally. */
export interface FileBlob {
  getName(): string | null;
  getContentType(): string | null;
  getBytes(): number[];
}

export type HttpMethod = 'get' | 'post' | 'put';

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** JSON text sent as application/json (POST and PUT). */
  json?: string;
  /** A file sent as multipart/form-data in the form field `file`. */
  file?: FileBlob;
}

export interface HttpResponse {
  status: number;
  /** Header names lowercase. */
  headers: Record<string, string>;
  text: string;
}

/**
 * HTTP with exceptions muted: every HTTP status comes back as a response; only a network
 * failure throws. `sendAll` runs its requests concurrently and answers in order; as with
 * UrlFetchApp.fetchAll, one network failure throws for the whole batch.
 */
export interface HttpTransport {
  send(request: HttpRequest): HttpResponse;
  sendAll(requests: HttpRequest[]): HttpResponse[];
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): void;
}

/** A string store: user or document properties. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
  keys(): string[];
  /** Every key with its value, in one call (getProperties). */
  all(): Record<string, string>;
}

/** A cache whose reads may miss at any time. */
export interface Cache {
  get(key: string): string | null;
  put(key: string, value: string, ttlSeconds: number): void;
  remove(key: string): void;
}

export interface Digest {
  /** md5 of the UTF-8 bytes of `text`, as lowercase hex. */
  md5Hex(text: string): string;
  /** md5 of `bytes` (a blob's getBytes()), as lowercase hex: a material's creative_md5. */
  md5OfBytes(bytes: number[]): string;
}

/** The spreadsheet's document lock, one job at a time. */
export interface DocumentLock {
  /** True when the lock is now held by this execution. */
  tryAcquire(timeoutMs: number): boolean;
  release(): void;
}

/** One item of a menu: its caption and the top-level function it calls. */
export interface MenuItem {
  caption: string;
  functionName: string;
}

export interface SubMenu {
  caption: string;
  items: readonly MenuItem[];
}

export type MenuEntry = MenuItem | SubMenu | 'separator';

/**
 * What the user sees besides the cells. Only for executions the user started: in a trigger
 * there is no one to show anything to, and Apps Script refuses every call here.
 */
export interface UserInterface {
  buildAddonMenu(entries: readonly MenuEntry[]): void;
  toast(title: string, message: string): void;
  alert(title: string, message: string): void;
  /**
   * Asks a Yes/No question and waits for the answer: true for Yes, false for No (or the
   * dialog closed); null where no one can answer (a trigger, an execution without a UI).
   */
  confirm(title: string, message: string): boolean | null;
  /** The text the user typed, or null when they cancelled. */
  prompt(title: string, message: string): string | null;
  /**
   * Opens an HTML file of dist/ as the sidebar; `openAt`: the id of the element it opens
   * scrolled to (its page reads it from a `<meta name="open-at">`).
   */
  showSidebar(file: string, title: string, openAt?: string): void;
  /** Opens an HTML file of dist/ as a modal dialog of that size in pixels. */
  showDialog(file: string, title: string, width: number, height: number): void;
  /** Selects the row in the sheet; false when there is no such sheet. */
  selectRow(sheet: string, row: number): boolean;
  /**
   * The sheet rows (1-based, data rows only) of the user's selection, where it is on the sheet
   * `sheet`: [] when another sheet is the active one.
   */
  selectedRows(sheet: string): number[];
}

/** When a time-driven trigger fires: every n hours, or once a day (at an hour, if given). */
export type TriggerTiming =
  {everyHours: number} | {everyDays: 1; atHour?: number};

/** The current user's installable triggers in the current spreadsheet. */
export interface Triggers {
  /** Ids of this user's triggers here that call `handler`. */
  find(handler: string): string[];
  remove(id: string): void;
  /** Installs a time-driven trigger; answers its id. */
  createTimeDriven(handler: string, timing: TriggerTiming): string;
}

/** Where a material file comes from: a Drive file, or an https URL. */
export type FileRef = {driveId: string} | {url: string};

/**
 * Why a material file cannot be uploaded: `missing`, `no-access`, `too-large` and
 * `wrong-type` are the user's to fix; `unreachable` (a network failure or a server error) may
 * pass on its own.
 */
export interface FileRefusal {
  ok: false;
  problem: 'missing' | 'no-access' | 'too-large' | 'wrong-type' | 'unreachable';
  reason: string;
}

/** Reading a material file. The file's own problems are answers, not exceptions. */
export type FileRead = {ok: true; blob: FileBlob} | FileRefusal;

/** A file to upload and the name to give it. */
export interface FileWanted {
  ref: FileRef;
  /**
   * The name to give the blob, the file's extension kept: an upload's creative_name defaults
   * to the file name (2.5), so this becomes the material's name.
   */
  name?: string;
}

/** What is known of a file before any of its bytes are read. */
export interface FileFacts extends FileWanted {
  /** The name it is uploaded under; null until a link is fetched. */
  fileName: string | null;
  contentType: string | null;
  /**
   * Its size in bytes, from Drive's metadata; null for an https link, whose size is known only
   * once fetched (UrlFetchApp has no HEAD request).
   */
  bytes: number | null;
}

export type FileCheck = ({ok: true} & FileFacts) | FileRefusal;

export interface FileReadOptions {
  /** A file larger than this is refused. */
  maxBytes: number;
}

/**
 * Material files, read in two steps so that no byte is read of a file that cannot be uploaded:
 * `inspect` asks what each file is (for a Drive file its metadata: name, type and size), then
 * `readAll` reads the ones the caller keeps. Each step sends its requests together.
 */
export interface FileSource {
  inspect(files: readonly FileWanted[], options: FileReadOptions): FileCheck[];
  /** Reads the files whole, in order. */
  readAll(files: readonly FileFacts[], options: FileReadOptions): FileRead[];
}

/** How far a running job has come, as the sidebar shows it. */
export interface JobProgress {
  job: string;
  done: number;
  total: number;
  /** When it was reported (ms since the epoch): tells one report from the next. */
  at: number;
  /** When this execution first reported (ms since the epoch); absent in older entries. */
  since?: number;
}

/**
 * Where a job says how far it has come and the sidebar reads it: the spreadsheet's document
 * cache, one entry per spreadsheet, so it reaches every editor's sidebar while the job is
 * still running.
 *
 * A job reports `report(entryPoint, 0, total)` once it knows how many rows it has, then
 * `report(entryPoint, done, total)` after each batch, and `done === total` at the end. The
 * sidebar shows "done of total rows" while `done < total`.
 */
export interface ProgressBoard {
  /** `done` of `total` rows; 0 done starts a run. Cheap to call often: writes are spaced out. */
  report(job: string, done: number, total: number): void;
  read(): JobProgress | null;
  /**
   * This execution's job ended, however: its entry goes, so no sidebar shows it as running.
   * An execution that reported nothing (a job that found the lock taken) leaves another's be.
   */
  end(): void;
  /**
   * A person ticked (or cleared) `seen` in Alerts at `at` (ms): every editor's open sidebar
   * counts the alerts not seen again. Written by onEdit, which may reach the document's
   * cache and nothing of the user's.
   */
  alertsTicked(at: number): void;
  /** When `seen` was last ticked, as far as the cache still knows; null: not lately. */
  alertsTickedAt(): number | null;
}

/** A cell as the Spreadsheet service reads and writes it; '' is an empty cell. */
export type CellValue = string | number | boolean | Date;

/** A block of cells to protect, and what its protection says. */
/** A block of cells: its top-left cell (1-based) and its size. */
export interface CellBlock {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/** A block a person edited (a typed cell, a paste), and its sheet's name. */
export interface EditedBlock extends CellBlock {
  sheet: string;
}

export interface ProtectedBlock extends CellBlock {
  description: string;
}

/**
 * One sheet of the spreadsheet. Rows and columns are 1-based, as in Apps Script. Each method
 * is one Spreadsheet service call (size getters are remembered), so callers read a sheet once,
 * work on arrays and write blocks.
 */
export interface SheetPort {
  name(): string;
  /**
   * Values of the used range from A1 (getDataRange); an empty sheet gives one empty cell.
   * `cellChars`: what each cell is known to hold at most, for a sheet of big cells that no
   * person edits (blocks.ts readInRuns): without it, a sheet within the cell bound is one call.
   */
  readValues(cellChars?: number): CellValue[][];
  /** Values of a block (getRange(...).getValues()). */
  readBlock(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): CellValue[][];
  /** The last row with content (getLastRow): 0 for an empty sheet. A round trip. */
  lastRow(): number;
  /** Formulas of a block, '' where a cell holds none. */
  readFormulas(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): string[][];
  /** Number formats of a block. */
  readNumberFormats(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): string[][];
  maxRows(): number;
  maxColumns(): number;
  /** Inserts rows and columns at the end until the sheet has at least this size. */
  ensureSize(rows: number, columns: number): void;
  /** One setValues with its top-left cell at (row, column), growing the sheet first if needed. */
  write(row: number, column: number, values: CellValue[][]): void;
  clearContent(
    row: number,
    column: number,
    rows: number,
    columns: number,
  ): void;
  /** Background colours ('#rrggbb', or null for none) of a block. */
  setBackgrounds(
    row: number,
    column: number,
    colors: Array<Array<string | null>>,
  ): void;
  /**
   * One background colour ('#rrggbb', or null for none) on many blocks at once
   * (Sheet.getRangeList): scattered rows are coloured for a value per block, not per cell.
   */
  setBackgroundOf(blocks: readonly CellBlock[], color: string | null): void;
  setNotes(row: number, column: number, notes: string[][]): void;
  setNumberFormat(
    row: number,
    column: number,
    rows: number,
    columns: number,
    format: string,
  ): void;
  setBold(row: number, column: number, rows: number, columns: number): void;
  /** Text longer than its cell is cut at the cell's edge instead of spilling over. */
  clipText(row: number, column: number, rows: number, columns: number): void;
  /** `count` columns from `column` made `width` pixels wide. */
  setColumnWidths(column: number, count: number, width: number): void;
  /** A column's width in pixels (a round trip). */
  columnWidth(column: number): number;
  /** A dropdown of `values`; other input is accepted with a warning mark. */
  setDropdown(
    row: number,
    column: number,
    rows: number,
    columns: number,
    values: readonly string[],
  ): void;
  /**
   * Editing any of the blocks asks the user to confirm first; nobody is locked out. Making a
   * protection waits for the document (write caching sends the queued writes first), its
   * settings do not: all are made first, so the settings travel with the writes after them.
   * The sheet is grown to hold every block.
   */
  protectWarningOnly(blocks: readonly ProtectedBlock[]): void;
  /**
   * The whole sheet warns before any edit, rows added later included (a sheet protection,
   * unlike a range's, covers the sheet as it grows); nobody is locked out.
   */
  protectSheetWarningOnly(description: string): void;
  /**
   * The sheet protection warns about no cell of these columns below row 1, down to the
   * sheet's last row (its unprotected ranges: a range keeps its cells, so after the sheet
   * grows this is said again). No sheet protection: nothing.
   */
  exceptFromProtection(columns: readonly number[]): void;
  /**
   * Deletes `count` rows from `row`: the rows below move up, and Sheets adjusts every formula
   * that pointed below (one that pointed into them reads #REF!).
   */
  deleteRows(row: number, count: number): void;
  /** Inserts `count` empty rows below row `row`: formulas pointing below are adjusted. */
  insertRowsAfter(row: number, count: number): void;
  freezeRows(rows: number): void;
  hide(): void;
  /**
   * Sheets' basic filter on one column: the data rows whose cell there shows one of `hidden`
   * are hidden (the filter is made over the used range when the sheet has none); null clears
   * that column's criteria. Hidden rows are still read and written as any other.
   */
  filterColumn(column: number, hidden: readonly string[] | null): void;
  /** The values the basic filter hides in one column ([] without a filter or criteria). */
  filteredOut(column: number): string[];
}

/** The spreadsheet the add-on runs in. */
export interface Workbook {
  /** The sheet of that name, or null. */
  sheet(name: string): SheetPort | null;
  /**
   * A new sheet of that name, after the existing ones. Sheets makes a new sheet the one the
   * user sees; `background` keeps the user on the sheet they were on (a log the job appends to
   * is not what they came to look at).
   */
  insertSheet(name: string, options?: {background?: boolean}): SheetPort;
  /**
   * When this handle inserted a sheet that Sheets then showed, shows the sheet `name` instead
   * (a job that made several sheets shows the one a user starts in, not the last it made);
   * otherwise leaves the user where they are.
   */
  showInstead(name: string): void;
  /** The spreadsheet's time zone (an IANA name). */
  timeZone(): string;
  /** The spreadsheet's file name, as Drive shows it. */
  name(): string;
  /** The spreadsheet's address, to open it from an email. */
  url(): string;
  /** Offset of the spreadsheet's time zone from UTC at that instant, in minutes, east positive. */
  utcOffsetMinutes(atMs: number): number;
  /**
   * Sends the writes made so far (SpreadsheetApp.flush): Apps Script queues them until its
   * next round trip, and drops them when it kills the execution.
   */
  flush(): void;
}

/** Who runs this execution, as far as Apps Script tells. */
export interface Identity {
  /**
   * The user's email, or '' where Apps Script does not give it: another Workspace domain
   * than the add-on's, or a consumer account in some trigger runs (docs/limits.md).
   */
  email(): string;
  /**
   * The user's OAuth token for the manifest's scopes (ScriptApp.getOAuthToken), for the Google
   * Picker in the user's own browser. A credential: never logged, never stored.
   */
  oauthToken(): string;
}

/**
 * Whether the user must authorize the add-on again (ScriptApp.getAuthorizationInfo(FULL)).
 * Google keeps firing an add-on's triggers after that, without asking anyone and without an
 * error email; only the services the add-on lacks permission for throw.
 */
export interface Authorization {
  /** True when Google asks the user to authorize the add-on before it may do all it needs. */
  required(): boolean;
  /** The page where the user grants it; null when nothing is required. */
  url(): string | null;
}

/** Email to the user running this execution (MailApp). */
export interface Mailer {
  /** Emails this user may still send today (100 a day on a consumer account). */
  remainingDailyQuota(): number;
  /** Sends a plain-text email. */
  send(to: string, subject: string, body: string): void;
}

/** Everything the jobs reach Apps Script through. */
export interface Platform {
  http: HttpTransport;
  digest: Digest;
  clock: Clock;
  random(): number;
  userProperties: KeyValueStore;
  /** The active spreadsheet's id; throws where Apps Script gives the execution none. */
  documentId(): string;
  /**
   * The active spreadsheet's id, or null where Apps Script gives the execution none: a
   * time-driven trigger may run without one (or, lacking authorization, be refused it).
   */
  activeDocumentId(): string | null;
  /** The document lock; null outside a document's context (LockService.getDocumentLock). */
  documentLock(): DocumentLock | null;
  /** Shared by every editor of the spreadsheet (the document cache). */
  progress: ProgressBoard;
  /** The current user's own cache (CacheService.getUserCache): cheap reads that may miss. */
  userCache: Cache;
  ui: UserInterface;
  triggers: Triggers;
  /** Material files to upload: Drive files and https URLs. */
  files: FileSource;
  identity: Identity;
  authorization: Authorization;
  mail: Mailer;
  /** The active spreadsheet; each call gives a fresh handle for one job. */
  workbook(): Workbook;
}
