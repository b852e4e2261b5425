/**
 * Builds the API client for the account the user acts as in this spreadsheet: the main
 * account, or a sub-account whose keys the main account looks up (API part 1).
 */
import {ApiClient, ClientDeps, Endpoint} from '../api/client';
import {
  MainAccountCredentials,
  SubAccountCredentials,
} from '../api/credentials';
import {ConfigError} from '../api/errors';
import {getSubAccount} from '../api/operations';
import type {Platform} from '../platform/ports';
import type {SheetState, StateBook} from '../sheets/state';
import {SettingsStore} from './settings-store';

export interface Connected {
  /** Signs as the acting account. */
  client: ApiClient;
  /** Signs as the main account: sub-account operations need its keys (API part 5, rule 3). */
  mainClient: ApiClient;
  /** '' for the main account. */
  account: string;
  store: SettingsStore;
  /**
   * Which keys these are: an md5 of the base URL and the main account's access key (never a
   * key itself), stored with what a refresh pulls so rows pulled with other keys are told.
   */
  fingerprint: string;
  /** How messages name this connection: its host and the end of its access key. */
  connectionLabel: string;
  /** The client that signs as `account` ('' the main account): one per account per run. */
  clientFor(account: string): ApiClient;
}

export function accountLabel(account: string): string {
  if (account === '*') return 'every account';
  return account === '' ? 'main account' : `sub-account ${account}`;
}

/** The account an accountLabel names (History's account column); undefined for none. */
export function accountOfLabel(label: string): string | undefined {
  const text = label.trim();
  if (text === 'main account') return '';
  return text.startsWith('sub-account ')
    ? text.slice('sub-account '.length)
    : undefined;
}

export function connect(platform: Platform, deadlineMs?: number): Connected {
  const store = new SettingsStore(platform.userProperties);
  const connection = store.connection();
  const main = store.mainCredentials();
  if (!connection || !main) {
    throw new ConfigError(
      'Offer Desk is not connected yet: open Extensions > Offer Desk > Open sidebar and save the base URL, access key and api key.',
    );
  }
  const endpoint: Endpoint = {
    baseUrl: connection.baseUrl,
    uploadBaseUrl: connection.uploadBaseUrl || connection.baseUrl,
  };
  const deps: ClientDeps = {
    http: platform.http,
    digest: platform.digest,
    clock: platform.clock,
    random: platform.random,
    deadlineMs,
  };
  const mainClient = new ApiClient(
    endpoint,
    new MainAccountCredentials(main),
    deps,
  );
  const account = store.actingAccount(platform.documentId());
  const identity = {
    fingerprint: connectionFingerprint(
      platform,
      connection.baseUrl,
      main.accessKey,
    ),
    connectionLabel: connectionLabel(connection.baseUrl, main.accessKey),
  };
  const clients = new Map<string, ApiClient>([['', mainClient]]);
  const clientFor = (name: string): ApiClient => {
    let client = clients.get(name);
    if (!client) {
      const credentials = new SubAccountCredentials(name, store, wanted => {
        const found = getSubAccount(mainClient, wanted);
        return found
          ? {accessKey: found.access_key, apiKey: found.api_key}
          : undefined;
      });
      client = new ApiClient(endpoint, credentials, deps);
      clients.set(name, client);
    }
    return client;
  };
  return {
    client: account === '*' ? mainClient : clientFor(account),
    mainClient,
    account,
    store,
    ...identity,
    clientFor,
  };
}

export function connectionFingerprint(
  platform: Platform,
  baseUrl: string,
  accessKey: string,
): string {
  return platform.digest.md5Hex(`${baseUrl.replace(/\/+$/, '')}\n${accessKey}`);
}

/**
 * What was last pulled into `sheet`, if a push or a revert may act on it now: pulled with
 * these keys, and recording every field this release can push (whichever account acts: each
 * record is its account's, and is signed with its keys). Otherwise a
 * ConfigError says what to do; nothing is sent.
 */
export function pulledByThisConnection(
  book: StateBook,
  sheet: string,
  refreshTitle: string,
  connected: Connected,
): SheetState {
  const state = book.get(sheet);
  if (!state) {
    throw new ConfigError(
      `${sheet} has not been refreshed in this spreadsheet yet: run "${refreshTitle}" first, then edit and push.`,
    );
  }
  if (state.connection && state.connection !== connected.fingerprint) {
    throw new ConfigError(
      `${sheet} was refreshed with other keys (${state.connectionLabel || 'another connection'}), but you are connected with ${connected.connectionLabel}: nothing was sent. Connect with those keys to push what was edited under them, or run "${refreshTitle}" with yours first.`,
    );
  }
  if (state.unrecorded && state.unrecorded.length > 0) {
    throw new ConfigError(
      `${sheet} was last refreshed by an earlier version of Offer Desk, which did not record ${state.unrecorded.join(', ')}: run "${refreshTitle}" once (your unpushed edits are kept), then push. Nothing was sent.`,
    );
  }
  return state;
}

/** "api.example.com, access key …1a2b": enough to tell two connections apart. */
export function connectionLabel(baseUrl: string, accessKey: string): string {
  const host = /^[a-z]+:\/\/([^/]+)/i.exec(baseUrl)?.[1] ?? baseUrl;
  return `${host}, access key …${accessKey.slice(-4)}`;
}
