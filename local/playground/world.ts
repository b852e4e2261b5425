/**
 * The playground's world, run by the sidebar host in its worker thread: the built add-on in the
 * local Apps Script runtime against the in-process emulator with demo data (the demo world),
 * plus what a person does in the spreadsheet around the sidebar: look at the sheets, type into
 * cells, click the add-on's menu, answer its dialogs, and let the scheduled trigger run.
 *
 * Every export but `setup` is called by the server through the host's `invoke`.
 */
import {DEMO_ACCOUNTS, EmulatorOptions} from '../emulator';
import type {WireFetch} from '../http-types';
import {typeIntoCell} from '../runtime';
import type {FakeSheet, MenuEntry, Runtime} from '../runtime';
import {Rect, a1Of} from '../runtime/spreadsheet/a1';
import {displayValue, formulaBarText} from '../runtime/spreadsheet/display';
import {formulaResult} from '../runtime/spreadsheet/formula';
import type {Cell} from '../runtime/spreadsheet/sheet';
import {Prng} from '../emulator/prng';
import {demoWorld, HostHooks, World} from '../sidebar-host/world';
import {DialogAsker} from './dialogs';
import type {
  CellEdit,
  CellView,
  DialogQuestion,
  EditResult,
  FilterChange,
  HtmlDialogView,
  MenuEntryView,
  MenuResult,
  MenuView,
  RowChange,
  SelectionView,
  SheetView,
  SortRequest,
  StopResult,
  TriggerRunResult,
  WorkbookView,
} from './protocol';

/** Shared with the sidebar host's demo world. */
export {updateOffer} from '../sidebar-host/world';

export interface PlaygroundWorldOptions {
  emulator?: Omit<EmulatorOptions, 'now'>;
  /** The API's address: requests to any other host fail as an unknown host does. */
  baseUrl: string;
  /** Drive file id -> local path. */
  driveFiles: Record<string, string>;
  /** Shared memory of the dialogs (see dialogs.ts). */
  dialogs: SharedArrayBuffer;
}

export interface PlaygroundWorld extends World {
  /** The runtime's Drive reads this map: files added later are found too. */
  driveFiles: Record<string, string>;
}

/** Empty rows and columns shown past the content, to type new rows into. */
const SPARE_ROWS = 20;
const SPARE_COLUMNS = 3;
/** Rows a view holds at most (a grid of that size stays quick in a browser). */
const MAX_VIEW_ROWS = 3000;
/**
 * The add-on's Math.random: seeded, so that the same walk through the playground draws the
 * same change ids (the screenshots in docs/images stay as they are when nothing changed).
 */
const RANDOM_SEED = 1;

export function setup(
  options: PlaygroundWorldOptions,
  hooks: HostHooks,
): PlaygroundWorld {
  const driveFiles = {...options.driveFiles};
  const random = new Prng(RANDOM_SEED);
  const world = demoWorld({
    emulator: options.emulator,
    runtime: {drive: {files: driveFiles}, random: () => random.next()},
  });
  answerDialogsInThePage(
    world.runtime,
    new DialogAsker(options.dialogs, hooks.serveBeside),
  );
  world.runtime.open('LIMITED');
  return {...world, wire: onlyHost(options.baseUrl, world.wire), driveFiles};
}

/** A host other than the API's is unknown: UrlFetchApp says "Address unavailable". */
function onlyHost(baseUrl: string, wire: WireFetch): WireFetch {
  const origin = new URL(baseUrl).origin;
  return request => {
    let target: string;
    try {
      target = new URL(request.url).origin;
    } catch {
      target = '';
    }
    return target === origin
      ? wire(request)
      : {kind: 'dropped', applied: false, latencyMs: 0};
  };
}

type AlertAnswer = Parameters<Runtime['ui']['answerNextAlert']>[0];

/**
 * Ui.alert and Ui.prompt block until a person answers in the page; the answer is then queued
 * for the runtime's own dialog, so everything else about it (its checks, its record in
 * `ui.events`) stays the runtime's.
 */
function answerDialogsInThePage(runtime: Runtime, asker: DialogAsker): void {
  const ui = runtime.globals.SpreadsheetApp.getUi();
  const sets = Object.values(ui.ButtonSet) as unknown[];
  /** (prompt), (prompt, buttons) or (title, prompt, buttons); null if Ui will refuse them. */
  const question = (
    kind: DialogQuestion['kind'],
    args: unknown[],
  ): Omit<DialogQuestion, 'id'> | null => {
    const [title, prompt, buttons] =
      args.length === 3
        ? args
        : args.length === 2
          ? ['', args[0], args[1]]
          : ['', args[0], ui.ButtonSet.OK];
    if (args.length < 1 || args.length > 3 || !sets.includes(buttons))
      return null;
    return {
      kind,
      title: String(title),
      prompt: String(prompt),
      buttons: String(buttons).split('_'),
    };
  };
  const alert = ui.alert.bind(ui);
  ui.alert = (...args: unknown[]) => {
    const q = question('alert', args);
    if (q) runtime.ui.answerNextAlert(asker.ask(q).button as AlertAnswer);
    return alert(...args);
  };
  const prompt = ui.prompt.bind(ui);
  ui.prompt = (...args: unknown[]) => {
    const q = question('prompt', args);
    if (q) {
      const answer = asker.ask(q);
      runtime.ui.answerNextPrompt(answer.text, answer.button as AlertAnswer);
    }
    return prompt(...args);
  };
}

function messageOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'message' in e
    ? String(e.message)
    : String(e);
}

function sheetNamed(world: World, name: string): FakeSheet {
  const sheet = world.runtime.spreadsheet.sheet(name);
  if (!sheet) throw new Error(`There is no sheet named "${name}".`);
  return sheet;
}

/**
 * The sheets shown as tabs. Sheets never shows a hidden sheet: when the active one was hidden
 * (the add-on inserts its state sheet, which activates it, then hides it), the tab before it
 * becomes the active one. Looking takes none of the document's time.
 */
export function workbook(world: World): WorkbookView {
  return world.runtime.clock.aside(() => workbookNow(world));
}

function workbookNow(world: World): WorkbookView {
  const {runtime} = world;
  const spreadsheet = runtime.spreadsheet;
  const all = spreadsheet.getSheets();
  const visible = all.filter(s => !s.isHidden());
  const active = spreadsheet.activeSheet();
  if (active.isHidden() && visible.length > 0) {
    const before = all.slice(0, all.indexOf(active)).filter(s => !s.isHidden());
    spreadsheet.activate(before.pop() ?? visible[0]);
  }
  return {
    sheets: visible.map(s => s.title()),
    active: spreadsheet.activeSheet().title(),
    nowMs: runtime.clock.now(),
    timeZone: spreadsheet.timeZone,
    triggers: runtime.triggers.records
      .filter(t => t.eventType === 'CLOCK')
      .map(t => ({
        handler: t.handler,
        everyHours: t.everyMs / 3600000,
        nextRunMs: t.nextRunMs,
      })),
    selection: selectionView(spreadsheet),
  };
}

function selectionView(
  spreadsheet: Runtime['spreadsheet'],
): SelectionView | null {
  const selected = spreadsheet.selection();
  if (
    !selected ||
    selected.byPerson ||
    spreadsheet.sheet(selected.sheet.title()) !== selected.sheet
  )
    return null;
  return {
    sheet: selected.sheet.title(),
    ...selected.rect,
    count: selected.count,
  };
}

/** Sheets' alignment of a value no one aligned: numbers and dates right, booleans centred. */
function defaultAlign(s: FakeSheet, cell: Cell): CellView['align'] {
  const content = cell.content;
  const value =
    content?.kind === 'formula' ? formulaResult(content.formula, s) : content;
  if (value?.kind === 'number') return 'right';
  if (value?.kind === 'boolean') return 'center';
  return undefined;
}

function cellView(
  s: FakeSheet,
  row: number,
  column: number,
  cell: Cell | undefined,
): CellView {
  const content = cell?.content;
  const view: CellView = {text: displayValue(content, cell?.format, s)};
  const input = formulaBarText(content, cell?.format);
  if (input !== view.text) view.input = input;
  const warning = s.protectionWarningAt(row, column);
  if (warning !== undefined) view.warning = warning;
  if (!cell) return view;
  const invalid = cell.validation?.broken(content, cell.format);
  if (invalid !== undefined) view.invalid = invalid;
  if (cell.background) view.background = cell.background;
  if (cell.fontColor) view.color = cell.fontColor;
  if (cell.fontWeight === 'bold') view.bold = true;
  if (cell.note) view.note = cell.note;
  const align = cell.horizontalAlignment?.toLowerCase();
  if (align === 'left' || align === 'center' || align === 'right')
    view.align = align;
  else {
    const shown = defaultAlign(s, cell);
    if (shown) view.align = shown;
  }
  const rule = cell.validation?.rule;
  if (rule?.criteria === 'VALUE_IN_LIST' && Array.isArray(rule.args[0]))
    view.choices = (rule.args[0] as unknown[]).map(String);
  return view;
}

/** A sheet as the page shows it: looking takes none of the document's time. */
export function sheet(world: World, name: string): SheetView {
  return world.runtime.clock.aside(() => sheetNow(world, name));
}

function sheetNow(world: World, name: string): SheetView {
  const s = sheetNamed(world, name);
  const {maxRows, maxColumns} = s.size();
  const lastRow = s.lastRow();
  const lastColumn = s.lastColumn();
  const frozenRows = s.getFrozenRows();
  const wanted = Math.min(maxRows, Math.max(lastRow, frozenRows) + SPARE_ROWS);
  const rows = Math.min(wanted, MAX_VIEW_ROWS);
  const columns = Math.min(maxColumns, Math.max(lastColumn + SPARE_COLUMNS, 8));
  const cells: CellView[][] = [];
  for (let r = 1; r <= rows; r++) {
    const row: CellView[] = [];
    for (let c = 1; c <= columns; c++)
      row.push(cellView(s, r, c, s.cellAt(r, c)));
    cells.push(row);
  }
  const widths: number[] = [];
  for (let c = 1; c <= columns; c++) widths.push(s.getColumnWidth(c));
  return {
    name: s.title(),
    frozenRows,
    lastRow,
    lastColumn,
    maxRows,
    cells,
    widths,
    rowsNotShown: wanted - rows,
    filter: filterView(s),
    hiddenRows: s.rowsHiddenByFilter().filter(r => r <= rows),
  };
}

/**
 * Types into cells as a person does (parsed unless the cell is plain text). A cell whose data
 * validation refuses the input keeps its value and is reported; the others are typed.
 */
export function typeCells(
  world: World,
  sheetName: string,
  edits: CellEdit[],
): EditResult {
  const s = sheetNamed(world, sheetName);
  const refused: EditResult['refused'] = [];
  const typed: Rect[] = [];
  for (const {a1, text} of edits) {
    try {
      typeIntoCell(s, a1, text);
      typed.push(s.getRange(a1).rectangle());
    } catch (e) {
      refused.push({a1, message: messageOf(e)});
    }
  }
  edited(world, s.title(), typed);
  return {refused};
}

/**
 * One onEdit(e) for one act, as Sheets fires it: a paste of many cells is one event whose
 * range spans them. Sheets shows nothing when a simple trigger fails, nor does the page.
 */
function edited(world: World, sheetName: string, typed: readonly Rect[]) {
  if (typed.length === 0) return;
  const top = Math.min(...typed.map(r => r.row));
  const left = Math.min(...typed.map(r => r.column));
  const bottom = Math.max(...typed.map(r => r.row + r.numRows - 1));
  const right = Math.max(...typed.map(r => r.column + r.numColumns - 1));
  const a1 = a1Of({
    row: top,
    column: left,
    numRows: bottom - top + 1,
    numColumns: right - left + 1,
  });
  try {
    world.runtime.edited(sheetName, a1);
  } catch {
    // The execution records its error (Runtime.executions), as Apps Script's log does.
  }
}

/**
 * Data > Sort range: the rows of `range` reordered by one of its columns, through Range.sort
 * as a person's sort in Sheets does (the add-on finds its rows by id afterwards).
 */
export function sortRange(
  world: World,
  sheetName: string,
  sort: SortRequest,
): void {
  const {range, column, ascending} = sort;
  sheetNamed(world, sheetName)
    .getRange(range.row, range.column, range.numRows, range.numColumns)
    .sort({column, ascending});
}

function filterView(s: FakeSheet): SheetView['filter'] {
  const filter = s.filterNow();
  return filter
    ? {...filter.block(), filtered: filter.filteredColumns()}
    : null;
}

/**
 * Data > Filter by this value: the rows whose cell in that column shows another value are
 * hidden, through the calls a script makes (Range.createFilter over the data when the sheet
 * has no filter, then setColumnFilterCriteria with the other shown values hidden); Remove
 * filter: Filter.remove.
 */
export function filterRows(
  world: World,
  sheetName: string,
  change: FilterChange,
): void {
  const s = sheetNamed(world, sheetName);
  if (change.op === 'remove') {
    s.getFilter()?.remove();
    return;
  }
  const filter =
    s.getFilter() ??
    s.getRange(1, 1, s.lastRow(), s.lastColumn()).createFilter();
  const block = filter.block();
  if (change.row <= block.row || change.row >= block.row + block.numRows)
    throw new Error(
      'Select a cell of the data below the header: the filter shows the rows with its value.',
    );
  const shown = s
    .getRange(block.row + 1, change.column, block.numRows - 1, 1)
    .getDisplayValues()
    .map(([v]) => String(v));
  const keep = s.getRange(change.row, change.column).getDisplayValue();
  const criteria = world.runtime.globals.SpreadsheetApp.newFilterCriteria()
    .setHiddenValues([...new Set(shown.filter(v => v !== keep))])
    .build();
  filter.setColumnFilterCriteria(change.column, criteria);
}

/** Insert > Row above or below, Edit > Delete row: Sheet.insertRowBefore/After, deleteRow. */
export function changeRows(
  world: World,
  sheetName: string,
  change: RowChange,
): void {
  const s = sheetNamed(world, sheetName);
  if (change.op === 'insertAbove') s.insertRowBefore(change.row);
  else if (change.op === 'insertBelow') s.insertRowAfter(change.row);
  else s.deleteRow(change.row);
}

/** The person selects a range of the sheet (the grid's selection): the add-on's active range. */
export function selectRange(
  world: World,
  sheetName: string,
  range: {row: number; column: number; numRows: number; numColumns: number},
): void {
  world.runtime.spreadsheet.selectByPerson(sheetNamed(world, sheetName), range);
}

/** The person picks a tab: it becomes the active sheet, as getActiveSheet sees it. */
export function activate(world: World, sheetName: string): void {
  world.runtime.spreadsheet.activate(sheetNamed(world, sheetName));
}

function entryView(entry: MenuEntry): MenuEntryView {
  switch (entry.kind) {
    case 'item':
      return {kind: 'item', caption: entry.caption};
    case 'separator':
      return {kind: 'separator'};
    case 'submenu':
      return {
        kind: 'submenu',
        caption: entry.menu.name,
        entries: entry.menu.entries.map(entryView),
      };
  }
}

/** The add-on menus onOpen built (shown under Extensions). */
export function menus(world: World): MenuView[] {
  return world.runtime.ui.menus
    .filter(m => m.addon)
    .map(m => ({name: m.name, entries: m.entries.map(entryView)}));
}

/** Clicks a menu item; its dialogs were answered in the page while it ran. */
/** How many HTML dialogs the add-on has shown, and the last one (HtmlService.showModalDialog). */
export function htmlDialogs(world: World): {
  count: number;
  last: HtmlDialogView | null;
} {
  const shown = world.runtime.ui.events.flatMap(e =>
    e.kind === 'dialog'
      ? [
          {
            title: e.title,
            html: e.html,
            width: e.width ?? 600,
            height: e.height ?? 400,
          },
        ]
      : [],
  );
  return {count: shown.length, last: shown.at(-1) ?? null};
}

export function clickMenu(
  world: World,
  caption: string,
): MenuResult & {sidebarHtml: string | null} {
  const {ui} = world.runtime;
  const before = ui.events.length;
  let error: string | null = null;
  try {
    world.runtime.clickMenu(caption);
  } catch (e) {
    error = messageOf(e);
  }
  const events = ui.events.slice(before);
  const sidebar = events.filter(e => e.kind === 'sidebar').pop();
  return {
    toasts: events.flatMap(e =>
      e.kind === 'toast'
        ? [
            {
              title: e.title,
              message: e.message,
              timeoutSeconds: e.timeoutSeconds,
            },
          ]
        : [],
    ),
    sidebarShown: sidebar !== undefined,
    sidebarHtml: sidebar?.html ?? null,
    error,
  };
}

/**
 * Lets virtual time pass to the next run of the installed time-driven triggers and runs them,
 * as Google would at that time (as their owner, with no one looking).
 */
export function runScheduledTriggers(world: World): TriggerRunResult {
  const {runtime} = world;
  const clock = runtime.triggers.records.filter(t => t.eventType === 'CLOCK');
  if (clock.length === 0) {
    return {
      runs: [],
      message:
        'No scheduled trigger is installed: choose a scheduled refresh in the sidebar first.',
    };
  }
  const next = Math.min(...clock.map(t => t.nextRunMs));
  const runs = runtime.runDueTriggers(Math.max(next, runtime.clock.now()));
  return {
    runs: runs.map(e => ({
      handler: e.functionName,
      atMs: e.startMs,
      error: e.error ?? null,
    })),
    message: null,
  };
}

/** What the ad platform says when it stops an offer on its own (API 2.3's example). */
const STOP_REASON = 'insufficient balance';

/**
 * The ad platform stops the main account's first RUNNING offer, as it does when the balance
 * runs out: the next refresh of offers compares it with the last and writes an Alerts row.
 * The playground's one-click way to an alert (the schedule's own alerts take hours).
 */
/**
 * The creative ad ids of an offer, as the ad platform's own pages list them: what a person
 * copies into List creative ads (the API lists creative ads only by id, 4.8).
 */
export function creativeAdIds(world: World, offerId: number): number[] {
  return world
    .emulator!.store.accounts()
    .flatMap(account => [...account.creativeAds.values()])
    .filter(ad => ad.offer_id === offerId)
    .map(ad => ad.ad_id);
}

export function stopAnOffer(world: World): StopResult {
  const emulator = world.emulator!;
  const running = [...emulator.account(DEMO_ACCOUNTS.main.name).offers.values()]
    .filter(o => o.status === 'RUNNING')
    .sort((a, b) => a.offer_id - b.offer_id);
  const offer = running[0];
  if (!offer)
    return {
      offerId: null,
      message:
        'No offer of the main account is RUNNING: there is none to stop.',
    };
  emulator.updateOffer(offer.offer_id, {
    status: 'STOPPED',
    offer_stop_reason: STOP_REASON,
  });
  return {
    offerId: offer.offer_id,
    message: `The server stopped offer ${offer.offer_id} (${offer.offer_name}): ${STOP_REASON}. Refresh offers and budgets (as the main account) to see it in the Alerts sheet.`,
  };
}

export function addDriveFile(
  world: PlaygroundWorld,
  id: string,
  path: string,
): void {
  world.driveFiles[id] = path;
}

/**
 * The stand-in Google Picker: the current user picks `files` (the add-on may now read them
 * under drive.file), then the add-on gets them as the Picker dialog's callback hands them over.
 */
export function pickDriveFiles(
  world: PlaygroundWorld,
  files: Array<{id: string; name: string}>,
): unknown {
  world.runtime.drive.pick(
    world.runtime.user,
    files.map(f => f.id),
  );
  return world.runtime.call('addPickedFiles', files);
}

/** The requests the API received, oldest first: what the add-on sent (for tests). */
export function apiRequests(world: World) {
  return (world.emulator?.requests ?? []).map(r => ({
    method: r.method,
    path: r.path,
    account: r.account,
    body: r.body,
  }));
}
