/**
 * What the add-on remembers for the current user, all in the user's own properties (never
 * document or script properties, which other editors could read): connection settings, the
 * api key, the account acted as in each spreadsheet, and sub-accounts' keys.
 */
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
const GUARD = `${PREFIX}budgetGuard`;
const WATCH = `${PREFIX}alerts`;
const ALERT_MAILS = `${PREFIX}alertMails.`;
/** Names kept for the "Act as" list, the latest first. */
export const SEEN_LIMIT = 200;
/** A property value holds at most 9 KB: 200 names of 64 characters would not fit. */
const SEEN_CHARS = 8000;

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
}

/** What a scheduled run emails its owner about; each kind at most once a day. */
export type ProblemKind = 'failed' | 'conflicts' | 'paused';

/** The day (yyyy-mm-dd, the spreadsheet's time zone) each kind was last emailed. */
export type MailedDays = Partial<Record<ProblemKind, string>>;

/** What the last scheduled refresh of a spreadsheet did, for the sidebar. */
export interface ScheduledRun {
  /** When it ended, ms since the epoch. */
  at: number;
  /** 'attention': it ran, and rows need a look; 'skipped': another job held the lock. */
  outcome: 'ok' | 'attention' | 'skipped' | 'error';
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
    this.props.set(SETTINGS, JSON.stringify(connection));
    if (apiKey !== undefined) this.props.set(API_KEY, apiKey);
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

  actingAccount(documentId: string): string {
    return this.props.get(ACTING + documentId) ?? '';
  }

  setActingAccount(documentId: string, name: string): void {
    if (name === '') this.props.remove(ACTING + documentId);
    else this.props.set(ACTING + documentId, name);
  }

  /** Hours between scheduled refreshes of this spreadsheet; 0 when none is set. */
  refreshEveryHours(documentId: string): number {
    return this.schedule(documentId)?.hours ?? 0;
  }

  schedule(documentId: string): Schedule | undefined {
    const raw = this.props.get(SCHEDULE + documentId);
    return raw ? (JSON.parse(raw) as Schedule) : undefined;
  }

  setSchedule(documentId: string, schedule: Schedule | undefined): void {
    if (schedule)
      this.props.set(SCHEDULE + documentId, JSON.stringify(schedule));
    else this.props.remove(SCHEDULE + documentId);
  }

  lastScheduledRun(documentId: string): ScheduledRun | undefined {
    const raw = this.props.get(LAST_RUN + documentId);
    return raw ? (JSON.parse(raw) as ScheduledRun) : undefined;
  }

  setLastScheduledRun(documentId: string, run: ScheduledRun): void {
    this.props.set(LAST_RUN + documentId, JSON.stringify(run));
  }

  /** History rows kept in this spreadsheet before the oldest runs move to an archive sheet. */
  historyLimit(documentId: string): number | undefined {
    const value = Number(this.props.get(HISTORY_LIMIT + documentId));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }

  setHistoryLimit(documentId: string, rows: number): void {
    this.props.set(HISTORY_LIMIT + documentId, String(rows));
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

  setMailedDay(documentId: string, kind: ProblemKind, day: string): void {
    const days = {...this.mailedDays(documentId), [kind]: day};
    this.props.set(MAILED + documentId, JSON.stringify(days));
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
    else this.props.set(SERVER_CLICK, value);
  }

  /** The budget guard (rules/budget-guard.ts): the defaults until the user saves theirs. */
  guard(): GuardSettings {
    const stored = this.json<Partial<GuardSettings>>(GUARD) ?? {};
    return {
      holding: stored.holding ?? DEFAULT_GUARD.holding,
      factor: stored.factor ?? DEFAULT_GUARD.factor,
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

  /** Keeps a sub-account's keys; the name joins those the "Act as" list offers. */
  put(name: string, keys: Credentials): void {
    this.props.set(
      SUB_ACCOUNT + name,
      JSON.stringify({accessKey: keys.accessKey, apiKey: keys.apiKey}),
    );
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
    while (JSON.stringify(names).length > SEEN_CHARS) names.pop();
    this.props.set(SEEN, JSON.stringify(names));
  }

  drop(name: string): void {
    this.props.remove(SUB_ACCOUNT + name);
  }

  private forgetSubAccounts(): void {
    for (const key of this.props.keys()) {
      if (key.startsWith(SUB_ACCOUNT)) this.props.remove(key);
    }
    this.props.remove(SEEN);
  }
}
