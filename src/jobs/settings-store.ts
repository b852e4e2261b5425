/**
 * What the add-on remembers for the current user, all in the user's own properties (never
 * document or script properties, which other editors could read): connection settings, the
 * api key, the account acted as in each spreadsheet, and sub-accounts' keys.
 *
 * Google bounds a property store: 9 KB a value, 500 KB a store (the quotas page), counted here
 * in UTF-8 bytes with the key, the stricter reading. A value too large is never sent; what is
 * kept per spreadsheet is forgotten for the spreadsheets used longest ago (those with a
 * schedule last), past KEPT_SPREADSHEETS of them or when Google says the store is full. A
 * write that still cannot be kept answers false: the caller says what was not remembered,
 * and a finished job never becomes an Apps Script error for it.
 */
import {ConfigError} from '../api/errors';
import type {Credentials} from '../api/signing';
import type {SubAccountKeyStore} from '../api/credentials';
import type {KeyValueStore} from '../platform/ports';
import {DEFAULT_GUARD, GuardSettings} from '../rules/budget-guard';

const PREFIX = 'offerDesk.';
const SETTINGS = `${PREFIX}settings`;
const API_KEY = `${PREFIX}apiKey`;
const SUB_ACCOUNT = `${PREFIX}subAccount.`;
const ACTING = `${PREFIX}acting.`;
const SCHEDULE = `${PREFIX}schedule.`;
const LAST_RUN = `${PREFIX}lastScheduledRun.`;
const MAILED = `${PREFIX}scheduleMailed.`;
const SERVER_CLICK = `${PREFIX}supportServerClickDefault`;
const SEEN = `${PREFIX}seenSubAccounts`;
const HISTORY_LIMIT = `${PREFIX}historyLimit.`;
const GRACE = `${PREFIX}scheduledGraceHours.`;
const SCHEDULED_BY_ME = `${PREFIX}scheduledChanges.`;
const GUARD = `${PREFIX}budgetGuard`;
const WATCH = `${PREFIX}alerts`;
const ALERT_MAILS = `${PREFIX}alertMails.`;
const SIDEBAR_STATE = `${PREFIX}sidebarState.`;
/** Spreadsheet ids, the one written to last first. */
const SPREADSHEETS = `${PREFIX}spreadsheets`;
/** What is kept per spreadsheet: each of these followed by the spreadsheet's id. */
const PER_SPREADSHEET = [
  ACTING,
  SCHEDULE,
  LAST_RUN,
  MAILED,
  HISTORY_LIMIT,
  GRACE,
  SCHEDULED_BY_ME,
  SIDEBAR_STATE,
  ALERT_MAILS,
];
/**
 * Spreadsheets whose settings are kept: about 12 KB each at most, so 30 of them and the
 * sub-accounts' keys stay well inside the 500 KB a store holds.
 */
export const KEPT_SPREADSHEETS = 30;
/** Google's limits for one property value and for a whole store, in bytes (the quotas page). */
export const PROPERTY_VALUE_BYTES = 9 * 1024;
export const PROPERTY_STORE_BYTES = 500 * 1024;
/** Apps Script's words when a write would take a store past its 500 KB, or a value past 9 KB. */
const STORE_FULL = /property storage quota|argument too large/i;
/** Said wherever something could not be remembered because the store is full. */
export const STORE_FULL_NOTE =
  "your Google account's storage for Offer Desk is full (500 KB of user properties)";
/** Names kept for the "Act as" list, the latest first. */
export const SEEN_LIMIT = 200;
/** A property value holds at most 9 KB: 200 names of 64 characters would not fit. */
const SEEN_BYTES = 8000;

export {EVERY_ACCOUNT} from '../sheets/accounts';

/** The bytes `text` takes in UTF-8, as Google counts a property (a lone surrogate: 3). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function isStoreFull(e: unknown): boolean {
  return STORE_FULL.test(e instanceof Error ? e.message : String(e));
}

/** Whether a key and its value fit one property, counted as Google may count them. */
export function fitsProperty(key: string, value: string): boolean {
  return utf8Bytes(key) + utf8Bytes(value) <= PROPERTY_VALUE_BYTES;
}

export interface Connection {
  baseUrl: string;
  uploadBaseUrl: string;
  accessKey: string;
}

/** The scheduled refresh of one spreadsheet. */
export interface Schedule {
  /** Hours between runs: 1, 2, 4, 6, 8 or 12; 24 is once a day. */
  hours: number;
  /** Once a day only: the hour of the spreadsheet's day; absent, Apps Script picks one. */
  hourOfDay?: number;
  /** The refresh entry point it runs. */
  job: string;
  /** Scheduled runs that failed in a row; a run that got through resets it. */
  failures?: number;
  /** Set when it paused itself after failing too often: its trigger is gone until saved again. */
  paused?: {at: number; reason: string};
  /** The spreadsheet it refreshes: its trigger's run checks it is there (absent before 2026-11). */
  spreadsheetId?: string;
  /** Its trigger's id (Trigger.getUniqueId, the event's triggerUid). */
  triggerId?: string;
  /**
   * 1 while scheduled changes wait and `hours` is more: the trigger fires hourly, so a change
   * goes out within the hour after its time, and the refresh runs every `hours` still.
   */
  triggerHours?: number;
  /** When the refresh last ran while the trigger fires hourly (ms). */
  refreshedAt?: number;
  /**
   * The UrlFetch calls one run is expected to make, as priced when saved and by each
   * scheduled run since (absent before issue 33): a person's schedules share one daily quota,
   * so each check counts the others'.
   */
  requests?: number;
  /** The spreadsheet's name when saved or last run: how the others' checks name it. */
  name?: string;
}

/** What a scheduled run emails its owner about; each kind at most once a day. */
export type ProblemKind =
  'failed' | 'conflicts' | 'accounts' | 'paused' | 'authorization' | 'misfired';

/** The day (yyyy-mm-dd, the spreadsheet's time zone) each kind was last emailed. */
export type MailedDays = Partial<Record<ProblemKind, string>>;

/** What the last scheduled refresh of a spreadsheet did, for the sidebar. */
export interface ScheduledRun {
  /** When it ended, ms since the epoch. */
  at: number;
  /**
   * 'attention': it ran, and rows need a look; 'skipped': another job held the lock;
   * 'error': it failed (five in a row pause the schedule). Not run, and no failure of the
   * refresh: 'unauthorized' (the user must authorize the add-on again), 'quota' (Google's
   * daily time for triggers is used up), 'misfired' (its trigger ran without this spreadsheet).
   * 'unfinished': written as a run starts, replaced as it ends; still there, Apps Script
   * stopped it (the next run counts it as a failure).
   */
  outcome:
    | 'unfinished'
    | 'ok'
    | 'attention'
    | 'skipped'
    | 'error'
    | 'unauthorized'
    | 'quota'
    | 'misfired';
  message: string;
  /** What became of the email about it, when it had a problem to tell. */
  email?: string;
}

/** When an alert is due, and how many alert emails a day a scheduled refresh may send. */
export interface AlertSettings {
  /** Hours after its creation or tracking an offer's click URL must have passed its test, and after its start_time it must have left PENDING. */
  hours: number;
  /** Alert digests a day at most (0: none). */
  emailsPerDay: number;
}

export const DEFAULT_ALERTS: AlertSettings = {hours: 6, emailsPerDay: 10};

/** Alert digests sent from one spreadsheet on one day (yyyy-mm-dd, its time zone). */
export interface AlertMails {
  day: string;
  count: number;
}

/** support_server_click when the add-on does not know it: '' asks the user row by row. */
export type ServerClickDefault = 'YES' | 'NO' | '';

export class SettingsStore implements SubAccountKeyStore {
  constructor(private readonly props: KeyValueStore) {}

  connection(): Connection | undefined {
    const raw = this.props.get(SETTINGS);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Connection;
    return {
      baseUrl: parsed.baseUrl ?? '',
      uploadBaseUrl: parsed.uploadBaseUrl || parsed.baseUrl || '',
      accessKey: parsed.accessKey ?? '',
    };
  }

  /** Saves the connection; a different account or host forgets sub-accounts' keys. */
  saveConnection(connection: Connection, apiKey: string | undefined): void {
    const before = this.connection();
    if (
      before &&
      (before.accessKey !== connection.accessKey ||
        before.baseUrl !== connection.baseUrl)
    ) {
      this.forgetSubAccounts();
    }
    if (
      !this.keep(SETTINGS, JSON.stringify(connection)) ||
      (apiKey !== undefined && !this.keep(API_KEY, apiKey))
    ) {
      throw new ConfigError(
        `Settings not saved: ${STORE_FULL_NOTE}. Turn off scheduled refreshes of spreadsheets you no longer use, or remove Offer Desk's access in your Google account and connect again.`,
      );
    }
  }

  hasApiKey(): boolean {
    return !!this.props.get(API_KEY);
  }

  /** The main account's keys, or undefined until both are saved. */
  mainCredentials(): Credentials | undefined {
    const accessKey = this.connection()?.accessKey;
    const apiKey = this.props.get(API_KEY);
    return accessKey && apiKey ? {accessKey, apiKey} : undefined;
  }

  /** '' the main account, a sub-account's name, or EVERY_ACCOUNT, kept as it was set. */
  actingAccount(documentId: string): string {
    return this.props.get(ACTING + documentId) ?? '';
  }

  setActingAccount(documentId: string, name: string): void {
    if (name === '') this.props.remove(ACTING + documentId);
    else if (!this.keepFor(documentId, ACTING, name)) {
      throw new ConfigError(
        `The account to act as was not saved: ${STORE_FULL_NOTE}. Turn off scheduled refreshes of spreadsheets you no longer use, then try again.`,
      );
    }
  }

  /** Hours between scheduled refreshes of this spreadsheet; 0 when none is set. */
  refreshEveryHours(documentId: string): number {
    return this.schedule(documentId)?.hours ?? 0;
  }

  schedule(documentId: string): Schedule | undefined {
    const raw = this.props.get(SCHEDULE + documentId);
    return raw ? (JSON.parse(raw) as Schedule) : undefined;
  }

  /** False when it could not be remembered (the store is full). */
  setSchedule(documentId: string, schedule: Schedule | undefined): boolean {
    if (schedule)
      return this.keepFor(documentId, SCHEDULE, JSON.stringify(schedule));
    this.props.remove(SCHEDULE + documentId);
    return true;
  }

  /** Every schedule this person keeps, by spreadsheet. */
  schedules(): Array<{documentId: string; schedule: Schedule}> {
    return this.props
      .keys()
      .filter(key => key.startsWith(SCHEDULE))
      .flatMap(key => {
        const documentId = key.slice(SCHEDULE.length);
        const schedule = this.schedule(documentId);
        return schedule ? [{documentId, schedule}] : [];
      });
  }

  /**
   * The spreadsheet whose schedule runs by that trigger, with its schedule: the trigger's run
   * finds its own record even where Apps Script gives it no active spreadsheet.
   */
  scheduleOfTrigger(
    triggerId: string,
  ): {documentId: string; schedule: Schedule} | undefined {
    for (const key of this.props.keys()) {
      if (!key.startsWith(SCHEDULE)) continue;
      const documentId = key.slice(SCHEDULE.length);
      const schedule = this.schedule(documentId);
      if (schedule?.triggerId === triggerId) return {documentId, schedule};
    }
    return undefined;
  }

  lastScheduledRun(documentId: string): ScheduledRun | undefined {
    const raw = this.props.get(LAST_RUN + documentId);
    return raw ? (JSON.parse(raw) as ScheduledRun) : undefined;
  }

  /** False when it could not be remembered (the store is full). */
  setLastScheduledRun(documentId: string, run: ScheduledRun): boolean {
    return this.keepFor(documentId, LAST_RUN, JSON.stringify(run));
  }

  /** What the sidebar shows that changed outside it (sidebar-state.ts), as JSON. */
  sidebarState(documentId: string): string | null {
    return this.props.get(SIDEBAR_STATE + documentId);
  }

  /** False when it could not be remembered (too large, or the store is full). */
  setSidebarState(documentId: string, json: string): boolean {
    return this.keepFor(documentId, SIDEBAR_STATE, json);
  }

  /** History rows kept in this spreadsheet before the oldest runs move to an archive sheet. */
  historyLimit(documentId: string): number | undefined {
    const value = Number(this.props.get(HISTORY_LIMIT + documentId));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }

  setHistoryLimit(documentId: string, rows: number): void {
    if (!this.keepFor(documentId, HISTORY_LIMIT, String(rows))) {
      throw new ConfigError(
        `The History size was not saved: ${STORE_FULL_NOTE}. Turn off scheduled refreshes of spreadsheets you no longer use, then try again.`,
      );
    }
  }

  /**
   * Hours after its time that a scheduled change may still go out (the schedule was paused,
   * or authorization needed): later, it is missed, never sent days late.
   */
  scheduledGraceHours(documentId: string): number | undefined {
    const value = Number(this.props.get(GRACE + documentId));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  }

  setScheduledGraceHours(documentId: string, hours: number): void {
    if (!this.keepFor(documentId, GRACE, String(hours))) {
      throw new ConfigError(
        `The grace for scheduled changes was not saved: ${STORE_FULL_NOTE}. Turn off scheduled refreshes of spreadsheets you no longer use, then try again.`,
      );
    }
  }

  /**
   * The changes this person scheduled in the spreadsheet and not yet settled: only their own
   * runs send them, with their keys (another editor's run leaves them alone).
   */
  scheduledChanges(documentId: string): string[] {
    const ids = this.json<unknown>(SCHEDULED_BY_ME + documentId);
    return Array.isArray(ids) ? ids.map(String) : [];
  }

  /** False when the store is full: nothing was saved. */
  setScheduledChanges(documentId: string, ids: readonly string[]): boolean {
    if (ids.length > 0)
      return this.keepFor(documentId, SCHEDULED_BY_ME, JSON.stringify(ids));
    this.props.remove(SCHEDULED_BY_ME + documentId);
    return true;
  }

  /**
   * Kept apart from the schedule, so saving the schedule again (which resumes a paused one)
   * does not reset "at most one email a day".
   */
  mailedDays(documentId: string): MailedDays {
    const raw = this.props.get(MAILED + documentId);
    if (!raw) return {};
    try {
      const days: unknown = JSON.parse(raw);
      return days && typeof days === 'object' ? (days as MailedDays) : {};
    } catch {
      return {}; // written by no version of ours: at worst one email too many
    }
  }

  /** False when it could not be remembered (the store is full). */
  setMailedDay(documentId: string, kind: ProblemKind, day: string): boolean {
    const days = {...this.mailedDays(documentId), [kind]: day};
    return this.keepFor(documentId, MAILED, JSON.stringify(days));
  }

  /**
   * What a tracking push sends as support_server_click for an offer whose value the add-on does
   * not know (never sent by it): 'YES', 'NO', or '' to ask (the row is INVALID until decided).
   */
  serverClickDefault(): ServerClickDefault {
    const value = this.props.get(SERVER_CLICK);
    return value === 'YES' || value === 'NO' ? value : '';
  }

  setServerClickDefault(value: ServerClickDefault): void {
    if (value === '') this.props.remove(SERVER_CLICK);
    else if (!this.keep(SERVER_CLICK, value)) {
      throw new ConfigError(`Settings not saved: ${STORE_FULL_NOTE}.`);
    }
  }

  /** The budget guard (rules/budget-guard.ts): the defaults until the user saves theirs. */
  guard(): GuardSettings {
    const stored = this.json<Partial<GuardSettings>>(GUARD) ?? {};
    return {
      holding: stored.holding ?? DEFAULT_GUARD.holding,
      factor: stored.factor ?? DEFAULT_GUARD.factor,
      cutFactor: stored.cutFactor ?? DEFAULT_GUARD.cutFactor,
      ceilings: stored.ceilings ?? DEFAULT_GUARD.ceilings,
    };
  }

  setGuard(settings: GuardSettings): void {
    this.props.set(GUARD, JSON.stringify(settings));
  }

  alertSettings(): AlertSettings {
    return {...DEFAULT_ALERTS, ...this.json<Partial<AlertSettings>>(WATCH)};
  }

  setAlertSettings(settings: AlertSettings): void {
    this.props.set(WATCH, JSON.stringify(settings));
  }

  alertMails(documentId: string): AlertMails | undefined {
    return this.json<AlertMails>(ALERT_MAILS + documentId);
  }

  setAlertMails(documentId: string, mails: AlertMails): void {
    this.props.set(ALERT_MAILS + documentId, JSON.stringify(mails));
  }

  /** A stored object; undefined when absent or written by no version of ours. */
  private json<T>(key: string): T | undefined {
    const raw = this.props.get(key);
    if (!raw) return undefined;
    try {
      const value: unknown = JSON.parse(raw);
      return value && typeof value === 'object' ? (value as T) : undefined;
    } catch {
      return undefined;
    }
  }

  get(name: string): Credentials | undefined {
    const raw = this.props.get(SUB_ACCOUNT + name);
    return raw ? (JSON.parse(raw) as Credentials) : undefined;
  }

  /**
   * Keeps a sub-account's keys; the name joins those the "Act as" list offers. A full store
   * keeps neither: the keys are looked up again when next needed.
   */
  put(name: string, keys: Credentials): void {
    const raw = JSON.stringify({
      accessKey: keys.accessKey,
      apiKey: keys.apiKey,
    });
    if (!this.keep(SUB_ACCOUNT + name, raw)) return;
    this.remember(name);
  }

  /**
   * Every sub-account name whose keys the add-on got (created, looked up, acted as), the latest
   * first: the API cannot list sub-accounts (4.11 looks one up by name), so this is what the
   * "Act as" list offers. A name that failed to create never got keys, so it is not here.
   */
  seenSubAccounts(): string[] {
    const raw = this.props.get(SEEN);
    if (!raw) return [];
    try {
      const names: unknown = JSON.parse(raw);
      return Array.isArray(names) ? names.map(String) : [];
    } catch {
      return []; // written by no version of ours: offer nothing rather than fail the sidebar
    }
  }

  private remember(name: string): void {
    const seen = this.seenSubAccounts();
    if (seen[0] === name) return;
    const names = [name, ...seen.filter(n => n !== name)].slice(0, SEEN_LIMIT);
    while (utf8Bytes(JSON.stringify(names)) > SEEN_BYTES) names.pop();
    this.keep(SEEN, JSON.stringify(names));
  }

  drop(name: string): void {
    this.props.remove(SUB_ACCOUNT + name);
  }

  /**
   * Writes what is kept for a spreadsheet, which becomes the one used last; past
   * KEPT_SPREADSHEETS, what is kept for the one used longest ago goes.
   */
  private keepFor(documentId: string, prefix: string, value: string): boolean {
    if (!this.keep(prefix + documentId, value, documentId)) return false;
    const order = this.spreadsheets();
    if (order[0] === documentId) return true;
    const next = [documentId, ...order.filter(id => id !== documentId)];
    while (next.length > KEPT_SPREADSHEETS) {
      const oldest = this.oldestForgettable(next, documentId);
      if (oldest === undefined) break;
      this.forgetSpreadsheet(oldest);
      if (next.includes(oldest)) next.splice(next.indexOf(oldest), 1);
    }
    // The order is a hint for what to forget first: never worth forgetting anything for.
    const json = JSON.stringify(next);
    if (fitsProperty(SPREADSHEETS, json)) {
      try {
        this.props.set(SPREADSHEETS, json);
      } catch (e) {
        if (!isStoreFull(e)) throw e;
      }
    }
    return true;
  }

  /**
   * One property, within Google's bounds: a value too large is not sent; a store Google says
   * is full first forgets the spreadsheets used longest ago (never `current`), one at a time.
   * False when it could not be kept.
   */
  private keep(key: string, value: string, current?: string): boolean {
    if (!fitsProperty(key, value)) return false;
    for (;;) {
      try {
        this.props.set(key, value);
        return true;
      } catch (e) {
        if (!isStoreFull(e)) throw e;
      }
      // The order of use keeps the id forgotten: ids with nothing kept are passed over.
      const oldest = this.oldestForgettable(this.spreadsheets(), current);
      if (oldest === undefined) return false;
      this.forgetSpreadsheet(oldest);
    }
  }

  /** Spreadsheet ids, the one written to last first. */
  private spreadsheets(): string[] {
    const raw = this.props.get(SPREADSHEETS);
    try {
      const ids: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(ids) ? ids.map(String) : [];
    } catch {
      return []; // written by no version of ours: forget by the keys alone
    }
  }

  /**
   * The spreadsheet to forget first: one whose settings predate the order of use, else the one
   * used longest ago; never one with a schedule, whose trigger reads them (a person has at
   * most 20 triggers, so these are few).
   */
  private oldestForgettable(
    order: readonly string[],
    current: string | undefined,
  ): string | undefined {
    const keys = this.props.keys();
    const kept = new Set<string>();
    for (const key of keys) {
      const prefix = PER_SPREADSHEET.find(p => key.startsWith(p));
      if (prefix) kept.add(key.slice(prefix.length));
    }
    const unordered = [...kept].filter(id => !order.includes(id));
    const candidates = [...unordered, ...[...order].reverse()].filter(
      id => id !== current && kept.has(id),
    );
    const scheduled = new Set(
      keys
        .filter(k => k.startsWith(SCHEDULE))
        .map(k => k.slice(SCHEDULE.length)),
    );
    return candidates.find(id => !scheduled.has(id));
  }

  private forgetSpreadsheet(documentId: string): void {
    for (const prefix of PER_SPREADSHEET)
      this.props.remove(prefix + documentId);
  }

  private forgetSubAccounts(): void {
    for (const key of this.props.keys()) {
      if (key.startsWith(SUB_ACCOUNT)) this.props.remove(key);
    }
    this.props.remove(SEEN);
  }
}
