/**
 * What the playground's page and its server say to each other: plain JSON over HTTP on
 * 127.0.0.1. Shared by the server (node) and the page's code (web/), so both sides agree.
 */

/** One cell as the spreadsheet shows it. Absent fields are Sheets' defaults. */
export interface CellView {
  /** What the cell shows: its value through its number format. */
  text: string;
  /**
   * What the formula bar shows when it differs from `text`: a formula, a number without its
   * format's padding, a date in the locale's form (formulaBarText of the runtime).
   */
  input?: string;
  background?: string;
  color?: string;
  bold?: boolean;
  align?: 'left' | 'center' | 'right';
  note?: string;
  /** The values of a dropdown (a list data validation). */
  choices?: string[];
  /** Why the value breaks the cell's data validation (Sheets' red mark and its tooltip). */
  invalid?: string;
  /**
   * The description of a warning-only protection over the cell: Sheets asks before an edit
   * ("Heads up!"); '' when it has no description.
   */
  warning?: string;
}

export interface SheetView {
  name: string;
  frozenRows: number;
  /** Rows and columns holding content; the view shows a few empty ones beyond them. */
  lastRow: number;
  lastColumn: number;
  maxRows: number;
  /** cells[r][c] is the cell of row r + 1, column c + 1. */
  cells: CellView[][];
  /** Pixel widths of the shown columns, as set on the sheet (Sheets' default is 100). */
  widths: number[];
  /** Rows past the view's limit, not shown. */
  rowsNotShown: number;
  /** The sheet's filter: its block and the columns with criteria; null without one. */
  filter: {
    row: number;
    column: number;
    numRows: number;
    numColumns: number;
    filtered: number[];
  } | null;
  /** Rows the filter hides (1-based), not drawn. */
  hiddenRows: number[];
}

export interface TriggerView {
  handler: string;
  /** Hours between runs; 0 for a one-off. */
  everyHours: number;
  /** Next run, virtual epoch ms. */
  nextRunMs: number;
}

export interface WorkbookView {
  /** Sheets not hidden, in tab order. */
  sheets: string[];
  active: string;
  /** The runtime's virtual clock, epoch ms. */
  nowMs: number;
  timeZone: string;
  triggers: TriggerView[];
  /** The range a script selected last (the add-on's "select this row"), if any. */
  selection: SelectionView | null;
}

export interface SelectionView {
  sheet: string;
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
  /** Grows with every selection a script makes: the page applies each once. */
  count: number;
}

export type MenuEntryView =
  | {kind: 'item'; caption: string}
  | {kind: 'separator'}
  | {kind: 'submenu'; caption: string; entries: MenuEntryView[]};

export interface MenuView {
  /** The menu's name: the add-on's, under Extensions. */
  name: string;
  entries: MenuEntryView[];
}

export interface ToastView {
  title: string;
  message: string;
  timeoutSeconds: number;
}

/** What a menu item did that the page shows once it returns. */
export interface MenuResult {
  toasts: ToastView[];
  /** The item opened the sidebar: the page reloads it. */
  sidebarShown: boolean;
  /** The function failed: Sheets shows its message in an error bar. */
  error: string | null;
}

/** An alert or a prompt the add-on is waiting on: the execution blocks until it is answered. */
export interface DialogQuestion {
  id: number;
  kind: 'alert' | 'prompt';
  title: string;
  prompt: string;
  /** The buttons, in the order Sheets shows them (OK, CANCEL, YES, NO). */
  buttons: string[];
}

export interface DialogAnswer {
  id: number;
  button: string;
  /** A prompt's text. */
  text: string;
}

/** Cheap to ask often: answered without waiting for a running execution. */
/** An HTML dialog the add-on showed (HtmlService.showModalDialog): the Clone dialog. */
export interface HtmlDialogView {
  title: string;
  html: string;
  width: number;
  height: number;
}

export interface StatusView {
  /** Grows after every action that may have changed the workbook. */
  revision: number;
  /** The menu item running now, if any. */
  running: string | null;
  dialog: DialogQuestion | null;
  /** The HTML dialog open (served at /dialog), its html left out; null when none. */
  htmlDialog: (Omit<HtmlDialogView, 'html'> & {shown: number}) | null;
  /** Grows whenever the sidebar was shown again (from the menu). */
  sidebarRevision: number;
}

export interface CellEdit {
  /** A1 notation of one cell. */
  a1: string;
  text: string;
}

export interface EditResult {
  /** Cells Sheets refused (data validation), with its message; the others were typed. */
  refused: {a1: string; message: string}[];
}

export interface DriveFileView {
  id: string;
  name: string;
  bytes: number;
  /** Shown as a thumbnail in the page. */
  image: boolean;
}

/** What the add-on answered the stand-in Picker (addPickedFiles). */
export interface PickResult {
  rows: number[];
  already: number;
  message: string;
}

export interface TriggerRun {
  handler: string;
  /** Virtual epoch ms it ran at. */
  atMs: number;
  /** What the execution failed with, if it failed. */
  error: string | null;
}

export interface TriggerRunResult {
  runs: TriggerRun[];
  /** Why nothing ran. */
  message: string | null;
}

/** The ad platform stopped an offer (the playground's way to an alert). */
export interface StopResult {
  /** The offer stopped; null when no offer was RUNNING. */
  offerId: number | null;
  message: string;
}

/** Data > Sort range: the range's rows by one of its columns (a sheet column number). */
export interface SortRequest {
  range: {row: number; column: number; numRows: number; numColumns: number};
  column: number;
  ascending: boolean;
}

/** A row inserted above or below `row`, or `row` deleted. */
export interface RowChange {
  op: 'insertAbove' | 'insertBelow' | 'delete';
  row: number;
}

/** Data > Filter by this value (a filter made on the data first if there is none), or Remove filter. */
export type FilterChange =
  {op: 'byValue'; row: number; column: number} | {op: 'remove'};
