/**
 * The playground's web server, on 127.0.0.1 only: the page (a spreadsheet with the add-on's
 * menu and its real built sidebar beside the grid), and the calls behind it. The add-on runs
 * in the sidebar host's worker thread (the built dist/ in the local Apps Script runtime against
 * the in-process emulator); the page's every action is run there.
 */
import {readFileSync} from 'node:fs';
import {createServer, IncomingMessage, Server, ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import * as esbuild from 'esbuild';
import {DEMO_ACCOUNTS, EmulatorOptions} from '../emulator';
import {
  googleScriptRunShim,
  serveHostCall,
  SidebarHost,
  startSidebarHost,
  withShim,
} from '../sidebar-host';
import {createDialogMemory, DialogDesk} from './dialogs';
import {addDemoImages, PlaygroundDrive, safeFileName} from './drive';
import type {
  CellEdit,
  DialogAnswer,
  HtmlDialogView,
  DriveFileView,
  PickResult,
  RowChange,
  SortRequest,
  EditResult,
  FilterChange,
  MenuResult,
  SheetView,
  StatusView,
  StopResult,
  TriggerRunResult,
  WorkbookView,
  MenuView,
} from './protocol';
import type {PlaygroundWorldOptions} from './world';

/** The API's address as the sidebar's settings name it: only this host answers. */
export const DEMO_BASE_URL = 'https://api.emulator.test';

/** Small enough to feel instant, large enough to need paging (50 a page). */
export const DEMO_DATA: Omit<EmulatorOptions, 'now'> = {
  seed: 1,
  offers: 120,
  campaigns: 12,
  materials: 12,
};

const MAX_JSON_BYTES = 1024 * 1024;
/** UrlFetchApp posts at most 50 MB. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface PlaygroundOptions {
  /** Default 0: any free port. */
  port?: number;
  emulator?: Omit<EmulatorOptions, 'now'>;
  /** Real milliseconds each API exchange takes, so progress can be watched. */
  fetchDelayMs?: number;
}

export interface Playground {
  /** e.g. http://127.0.0.1:8765/ */
  url: string;
  port: number;
  baseUrl: string;
  demoFiles: DriveFileView[];
  host: SidebarHost;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new HttpError(
        413,
        `At most ${limit / (1024 * 1024)} MB can be sent.`,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readJson<T>(request: IncomingMessage): Promise<T> {
  const body = await readBody(request, MAX_JSON_BYTES);
  try {
    return JSON.parse(body.toString('utf8')) as T;
  } catch {
    throw new HttpError(400, 'The request body is not JSON.');
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  type: string,
): void {
  response
    .writeHead(status, {'content-type': type, 'cache-control': 'no-store'})
    .end(body);
}

function sendJson(
  response: ServerResponse,
  value: unknown,
  status = 200,
): void {
  send(
    response,
    status,
    JSON.stringify(value),
    'application/json; charset=utf-8',
  );
}

/** The page's script: web/*.ts bundled for the browser, once at startup. */
async function pageScript(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(__dirname, 'web', 'main.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/**
 * Only the playground's own pages may act: a page from another site open in the same browser
 * could otherwise post to 127.0.0.1 (browsers send such posts with their Origin).
 */
interface PersonSelection {
  sheet: string;
  range: {row: number; column: number; numRows: number; numColumns: number};
}

/** google.script.host in a dialog: close() asks the page to close it. */
const HOST_SHIM = `window.google.script.host = {
  origin: location.origin,
  close: function () { fetch('/api/dialog/close', {method: 'POST'}); },
};`;

function checkOrigin(request: IncomingMessage): void {
  const origin = request.headers.origin;
  if (request.method === 'GET' || origin === undefined) return;
  const host = request.headers.host ?? '';
  const local = /^(127\.0\.0\.1|localhost):\d+$/.test(host);
  if (!local || origin !== `http://${host}`)
    throw new HttpError(403, `Requests from ${origin} are refused.`);
}

export async function startPlayground(
  options: PlaygroundOptions = {},
): Promise<Playground> {
  const drive = new PlaygroundDrive();
  const demoFiles = addDemoImages(drive);
  const dialogs = createDialogMemory();
  const desk = new DialogDesk(dialogs);
  const worldOptions: PlaygroundWorldOptions = {
    emulator: options.emulator ?? DEMO_DATA,
    baseUrl: DEMO_BASE_URL,
    driveFiles: drive.paths(),
    dialogs,
  };
  const [script, host] = await Promise.all([
    pageScript(),
    startSidebarHost({
      worldModule: join(__dirname, 'world.ts'),
      worldOptions,
      fetchDelayMs: options.fetchDelayMs ?? 0,
      lookWhileWaiting: ['workbook', 'sheet'],
    }),
  ]);
  const page = readFileSync(join(__dirname, 'web', 'index.html'), 'utf8');
  const shim = googleScriptRunShim({endpoint: '/run'});
  let sidebarHtml = withShim((await host.openSidebar()).html, shim);
  let revision = 1;
  let sidebarRevision = 1;
  const running: string[] = [];

  const invoke = <T>(name: string, ...args: unknown[]) =>
    host.invoke<T>(name, ...args);

  /**
   * The HTML dialog open in the page, if any: one the add-on showed since the last look (from
   * the menu or a sidebar button), given the page's stand-ins for google.script.run and for
   * google.script.host (close() closes it in the page).
   */
  let htmlDialog: (HtmlDialogView & {shown: number}) | null = null;
  let dialogsSeen = 0;
  const lookForHtmlDialog = async () => {
    const {count, last} = await invoke<{
      count: number;
      last: HtmlDialogView | null;
    }>('htmlDialogs');
    if (count === dialogsSeen || !last) return;
    dialogsSeen = count;
    htmlDialog = {
      ...last,
      html: withShim(last.html, `${shim}\n${HOST_SHIM}`),
      shown: count,
    };
  };

  const reopenSidebar = async () => {
    sidebarHtml = withShim((await host.openSidebar()).html, shim);
    sidebarRevision++;
  };

  /** The dialog last reported: a new one is news, since the add-on wrote before it asked. */
  let reportedDialog = 0;
  const status = (): StatusView => {
    const dialog = desk.pending();
    if (dialog && dialog.id !== reportedDialog) {
      reportedDialog = dialog.id;
      revision++;
    }
    return {
      revision,
      running: running[0] ?? null,
      dialog,
      sidebarRevision,
      htmlDialog: htmlDialog && {
        title: htmlDialog.title,
        width: htmlDialog.width,
        height: htmlDialog.height,
        shown: htmlDialog.shown,
      },
    };
  };

  /**
   * The grid's selection, told to the runtime just before the add-on runs (a menu item, a call
   * of the sidebar or a dialog), where it may read it: never while a script runs or waits on a
   * dialog, which a call to the worker would queue behind.
   */
  let selection: PersonSelection | null = null;
  const applySelection = async () => {
    if (!selection) return;
    const {sheet, range} = selection;
    selection = null;
    // A sheet renamed or deleted since is no selection: the add-on then reads none.
    await invoke('selectRange', sheet, range).catch(() => undefined);
  };

  const clickMenu = async (caption: string): Promise<MenuResult> => {
    await applySelection();
    running.push(caption);
    try {
      const {sidebarHtml: shown, ...result} = await invoke<
        MenuResult & {sidebarHtml: string | null}
      >('clickMenu', caption);
      if (shown !== null) {
        sidebarHtml = withShim(shown, shim);
        sidebarRevision++;
      }
      return result;
    } finally {
      running.splice(running.indexOf(caption), 1);
      await lookForHtmlDialog();
      revision++;
    }
  };

  const addFile = async (
    name: string,
    bytes: Buffer,
  ): Promise<DriveFileView> => {
    const file = drive.add(name, bytes);
    await invoke('addDriveFile', file.id, drive.pathOf(file.id));
    return file;
  };

  /** A person's action on a sheet's rows: {sheet, action} run by the world's `name`. */
  const sheetAction = async (
    request: IncomingMessage,
    response: ServerResponse,
    name: 'sortRange' | 'changeRows' | 'filterRows',
  ): Promise<void> => {
    const {sheet, action} = await readJson<{
      sheet: string;
      action: SortRequest | RowChange | FilterChange;
    }>(request);
    await invoke(name, sheet, action);
    revision++;
    sendJson(response, {});
  };

  const route = async (
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
  ): Promise<void> => {
    const method = request.method ?? 'GET';
    const at = `${method} ${url.pathname}`;
    switch (at) {
      case 'GET /':
        return send(response, 200, page, 'text/html; charset=utf-8');
      case 'GET /app.js':
        return send(response, 200, script, 'text/javascript; charset=utf-8');
      case 'GET /sidebar':
        return send(response, 200, sidebarHtml, 'text/html; charset=utf-8');
      case 'POST /run':
        await applySelection();
        await serveHostCall(host, request, response);
        await lookForHtmlDialog();
        revision++;
        return;
      case 'GET /dialog':
        if (!htmlDialog) throw new HttpError(404, 'No dialog is open.');
        return send(response, 200, htmlDialog.html, 'text/html; charset=utf-8');
      case 'POST /api/dialog/close':
        htmlDialog = null;
        return sendJson(response, {});
      case 'POST /api/select':
        selection = await readJson<PersonSelection>(request);
        return sendJson(response, {});
      case 'GET /api/status':
        return sendJson(response, status());
      case 'GET /api/demo':
        return sendJson(response, {
          baseUrl: DEMO_BASE_URL,
          accessKey: DEMO_ACCOUNTS.main.accessKey,
          apiKey: DEMO_ACCOUNTS.main.apiKey,
          subAccounts: [DEMO_ACCOUNTS.subA.name, DEMO_ACCOUNTS.subB.name],
        });
      case 'GET /api/workbook':
        return sendJson(response, await invoke<WorkbookView>('workbook'));
      case 'GET /api/sheet':
        return sendJson(
          response,
          await invoke<SheetView>('sheet', url.searchParams.get('name') ?? ''),
        );
      case 'POST /api/cells': {
        const {sheet, edits} = await readJson<{
          sheet: unknown;
          edits: unknown;
        }>(request);
        const typed =
          Array.isArray(edits) &&
          edits.every(
            (e: Partial<CellEdit>) =>
              typeof e?.a1 === 'string' && typeof e.text === 'string',
          );
        if (typeof sheet !== 'string' || !typed)
          throw new HttpError(400, 'Expected {sheet, edits: [{a1, text}]}.');
        const result = await invoke<EditResult>('typeCells', sheet, edits);
        revision++;
        return sendJson(response, result);
      }
      case 'POST /api/sort':
        return sheetAction(request, response, 'sortRange');
      case 'POST /api/rows':
        return sheetAction(request, response, 'changeRows');
      case 'POST /api/filter':
        return sheetAction(request, response, 'filterRows');
      case 'POST /api/activate': {
        const {sheet} = await readJson<{sheet: string}>(request);
        await invoke('activate', sheet);
        revision++;
        return sendJson(response, {});
      }
      case 'GET /api/menus':
        return sendJson(response, await invoke<MenuView[]>('menus'));
      case 'POST /api/menu': {
        const {caption} = await readJson<{caption: string}>(request);
        return sendJson(response, await clickMenu(String(caption)));
      }
      case 'POST /api/dialog': {
        const refused = desk.answer(await readJson<DialogAnswer>(request));
        if (refused) throw new HttpError(409, refused);
        return sendJson(response, {});
      }
      case 'POST /api/triggers/run': {
        const result = await invoke<TriggerRunResult>('runScheduledTriggers');
        revision++;
        // The sidebar shows the last scheduled run when it opens: open it again, as a person would.
        if (result.runs.length > 0) await reopenSidebar();
        return sendJson(response, result);
      }
      case 'POST /api/server/stop-offer':
        return sendJson(response, await invoke<StopResult>('stopAnOffer'));
      case 'GET /api/drive':
        return sendJson(response, drive.list());
      case 'POST /api/drive/pick': {
        const {ids} = await readJson<{ids: string[]}>(request);
        const files = drive
          .list()
          .filter(f => ids.includes(f.id))
          .map(f => ({id: f.id, name: f.name}));
        if (files.length === 0)
          throw new HttpError(400, 'Pick a file of the playground Drive.');
        const result = await invoke<PickResult>('pickDriveFiles', files);
        revision++;
        return sendJson(response, result);
      }
      case 'POST /api/drive': {
        const name = safeFileName(url.searchParams.get('name') ?? '');
        if (!name)
          throw new HttpError(
            400,
            'The file needs a name, without leading dot.',
          );
        const bytes = await readBody(request, MAX_FILE_BYTES);
        if (bytes.length === 0) throw new HttpError(400, `${name} is empty.`);
        return sendJson(response, await addFile(name, bytes));
      }
    }
    const thumbnail = /^GET \/drive\/([A-Za-z0-9_-]+)$/.exec(at);
    const image = thumbnail && drive.image(thumbnail[1]);
    if (image) return send(response, 200, image.bytes, image.type);
    throw new HttpError(404, `Nothing at ${at}.`);
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    Promise.resolve()
      .then(() => {
        checkOrigin(request);
        return route(request, response, url);
      })
      .catch((e: unknown) => {
        const status = e instanceof HttpError ? e.status : 500;
        const message = e instanceof Error ? e.message : String(e);
        if (!response.headersSent) sendJson(response, {error: message}, status);
        else response.end();
      });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () =>
      resolve((server.address() as AddressInfo).port),
    );
  }).catch(async (e: unknown) => {
    await host.close();
    drive.remove();
    throw e;
  });

  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    baseUrl: DEMO_BASE_URL,
    demoFiles,
    host,
    close: async () => {
      desk.dismiss();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
      await host.close();
      drive.remove();
    },
  };
}
