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
import {SettingsStore} from './settings-store';

export interface Connected {
  /** Signs as the acting account. */
  client: ApiClient;
  /** Signs as the main account: sub-account operations need its keys (API part 5, rule 3). */
  mainClient: ApiClient;
  /** '' for the main account. */
  account: string;
  store: SettingsStore;
}

export function accountLabel(account: string): string {
  return account === '' ? 'main account' : `sub-account ${account}`;
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
  if (account === '') return {client: mainClient, mainClient, account, store};
  const credentials = new SubAccountCredentials(account, store, name => {
    const found = getSubAccount(mainClient, name);
    return found
      ? {accessKey: found.access_key, apiKey: found.api_key}
      : undefined;
  });
  return {
    client: new ApiClient(endpoint, credentials, deps),
    mainClient,
    account,
    store,
  };
}
