/**
 * Builds the API clients for the accounts the user acts as in this spreadsheet: the main
 * account, a sub-account whose keys the main account looks up (API part 1), or every account
 * ('*'), each record's requests then signed by the client of its own account (clientFor).
 */
import {ApiClient, ClientDeps, Endpoint} from '../api/client';
import {
  MainAccountCredentials,
  SubAccountCredentials,
} from '../api/credentials';
import {ConfigError} from '../api/errors';
import {getSubAccount} from '../api/operations';
import type {Platform} from '../platform/ports';
import type {SheetState} from '../sheets/pulled';
import type {StateBook} from '../state/book';
import {EVERY_ACCOUNT, SettingsStore} from './settings-store';

export interface Connected {
  /**
   * Signs as the acting account. Acting as every account ('*') it is the main account's
   * client, and a job must sign nothing with it but what the main account owns: each
   * record's requests go through clientFor(the record's account).
   */
  client: ApiClient;
  /** Signs as the main account: sub-account operations need its keys (API part 5, rule 3). */
  mainClient: ApiClient;
  /**
   * The client that signs as `account` ('' the main account, else a sub-account name): one
   * per account per run, keys looked up with the main account's when not kept
   * (SubAccountCredentials). Never called with '*'.
   */
  clientFor(account: string): ApiClient;
  /** The acting account: '' for the main account, a sub-account's name, or '*' for every account. */
  account: string;
  store: SettingsStore;
  /**
   * Which keys these are: an md5 of the base URL and the main account's access key (never a
   * key itself), stored with what a refresh pulls so rows pulled with other keys are told.
   */
  fingerprint: string;
  /** How messages name this connection: its host and the end of its access key. */
  connectionLabel: string;
  /**
   * The time its clients have slept so far before sending again (Retry-After, backoff): the
   * server's refusals, not its pace, which a refresh measures without them.
   */
  waitedMs(): number;
}

export {accountLabel} from '../sheets/accounts';
/** Kept for jobs/scheduled (another branch's): the account of a Scheduled row, any spelling. */
export {accountOfCell as accountOfLabel} from '../sheets/accounts';

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
  let waitedMs = 0;
  const deps: ClientDeps = {
    http: platform.http,
    digest: platform.digest,
    clock: {
      now: () => platform.clock.now(),
      sleep: ms => {
        waitedMs += ms;
        platform.clock.sleep(ms);
      },
    },
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
  // One client per account, so each account's keys are looked up (or refreshed after a
  // refusal) at most once per run, and every client shares the one transport of fetchAll.
  const clients = new Map<string, ApiClient>([['', mainClient]]);
  const clientFor = (name: string): ApiClient => {
    if (name === EVERY_ACCOUNT) {
      throw new Error(
        "clientFor('*'): every account signs nothing; ask for the client of the record's account.",
      );
    }
    let client = clients.get(name);
    if (!client) {
      const credentials = new SubAccountCredentials(name, store, sub => {
        const found = getSubAccount(mainClient, sub);
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
    client: account === EVERY_ACCOUNT ? mainClient : clientFor(account),
    mainClient,
    clientFor,
    account,
    store,
    waitedMs: () => waitedMs,
    ...identity,
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
  if (!state && book.unreadable(sheet)) {
    // The sheet was pulled, but what was pulled is not known: no edit can be told apart.
    throw new ConfigError(
      `What Offer Desk last pulled into ${sheet} could not be read from its hidden state sheet (changed by hand, or written by a later version of Offer Desk), so your edits cannot be told from the server's values: nothing was sent. Run "${refreshTitle}", then check your edits and push.`,
    );
  }
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
