/**
 * The playground page: a spreadsheet (tabs, grid, formula bar) with the add-on's menu, its
 * real built sidebar beside the grid, its toasts and dialogs, a Drive to hold material files
 * and a button that runs the scheduled trigger. Everything is done by the built add-on in the
 * server's runtime; the page shows the result, asking the server what changed a few times a
 * second.
 */
import type {
  CellEdit,
  EditResult,
  MenuResult,
  MenuView,
  SheetView,
  StatusView,
  StopResult,
  TriggerRunResult,
  WorkbookView,
} from '../protocol';
import {get, post} from './api';
import {byId, el} from './dom';
import {DrivePanel} from './drive';
import {Grid, SelectedRange} from './grid';
import {renderMenuBar} from './menu';
import {sheetMenus} from './sheet-menus';
import {confirmProtectedEdit, Dialogs, showNote, toast} from './notices';
import {popover} from './popovers';

const POLL_MS = 400;
const TOAST_SECONDS = 12;

function failed(what: string, e: unknown): void {
  toast(
    what,
    e instanceof Error ? e.message : String(e),
    TOAST_SECONDS,
    'error',
  );
}

/** The grid's selection, told to the runtime a moment after it settles (not every arrow key). */
let selectionTimer: ReturnType<typeof setTimeout> | undefined;
function selected(sheet: string, range: SelectedRange): void {
  clearTimeout(selectionTimer);
  selectionTimer = setTimeout(
    () => void post('/api/select', {sheet, range}).catch(() => undefined),
    SELECT_DELAY_MS,
  );
}
const SELECT_DELAY_MS = 150;

const grid = new Grid(byId('grid'), edit, confirmProtectedEdit, selected);
const dialogs = new Dialogs(answer =>
  post('/api/dialog', answer).then(
    () => undefined,
    e => failed('The dialog was not answered', e),
  ),
);
const drive = new DrivePanel(id => grid.typeIntoSelected(id));

async function edit(sheet: string, edits: CellEdit[]): Promise<void> {
  try {
    const result = await post<EditResult>('/api/cells', {sheet, edits});
    byId('edit-message').textContent = result.refused
      .map(r => `${r.a1}: ${r.message}`)
      .join('\n');
  } catch (e) {
    failed('Not typed', e);
  }
  await refresh();
}

let refreshing: Promise<void> | null = null;
let refreshAgain = false;
/** The server's revision the page knows of; shown once a refresh begun after it has ended. */
let knownRevision = 0;
/** The last selection a script made that the page has shown. */
let shownSelection = 0;

/**
 * Fetches the workbook and the active sheet; a refresh asked for meanwhile runs after. The
 * body's data-shown-revision then says which revision the page shows (tests wait on it).
 */
function refresh(): Promise<void> {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      const revision = knownRevision;
      try {
        const workbook = await get<WorkbookView>('/api/workbook');
        showWorkbook(workbook);
        grid.show(
          await get<SheetView>(
            `/api/sheet?name=${encodeURIComponent(workbook.active)}`,
          ),
        );
        const selection = workbook.selection;
        if (selection && selection.count > shownSelection) {
          shownSelection = selection.count;
          grid.selectRange(selection);
        }
        document.body.dataset.shownRevision = String(revision);
      } catch (e) {
        failed('The spreadsheet could not be shown', e);
      }
    } while (refreshAgain);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function when(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(ms);
}

/** What a trigger runs, as the user knows it (the sidebar's words), not its function's name. */
function triggerName(handler: string): string {
  return handler === 'scheduledRefresh' ? 'Scheduled refresh' : handler;
}

/** "every hour", "every 4 hours". */
const every = (hours: number) =>
  hours === 1 ? 'every hour' : `every ${hours} hours`;

let timeZone = 'UTC';

function showWorkbook(workbook: WorkbookView): void {
  timeZone = workbook.timeZone;
  const tabs = workbook.sheets.map(name => {
    const tab = el(
      'button',
      {
        type: 'button',
        role: 'tab',
        'aria-selected': String(name === workbook.active),
      },
      name,
    );
    tab.addEventListener('click', () => {
      void post('/api/activate', {sheet: name}).then(refresh, e =>
        failed(name, e),
      );
    });
    return tab;
  });
  byId('tabs').replaceChildren(...tabs);
  // Cut to one line in the top bar: the whole text is the tooltip.
  const clock = byId('clock');
  clock.textContent =
    clock.title = `Virtual time ${when(workbook.nowMs, timeZone)} (${timeZone})`;
  const triggers = byId('trigger-info');
  triggers.textContent = triggers.title =
    workbook.triggers.length === 0
      ? 'No scheduled refresh'
      : workbook.triggers
          .map(
            t =>
              `${triggerName(t.handler)} ${every(t.everyHours)}, next ${when(t.nextRunMs, timeZone)}`,
          )
          .join('; ');
}

const sidebarPanel = byId('sidebar-panel');
const sidebarFrame = byId<HTMLIFrameElement>('sidebar-frame');

function openSidebar(revision: number): void {
  sidebarPanel.hidden = false;
  sidebarFrame.src = `/sidebar?shown=${revision}`;
}

byId('sidebar-close').addEventListener('click', () => {
  sidebarPanel.hidden = true;
});

async function runMenuItem(caption: string): Promise<void> {
  try {
    const result = await post<MenuResult>('/api/menu', {caption});
    for (const t of result.toasts)
      toast(t.title, t.message, Math.max(t.timeoutSeconds, TOAST_SECONDS));
    if (result.error !== null)
      toast(`Error: ${caption}`, result.error, TOAST_SECONDS, 'error');
  } catch (e) {
    failed(caption, e);
  }
  await refresh();
}

byId('run-trigger').addEventListener('click', () => {
  void post<TriggerRunResult>('/api/triggers/run', {}).then(
    result => {
      if (result.message !== null)
        toast('Scheduled trigger', result.message, TOAST_SECONDS, 'info');
      for (const run of result.runs) {
        const at = when(run.atMs, timeZone);
        toast(
          'Scheduled trigger',
          run.error === null
            ? `${triggerName(run.handler)} ran at ${at}. The sidebar shows what it did under Last scheduled run.`
            : `${triggerName(run.handler)} ran at ${at} and failed: ${run.error}`,
          TOAST_SECONDS,
          run.error === null ? 'info' : 'error',
        );
      }
      return refresh();
    },
    e => failed('Scheduled trigger', e),
  );
});

popover('drive-toggle', 'drive-panel', () => void drive.load());
popover('demo-toggle', 'demo-panel', () => {
  void get<Record<string, string | string[]>>('/api/demo').then(demo => {
    const rows: [string, string][] = [
      ['Base URL', String(demo.baseUrl)],
      ['Access key', String(demo.accessKey)],
      ['Api key', String(demo.apiKey)],
      ['Sub-accounts', (demo.subAccounts as string[]).join(', ')],
    ];
    byId('demo-keys').replaceChildren(
      ...rows.flatMap(([k, v]) => [
        el('dt', {}, k),
        el('dd', {}, el('code', {}, v)),
      ]),
    );
  });
});

byId('stop-offer').addEventListener('click', () => {
  void post<StopResult>('/api/server/stop-offer', {}).then(
    result => {
      byId('stop-offer-message').textContent = result.message;
    },
    e => failed('The offer was not stopped', e),
  );
});

let seenSidebar = 0;

/** The add-on's HTML dialog (Clone selected offers…) in a modal of the size it asked for. */
const htmlDialog = byId<HTMLDialogElement>('html-dialog');
let shownDialog = 0;
htmlDialog.addEventListener('cancel', e => e.preventDefault());
byId('html-dialog-close').addEventListener('click', () => {
  void post('/api/dialog/close', {}).catch(() => undefined);
  htmlDialog.close();
});

function showHtmlDialog(view: StatusView['htmlDialog']): void {
  if (view === null) {
    if (htmlDialog.open) htmlDialog.close();
    return;
  }
  if (view.shown === shownDialog) return;
  shownDialog = view.shown;
  byId('html-dialog-title').textContent = view.title;
  const frame = byId<HTMLIFrameElement>('html-dialog-frame');
  frame.width = String(view.width);
  frame.height = String(view.height);
  frame.src = `/dialog?shown=${view.shown}`;
  htmlDialog.showModal();
}

async function poll(): Promise<void> {
  try {
    const status = await get<StatusView>('/api/status');
    showNote(
      status.running === null
        ? null
        : `Running script: ${status.running.replace(/…$/, '')}…`,
    );
    dialogs.update(status.dialog);
    showHtmlDialog(status.htmlDialog);
    if (status.sidebarRevision !== seenSidebar) {
      seenSidebar = status.sidebarRevision;
      openSidebar(seenSidebar);
    }
    if (status.revision !== knownRevision) {
      knownRevision = status.revision;
      void refresh();
    }
  } catch {
    showNote(
      'The playground server is not answering: start it again with npm start.',
    );
  }
  setTimeout(() => void poll(), POLL_MS);
}

sheetMenus(byId('menubar'), grid, refresh, failed);
void get<MenuView[]>('/api/menus').then(
  menus =>
    renderMenuBar(byId('menubar'), menus, caption => void runMenuItem(caption)),
  e => failed('The add-on menu could not be shown', e),
);
void poll();
