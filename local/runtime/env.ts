import {VirtualClock} from './clock';
import {LatencyModel} from './latency';
import {Meter} from './meter';
import {Realm} from './realm';
import type {Cell} from './spreadsheet/sheet';
import type {TriggerContext} from './trigger-conditions';
import {
  SEND_QUEUED_WRITES,
  SpreadsheetCallKind,
  WriteJournal,
  spreadsheetCallKind,
} from './spreadsheet/write-cache';

/** Which price in the latency model a call pays, and which permission it needs. */
export type Service =
  | 'SpreadsheetApp'
  | 'UrlFetchApp'
  | 'PropertiesService'
  | 'CacheService'
  | 'LockService'
  | 'ScriptApp'
  | 'DriveApp'
  | 'Ui'
  | 'Utilities'
  | 'Session'
  | 'MailApp'
  | 'HtmlService';

export type AuthModeName = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';

export type ExecutionKind = 'call' | 'run' | 'trigger' | 'simple-trigger';

/** One run of a top-level function, with its own 6-minute budget. */
export interface Execution {
  readonly id: number;
  readonly functionName: string;
  readonly kind: ExecutionKind;
  readonly user: string;
  readonly authMode: AuthModeName;
  readonly startMs: number;
  /** How long it may run: 6 minutes, 30 seconds for a simple trigger. */
  readonly limitMs?: number;
  endMs?: number;
  /** Set once the time limit struck: Apps Script kills the run, so a caught error changes nothing. */
  killed?: string;
  error?: string;
}

export const EXCEEDED_TIME = 'Exceeded maximum execution time';

/**
 * What an execution below AuthMode.FULL may do, after Google's editor add-on lifecycle
 * ("Authorization modes"): NONE (onOpen where the add-on is not enabled) builds menus and nothing
 * that needs authorization; LIMITED (onOpen where it is enabled) also reads and writes the bound
 * document and its properties, but shows no sidebar or dialog, reaches no other service and no
 * user's own data.
 */
const ALLOWED_IN_NONE = new Set<Service>(['Ui', 'Utilities', 'HtmlService']);
/** Services that need full authorization (not granted in AuthMode.LIMITED). */
const NEEDS_FULL = new Set<Service>([
  'UrlFetchApp',
  'DriveApp',
  'ScriptApp',
  'MailApp',
]);
/** A user's own storage: it is not the bound document's, so LIMITED does not reach it. */
const USER_DATA = new Set([
  'PropertiesService.getUserProperties',
  'CacheService.getUserCache',
]);
/** What shows a sidebar or a dialog: it needs script.container.ui, which only FULL grants. */
const SHOWS_UI = new Set([
  'Ui.showSidebar',
  'Ui.showModalDialog',
  'Ui.showModelessDialog',
  'Ui.alert',
  'Ui.prompt',
]);
const CONTAINER_UI_SCOPE =
  'https://www.googleapis.com/auth/script.container.ui';

const SPREADSHEET_PRICE: Record<SpreadsheetCallKind, keyof LatencyModel> = {
  roundTrip: 'spreadsheetCallMs',
  queued: 'spreadsheetQueuedCallMs',
  local: 'otherCallMs',
};

/** Counts Spreadsheet calls that waited for the document, sendings of the queue included. */
const ROUND_TRIPS = 'SpreadsheetApp.roundTrips';

const PRICE: Record<Service, keyof LatencyModel> = {
  SpreadsheetApp: 'spreadsheetCallMs',
  UrlFetchApp: 'urlFetchPerRequestMs',
  PropertiesService: 'propertiesCallMs',
  CacheService: 'cacheCallMs',
  LockService: 'lockCallMs',
  ScriptApp: 'scriptAppCallMs',
  DriveApp: 'driveCallMs',
  Ui: 'uiCallMs',
  Utilities: 'otherCallMs',
  Session: 'otherCallMs',
  MailApp: 'propertiesCallMs',
  HtmlService: 'otherCallMs',
};

/**
 * What every fake shares: the realm, the clock, the price list, the counters, who runs and in
 * which execution. `call` is the one gate every service method passes.
 */
export class Env {
  execution: Execution | undefined;
  user: string;
  /** The document's owner: the first of its users. */
  readonly owner: string;
  /** Checks every call passes besides time and AuthMode (trigger-conditions.ts adds them). */
  readonly guards: Array<(service: Service, key: string) => void> = [];
  /** What a trigger run gets of the document; Google may give it neither. */
  readonly triggerContext: TriggerContext = {
    spreadsheet: true,
    documentLock: true,
  };
  /** Spreadsheet writes wait to be sent (write-cache.ts). */
  private writesQueued = false;
  /** What the cells those writes change held before. */
  private readonly journal = new WriteJournal();
  /** A person is acting in the document (asPerson): no call is checked, counted or priced. */
  private person = false;

  constructor(
    readonly realm: Realm,
    readonly clock: VirtualClock,
    readonly latency: LatencyModel,
    readonly meter: Meter,
    readonly executionLimitMs: number,
    /** Everyone who may edit the document, its owner first. */
    readonly users: readonly string[],
  ) {
    this.owner = users[0];
    this.user = users[0];
  }

  /**
   * Refuses a call past the time limit or beyond the execution's authorization, counts it as
   * `key` (e.g. 'Range.getValues') and under its service, and advances the clock by its price
   * (`baseMs`, the service's by default) plus `extraMs`.
   */
  call(
    service: Service,
    key: string,
    extraMs = 0,
    baseMs = this.latency[PRICE[service]],
  ): void {
    if (this.person) return;
    this.checkTime();
    this.checkPermission(service, key);
    for (const guard of this.guards) guard(service, key);
    this.meter.add(service);
    this.meter.add(key);
    this.clock.advance(baseMs + extraMs);
  }

  /**
   * A Spreadsheet service call, priced by write caching (spreadsheet/write-cache.ts): a write
   * is queued, a call that needs the document's answer first sends the queue and is a round
   * trip itself. `cells`: cell values it carries, each priced on top.
   */
  spreadsheet(key: string, cells = 0): void {
    if (this.person) return;
    const kind = spreadsheetCallKind(key);
    if (kind === 'roundTrip' || key === 'SpreadsheetApp.flush')
      this.sendQueuedWrites();
    if (kind === 'roundTrip') this.meter.add(ROUND_TRIPS);
    this.call(
      'SpreadsheetApp',
      key,
      cells * this.latency.spreadsheetPerCellMs,
      this.latency[SPREADSHEET_PRICE[kind]],
    );
    if (kind === 'queued') this.writesQueued = true;
  }

  /**
   * An execution's write is about to change `cell`: until the queue is sent, a kill undoes it.
   * Writes outside any execution (a person typing) are the document's at once, and come after
   * whatever the script still has queued for that cell: a kill leaves them in place.
   */
  queueCellWrite(cell: Cell): void {
    if (this.execution) this.journal.note(cell);
    else this.journal.forget(cell);
  }

  /**
   * Runs `act` as a person editing the document in the Sheets UI, even in the middle of an
   * execution: nothing it does is counted, priced or checked against the execution's limits,
   * and its edits are the document's at once (no write queue: a kill does not undo them).
   */
  asPerson<T>(act: () => T): T {
    const {execution, person} = this;
    this.execution = undefined;
    this.person = true;
    this.meter.paused = true;
    try {
      return act();
    } finally {
      this.execution = execution;
      this.person = person;
      this.meter.paused = person;
    }
  }

  /** The formulas of `cell` were rewritten by a move: so is what a kill would put back. */
  followInQueue(cell: Cell, rewrite: (formula: string) => string): void {
    this.journal.follow(cell, rewrite);
  }

  /** Spreadsheet writes are queued, not sent yet. */
  get writesWaiting(): boolean {
    return this.writesQueued;
  }

  /** Apps Script sends what is still queued when the execution's function returns. */
  sendQueuedWrites(): void {
    if (!this.writesQueued) return;
    this.writesQueued = false;
    this.meter.add(ROUND_TRIPS);
    // Past the time limit this throws: the queue is then dropped, not sent.
    this.call('SpreadsheetApp', SEND_QUEUED_WRITES);
    this.journal.clear();
  }

  /** The execution ended without sending its queue (it was killed): its writes are undone. */
  discardQueuedWrites(): void {
    this.writesQueued = false;
    this.journal.rollBack();
  }

  /** In a trigger run, whether Apps Script gives it this part of the document's context. */
  inTriggerWithout(part: keyof TriggerContext): boolean {
    return this.execution?.kind === 'trigger' && !this.triggerContext[part];
  }

  /** An Apps Script exception in the add-on's realm. */
  fail(message: string): never {
    throw this.realm.exception(message);
  }

  private checkTime(): void {
    const run = this.execution;
    if (!run) return;
    const limit = Math.min(
      run.limitMs ?? this.executionLimitMs,
      this.executionLimitMs,
    );
    if (!run.killed && this.clock.now() > run.startMs + limit) {
      run.killed = EXCEEDED_TIME;
    }
    if (run.killed) this.fail(run.killed);
  }

  private checkPermission(service: Service, key: string): void {
    const mode = this.execution?.authMode;
    if (mode !== 'NONE' && mode !== 'LIMITED') return;
    const refused =
      SHOWS_UI.has(key) ||
      USER_DATA.has(key) ||
      NEEDS_FULL.has(service) ||
      (mode === 'NONE' &&
        !ALLOWED_IN_NONE.has(service) &&
        key !== 'SpreadsheetApp.getUi');
    if (refused) {
      const needs = SHOWS_UI.has(key)
        ? CONTAINER_UI_SCOPE
        : 'full authorization';
      this.fail(
        `You do not have permission to call ${key} in AuthMode.${mode}. Required permissions: ${needs}`,
      );
    }
  }
}
