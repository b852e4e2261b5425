import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {CacheStores, FakeCacheService} from './cache';
import {copyForClient} from './client-copy';
import {Collaborator} from './collaborator';
import {VirtualClock} from './clock';
import {DriveOptions, DriveStore, FakeDriveApi, FakeDriveApp} from './drive';
import {AuthModeName, Env, Execution, ExecutionKind} from './env';
import {FakeHtmlService} from './html';
import {DEFAULT_LATENCY, LatencyModel} from './latency';
import {FakeLockService, LockTable} from './lock';
import {FakeMailApp, Outbox} from './mail';
import {createConsole, FakeLogger, LogBook} from './logs';
import {Meter} from './meter';
import {FakePropertiesService, PropertyStores} from './properties';
import {createRealm, Realm} from './realm';
import {createThreadRealm} from './thread-realm';
import {AuthMode, FakeScriptApp} from './script-app';
import {FakeSession} from './session';
import {
  FakeSpreadsheet,
  FakeSpreadsheetApp,
  SpreadsheetOptions,
} from './spreadsheet/spreadsheet';
import {
  AUTHORIZATION_REQUIRED,
  Authorizations,
  DEFAULT_TRIGGER_DAILY_MS,
  TriggerContext,
  TriggerTime,
} from './trigger-conditions';
import {FakeTrigger, TriggerRecord, TriggerTable} from './triggers';
import {FakeUi, UiLog} from './ui';
import {FakeUrlFetchApp, UrlFetchQuota} from './url-fetch';
import {FakeUtilities} from './utilities';
import {wallTime, weekday} from './time-zone';
import {WireFetch} from '../http-types';

/** Apps Script's limit for a simple trigger's run. */
export const SIMPLE_TRIGGER_MS = 30_000;

export interface RuntimeOptions {
  /**
   * Folder of the built add-on: every *.js in it is loaded, sorted, into the context, and
   * HtmlService reads its *.html. Default: the repository's dist/. `null` loads nothing (the
   * fakes alone, for unit tests of platform adapters).
   */
  distDir?: string | null;
  /** Virtual time at start, epoch ms. Default 2026-01-05T09:00:00Z (a Monday). */
  startMs?: number;
  /** Overrides of DEFAULT_LATENCY. */
  latency?: Partial<LatencyModel>;
  /** The wire under UrlFetchApp: an emulator's in-process handler, or loopbackWireFetch(). */
  fetch?: WireFetch;
  /** Users of the document; the first is active unless setUser says otherwise. */
  users?: string[];
  spreadsheet?: Partial<SpreadsheetOptions>;
  scriptTimeZone?: string;
  /** Name of the add-on menu (createAddonMenu). */
  addonName?: string;
  /** Enforce editor add-on trigger limits (default true). */
  addon?: boolean;
  drive?: DriveOptions;
  /**
   * The manifest's oauthScopes. Default: those of dist/appsscript.json when the add-on is
   * loaded from a folder holding one; unknown (every scope granted) otherwise.
   */
  scopes?: readonly string[];
  /** UrlFetch calls per user per day (default 20,000, a consumer account). */
  urlFetchDailyQuota?: number;
  /** Per-execution limit, default 6 minutes. */
  executionLimitMs?: number;
  /** Emails per user per day (default 100, a consumer account). */
  mailDailyQuota?: number;
  /** Trigger runtime per user per day (default 90 minutes, a consumer account; Workspace: 6 h). */
  triggerDailyRuntimeMs?: number;
  /** Session's getActiveUser and getEffectiveUser answer '' for getEmail (Apps Script may). */
  hideEmail?: boolean;
  /** Also print what the add-on logs to stderr. */
  echoLogs?: boolean;
  /**
   * How the add-on is deployed. 'test' (a test deployment, "Test as add-on"): installable
   * triggers are created and listed but never fire, as Google documents. Default 'versioned'.
   */
  deployment?: 'test' | 'versioned';
  /**
   * `Math.random` inside the add-on (default: node's). A seeded one makes ids drawn from it
   * (the History's change ids) the same on every run, as the screenshots need.
   */
  random?: () => number;
  /**
   * Runs the add-on in a worker thread of its own (thread-realm.ts), so that its heap holds
   * only its own objects (`rt.realm.thread`): the bench measures it there. The fakes and their
   * stores stay in this thread and answer its calls synchronously; `rt.close()` ends the thread.
   */
  ownThread?: boolean;
}

/** What the client's failure handler gets when google.script.run cannot reach the server. */
export interface ClientCallFailure {
  /** The error's name, before ': ' in the message the client shows. Default 'ScriptError'. */
  name?: string;
  /** Default AUTHORIZATION_REQUIRED. */
  message?: string;
  /** How many calls fail from now on; default every call until acceptClientCalls(). */
  count?: number;
}

/** The Apps Script globals, as the add-on sees them. */
export interface AppsScriptGlobals {
  SpreadsheetApp: FakeSpreadsheetApp;
  UrlFetchApp: FakeUrlFetchApp;
  Utilities: FakeUtilities;
  PropertiesService: FakePropertiesService;
  CacheService: FakeCacheService;
  LockService: FakeLockService;
  ScriptApp: FakeScriptApp;
  HtmlService: FakeHtmlService;
  DriveApp: FakeDriveApp;
  Session: FakeSession;
  MailApp: FakeMailApp;
  Logger: FakeLogger;
  console: ReturnType<typeof createConsole>;
}

export const DEFAULT_START_MS = Date.UTC(2026, 0, 5, 9, 0, 0);
const SCRIPT_ID = 'offer-desk-script-id';
const DEFAULT_DIST = join(__dirname, '..', '..', 'dist');

const noTransport: WireFetch = request => {
  throw new Error(
    `UrlFetchApp has no transport (pass options.fetch): ${request.method} ${request.url}`,
  );
};

/** An in-memory Apps Script: the add-on's files in one vm context, over faithful fakes. */
export class Runtime {
  readonly clock: VirtualClock;
  readonly latency: LatencyModel;
  readonly realm: Realm;
  readonly meter: Meter;
  readonly env: Env;
  readonly logs: LogBook;
  readonly ui = new UiLog();
  readonly properties = new PropertyStores();
  readonly caches = new CacheStores();
  readonly locks = new LockTable();
  readonly triggers = new TriggerTable();
  readonly outbox: Outbox;
  /** Users who must authorize the add-on again: `require(email, blockedServices)`, `grant(email)`. */
  readonly authorizations = new Authorizations(SCRIPT_ID);
  /** Each user's trigger time per day, against `triggerDailyRuntimeMs`. */
  readonly triggerTime: TriggerTime;
  /** The fake Drive: `rt.drive.pick(user, ids)` is what the Google Picker does. */
  readonly drive: DriveStore;
  readonly spreadsheet: FakeSpreadsheet;
  /** Another editor of the document, acting between a job's reads and writes. */
  readonly collaborator: Collaborator;
  readonly globals: AppsScriptGlobals;
  /** Every execution run so far, in order. */
  readonly executions: Execution[] = [];
  /** 'test': installable triggers never fire. */
  readonly deployment: 'test' | 'versioned';
  private wire: WireFetch;
  private nextExecutionId = 1;
  private clientFailure: Required<ClientCallFailure> | undefined;

  constructor(options: RuntimeOptions = {}) {
    this.clock = new VirtualClock(options.startMs ?? DEFAULT_START_MS);
    this.latency = {...DEFAULT_LATENCY, ...options.latency};
    const now = () => this.clock.now();
    this.realm = options.ownThread ? createThreadRealm(now) : createRealm(now);
    if (options.random)
      (this.realm.run('Math', 'random.js') as Math).random = options.random;
    this.meter = new Meter(this.clock);
    const users = options.users ?? ['user@example.com'];
    this.env = new Env(
      this.realm,
      this.clock,
      this.latency,
      this.meter,
      options.executionLimitMs ?? 6 * 60 * 1000,
      users,
    );
    this.outbox = new Outbox(options.mailDailyQuota);
    this.triggerTime = new TriggerTime(
      options.triggerDailyRuntimeMs ?? DEFAULT_TRIGGER_DAILY_MS,
    );
    this.env.guards.push(
      (service, key) => this.authorizations.check(this.env, service, key),
      () => this.triggerTime.check(this.env),
    );
    this.logs = new LogBook(this.clock, options.echoLogs ?? false);
    this.wire = options.fetch ?? noTransport;
    this.deployment = options.deployment ?? 'versioned';
    const scriptTimeZone = options.scriptTimeZone ?? 'Etc/UTC';
    const spreadsheetId =
      options.spreadsheet?.id ??
      '1OfferDeskSpreadsheetId0000000000000000000000';
    this.spreadsheet = new FakeSpreadsheet(
      this.env,
      this.ui,
      spreadsheetId,
      {
        name: options.spreadsheet?.name ?? 'Offer Desk',
        timeZone: options.spreadsheet?.timeZone ?? 'Etc/UTC',
        sheetNames: options.spreadsheet?.sheetNames ?? ['Sheet1'],
      },
      sheet => this.collaborator.valuesRead(sheet),
    );
    this.collaborator = new Collaborator(this.env, this.spreadsheet);
    const distDir =
      options.distDir === null ? undefined : (options.distDir ?? DEFAULT_DIST);
    const ui = new FakeUi(
      this.env,
      this.ui,
      options.addonName ?? 'Offer Desk',
      () => this.collaborator.alertOpen(),
    );
    const scopes = options.scopes ?? manifestScopes(distDir);
    this.drive = new DriveStore(options.drive ?? {});
    const driveApi = new FakeDriveApi(this.env, this.drive, scopes);
    this.globals = {
      SpreadsheetApp: new FakeSpreadsheetApp(this.env, this.spreadsheet, ui),
      UrlFetchApp: new FakeUrlFetchApp(
        this.env,
        r => driveApi.answer(r) ?? this.wire(r),
        new UrlFetchQuota(options.urlFetchDailyQuota ?? 20000),
        () => this.collaborator.fetchAnswering(),
      ),
      Utilities: new FakeUtilities(this.env),
      PropertiesService: new FakePropertiesService(this.env, this.properties),
      CacheService: new FakeCacheService(this.env, this.caches),
      LockService: new FakeLockService(this.env, this.locks),
      ScriptApp: new FakeScriptApp(
        this.env,
        this.triggers,
        {
          addon: options.addon ?? true,
          documentId: spreadsheetId,
          scriptTimeZone,
        },
        SCRIPT_ID,
        this.authorizations,
      ),
      HtmlService: new FakeHtmlService(this.env, distDir),
      DriveApp: new FakeDriveApp(this.env, this.drive, scopes),
      Session: new FakeSession(
        this.env,
        scriptTimeZone,
        options.hideEmail ?? false,
      ),
      MailApp: new FakeMailApp(this.env, this.outbox),
      Logger: new FakeLogger(this.logs),
      console: createConsole(this.logs),
    };
    Object.assign(this.realm.context, this.globals);
    if (distDir !== undefined) this.loadDir(distDir);
  }

  /**
   * What a trigger run gets of the document, from now on: `{spreadsheet: false}` makes
   * SpreadsheetApp.getActive() answer null in it, `{documentLock: false}` getDocumentLock().
   */
  get triggerContext(): TriggerContext {
    return this.env.triggerContext;
  }

  /** The user executions run as (user properties, caches and locks follow). */
  get user(): string {
    return this.env.user;
  }

  setUser(email: string): void {
    if (this.env.execution)
      throw new Error('cannot switch users during an execution');
    this.env.user = email;
  }

  /**
   * Ends the add-on's own thread, where it has one (`ownThread`). Not an async function: a
   * pending one would hold this runtime, stores and all, until the event loop turns.
   */
  close(): Promise<void> {
    return this.realm.thread?.close() ?? Promise.resolve();
  }

  /** Replaces the wire under UrlFetchApp. */
  setFetch(wire: WireFetch): void {
    this.wire = wire;
  }

  /** Evaluates one more script file in the add-on's context. */
  load(code: string, filename: string): void {
    this.realm.run(code, filename);
  }

  /**
   * From now on google.script.run fails before the server runs anything (no execution), with
   * the error the client gives a browser signed into several Google accounts: by default
   * "ScriptError: Authorization is required to perform that action.", on every call.
   */
  refuseClientCalls(failure: ClientCallFailure = {}): void {
    this.clientFailure = {
      name: failure.name ?? 'ScriptError',
      message: failure.message ?? AUTHORIZATION_REQUIRED,
      count: failure.count ?? Infinity,
    };
  }

  /** google.script.run reaches the server again. */
  acceptClientCalls(): void {
    this.clientFailure = undefined;
  }

  /**
   * google.script.run: calls a top-level function from the sidebar. Arguments and the result
   * pass through the client copy (no Dates, functions or class instances); names ending in '_'
   * are private.
   */
  call(name: string, ...args: unknown[]): unknown {
    const failure = this.clientFailure;
    if (failure) {
      if (--failure.count <= 0) this.clientFailure = undefined;
      throw Object.assign(new Error(failure.message), {name: failure.name});
    }
    if (name.endsWith('_'))
      throw new Error(
        `${name} is private: google.script.run cannot call functions ending in _`,
      );
    const inArgs = args.map((a, i) =>
      copyForClient(a, this.realm, (path, what) => {
        throw new Error(
          `Failed due to illegal value in property: ${path || i} (${what})`,
        );
      }),
    );
    const result = this.execute(name, inArgs, 'call', 'FULL');
    return copyForClient(
      result,
      {array: a => a, object: o => o},
      (path, what) => {
        throw new Error(
          `${name} returned an illegal value at ${path || '(result)'} (${what}): the client would receive null`,
        );
      },
    );
  }

  /**
   * Runs a top-level function directly (as from the script editor): arguments pass as they are,
   * in its own execution, in the given authorization mode (default FULL).
   */
  run(
    name: string,
    options: {args?: unknown[]; authMode?: AuthModeName} = {},
  ): unknown {
    return this.execute(
      name,
      options.args ?? [],
      'run',
      options.authMode ?? 'FULL',
    );
  }

  /** Clicks a menu item: runs its function with no arguments and full authorization. */
  clickMenu(caption: string): unknown {
    const fn = this.ui.functionFor(caption);
    if (!fn) throw new Error(`no menu item "${caption}"`);
    return this.run(fn);
  }

  /** Opens the document: runs onOpen(e) as a simple trigger in the given authorization mode. */
  open(authMode: AuthModeName = 'LIMITED'): unknown {
    const e = this.realm.object({
      authMode: AuthMode[authMode],
      source: this.spreadsheet,
      user: this.env.user,
    });
    return this.execute('onOpen', [e], 'simple-trigger', authMode);
  }

  /**
   * A person edited `a1` of `sheet` (typed into it, pasted over it): runs the bundle's
   * onEdit(e), where it has one, as Sheets runs a simple trigger: no authorization beyond
   * the document (AuthMode.LIMITED where the add-on is enabled), 30 seconds.
   */
  edited(
    sheet: string,
    a1: string,
    authMode: AuthModeName = 'LIMITED',
  ): unknown {
    if (typeof (this.realm.context as {onEdit?: unknown}).onEdit !== 'function')
      return undefined;
    const range = this.env.asPerson(() =>
      this.spreadsheet.getSheetByName(sheet)!.getRange(a1),
    );
    const e = this.realm.object({
      authMode: AuthMode[authMode],
      range,
      source: this.spreadsheet,
      user: this.env.user,
    });
    return this.execute('onEdit', [e], 'simple-trigger', authMode);
  }

  /** Installs the add-on: runs onInstall(e) with full authorization. */
  install(): unknown {
    const e = this.realm.object({
      authMode: AuthMode.FULL,
      source: this.spreadsheet,
    });
    return this.execute('onInstall', [e], 'simple-trigger', 'FULL');
  }

  /** Fires one installed trigger now, as its owner, in an execution of its own. */
  fireTrigger(trigger: FakeTrigger | TriggerRecord | string): unknown {
    const id =
      typeof trigger === 'string'
        ? trigger
        : 'record' in trigger
          ? trigger.record.id
          : trigger.id;
    const record = this.triggers.records.find(t => t.id === id);
    if (!record) throw new Error(`no trigger ${id}`);
    if (this.deployment === 'test') {
      throw new Error(
        `trigger ${id} (${record.handler}) was not fired: a test deployment never fires installable triggers (deployment: 'test')`,
      );
    }
    try {
      return this.runAs(record.user, () =>
        this.execute(
          record.handler,
          [this.clockEvent(record)],
          'trigger',
          'FULL',
        ),
      );
    } finally {
      // A failed run is still a run: the schedule moves on (unless the handler deleted it).
      if (this.triggers.records.includes(record)) this.triggers.ran(record);
    }
  }

  /**
   * Moves the clock to `untilMs`, firing each time-driven trigger as it falls due. A failing
   * run is recorded in `executions` (as Apps Script logs it) and the others go on.
   */
  runDueTriggers(untilMs: number): Execution[] {
    const runs: Execution[] = [];
    // A test deployment's triggers never fall due: time passes and nothing runs.
    if (this.deployment === 'test') {
      this.clock.advanceTo(untilMs);
      return runs;
    }
    for (
      let due = this.triggers.due(untilMs)[0];
      due;
      due = this.triggers.due(untilMs)[0]
    ) {
      this.clock.advanceTo(due.nextRunMs);
      const before = this.executions.length;
      try {
        this.fireTrigger(due);
      } catch {
        // recorded in the execution log below
      }
      // The trigger's own execution: calls served beside it (a sidebar's poll) log theirs too.
      runs.push(
        this.executions
          .slice(before)
          .find(e => e.functionName === due.handler && e.kind === 'trigger') ??
          this.executions[this.executions.length - 1],
      );
    }
    this.clock.advanceTo(untilMs);
    return runs;
  }

  /** Counters and simulated time, for benchmarks. */
  snapshot() {
    return this.meter.snapshot();
  }

  private loadDir(dir: string): void {
    if (!existsSync(dir))
      throw new Error(`no built add-on in ${dir}: run npm run build`);
    const files = readdirSync(dir)
      .filter(f => f.endsWith('.js'))
      .sort();
    for (const f of files)
      this.load(readFileSync(join(dir, f), 'utf8'), join(dir, f));
  }

  private runAs<T>(user: string, fn: () => T): T {
    const before = this.env.user;
    this.env.user = user;
    try {
      return fn();
    } finally {
      this.env.user = before;
    }
  }

  /** One execution: a fresh 6-minute budget; locks it still holds are released at its end. */
  private execute(
    name: string,
    args: unknown[],
    kind: ExecutionKind,
    authMode: AuthModeName,
  ): unknown {
    if (this.env.execution)
      throw new Error(
        `${name}: another execution (${this.env.execution.functionName}) is running`,
      );
    const fn = (this.realm.context as Record<string, unknown>)[name];
    if (typeof fn !== 'function')
      throw this.realm.exception(`Script function not found: ${name}`);
    const execution: Execution = {
      id: this.nextExecutionId++,
      functionName: name,
      kind,
      user: this.env.user,
      authMode,
      startMs: this.clock.now(),
      ...(kind === 'simple-trigger' ? {limitMs: SIMPLE_TRIGGER_MS} : {}),
    };
    this.executions.push(execution);
    this.env.execution = execution;
    try {
      const result: unknown = fn(...args);
      this.env.sendQueuedWrites();
      // Apps Script kills a run at its limit: an add-on that caught the error did not survive it.
      if (execution.killed) throw this.realm.exception(execution.killed);
      return result;
    } catch (e) {
      execution.error = execution.killed ?? messageOf(e);
      // What a failed run wrote before failing stays written; a killed run's queue is lost.
      if (!execution.killed) this.env.sendQueuedWrites();
      throw execution.killed ? this.realm.exception(execution.killed) : e;
    } finally {
      this.env.discardQueuedWrites();
      execution.endMs = this.clock.now();
      if (kind === 'trigger')
        this.triggerTime.add(
          execution.user,
          execution.startMs,
          execution.endMs,
        );
      this.env.execution = undefined;
      this.locks.releaseExecution(execution.id);
      // A test's own mistake in a collaborator's action outweighs what the add-on made of it.
      this.collaborator.raiseFailure();
    }
  }

  /** The event object of a time-driven trigger. */
  private clockEvent(record: TriggerRecord): object {
    const now = this.clock.now();
    const w = wallTime(now, 'UTC');
    const jan1 = Date.UTC(w.year, 0, 1);
    return this.realm.object({
      authMode: AuthMode.FULL,
      triggerUid: record.id,
      year: w.year,
      month: w.month,
      'day-of-month': w.day,
      'day-of-week': weekday(w) || 7,
      'week-of-year': Math.ceil(
        ((now - jan1) / 86400000 + new Date(jan1).getUTCDay() + 1) / 7,
      ),
      hour: w.hour,
      minute: w.minute,
      second: w.second,
      timezone: 'UTC',
    });
  }
}

/** The oauthScopes of the manifest in `dir`, if it has one. */
function manifestScopes(dir: string | undefined): string[] | undefined {
  const path = dir === undefined ? undefined : join(dir, 'appsscript.json');
  if (!path || !existsSync(path)) return undefined;
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as {
    oauthScopes?: string[];
  };
  return manifest.oauthScopes;
}

/** The message of an error from any realm (the add-on's errors are not this realm's Errors). */
function messageOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'message' in e
    ? String(e.message)
    : String(e);
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return new Runtime(options);
}
