/**
 * What the add-on remembers for the current user, all in the user's own properties (never
 * document or script properties, which other editors could read): connection settings, the
 * api key, the account acted as in each spreadsheet, and sub-accounts' keys.
 */
import type {Credentials} from '../api/signing';
import type {SubAccountKeyStore} from '../api/credentials';
import type {KeyValueStore} from '../platform/ports';

const PREFIX = 'offerDesk.';
const SETTINGS = `${PREFIX}settings`;
const API_KEY = `${PREFIX}apiKey`;
const SUB_ACCOUNT = `${PREFIX}subAccount.`;
const ACTING = `${PREFIX}acting.`;
const SCHEDULE = `${PREFIX}schedule.`;

export interface Connection {
  baseUrl: string;
  uploadBaseUrl: string;
  accessKey: string;
}

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
    return Number(this.props.get(SCHEDULE + documentId) ?? 0) || 0;
  }

  setRefreshEveryHours(documentId: string, hours: number): void {
    if (hours > 0) this.props.set(SCHEDULE + documentId, String(hours));
    else this.props.remove(SCHEDULE + documentId);
  }

  get(name: string): Credentials | undefined {
    const raw = this.props.get(SUB_ACCOUNT + name);
    return raw ? (JSON.parse(raw) as Credentials) : undefined;
  }

  put(name: string, keys: Credentials): void {
    this.props.set(
      SUB_ACCOUNT + name,
      JSON.stringify({accessKey: keys.accessKey, apiKey: keys.apiKey}),
    );
  }

  drop(name: string): void {
    this.props.remove(SUB_ACCOUNT + name);
  }

  private forgetSubAccounts(): void {
    for (const key of this.props.keys()) {
      if (key.startsWith(SUB_ACCOUNT)) this.props.remove(key);
    }
  }
}
