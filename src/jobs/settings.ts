/** The settings entry points: what the sidebar saves and shows. */
import {ConfigError} from '../api/errors';
import {getSubAccount} from '../api/operations';
import {
  SettingsInput,
  describeFieldErrors,
  settingsProblems,
} from '../rules/settings';
import type {Platform} from '../platform/ports';
import {historyLimit} from './change-log';
import {connect} from './connect';
import {ServerClickDefault, SettingsStore} from './settings-store';
import {urlWhitelistProblem} from './url-whitelist';

/** What the sidebar may see: never the api key, only whether one is stored. */
export interface SettingsView {
  baseUrl: string;
  uploadBaseUrl: string;
  accessKey: string;
  hasApiKey: boolean;
  actingAccount: string;
  refreshEveryHours: number;
  /** support_server_click sent where the add-on does not know it: YES, NO, or '' (ask). */
  supportServerClick: ServerClickDefault;
  /** Rows the History keeps: the sidebar's History size box shows it as soon as it opens. */
  historyLimit: number;
}

/**
 * What the sidebar saves: the connection, and optionally the support_server_click default
 * (omitted: the stored one stays; '' or 'ask': ask, that is no default).
 */
export interface SettingsForm extends SettingsInput {
  supportServerClick?: string;
}

export function getSettings(platform: Platform): SettingsView {
  const store = new SettingsStore(platform.userProperties);
  const connection = store.connection();
  const documentId = platform.documentId();
  return {
    baseUrl: connection?.baseUrl ?? '',
    uploadBaseUrl: connection?.uploadBaseUrl ?? '',
    accessKey: connection?.accessKey ?? '',
    hasApiKey: store.hasApiKey(),
    actingAccount: store.actingAccount(documentId),
    refreshEveryHours: store.refreshEveryHours(documentId),
    supportServerClick: store.serverClickDefault(),
    historyLimit: historyLimit(platform),
  };
}

/** Validates and stores the connection; an omitted or blank api key keeps the stored one. */
export function saveSettings(
  platform: Platform,
  input: SettingsForm,
): SettingsView {
  const store = new SettingsStore(platform.userProperties);
  const s = input ?? ({} as SettingsForm);
  const errors: Record<string, string | undefined> = settingsProblems(
    s,
    store.hasApiKey(),
  );
  const serverClick = serverClickDefault(s.supportServerClick);
  if (serverClick === undefined) {
    errors.supportServerClick =
      'must be YES, NO or ask (what pushTracking sends as support_server_click where it is not known)';
  }
  const baseUrl = String(s.baseUrl ?? '')
    .trim()
    .replace(/\/+$/, '');
  const uploadBaseUrl = String(s.uploadBaseUrl ?? '')
    .trim()
    .replace(/\/+$/, '');
  errors.baseUrl ??= urlWhitelistProblem(baseUrl);
  if (uploadBaseUrl)
    errors.uploadBaseUrl ??= urlWhitelistProblem(uploadBaseUrl);
  for (const key of Object.keys(errors)) {
    if (errors[key] === undefined) delete errors[key];
  }
  if (Object.keys(errors).length > 0) {
    throw new ConfigError(
      `Settings not saved: ${describeFieldErrors(errors)}.`,
    );
  }
  const apiKey = s.apiKey?.trim();
  store.saveConnection(
    {
      baseUrl,
      uploadBaseUrl: uploadBaseUrl || baseUrl,
      accessKey: s.accessKey.trim(),
    },
    apiKey ? apiKey : undefined,
  );
  if (s.supportServerClick !== undefined)
    store.setServerClickDefault(serverClick!);
  return getSettings(platform);
}

/** The default as typed; undefined when it is none of YES, NO, ask (or empty). */
function serverClickDefault(
  raw: string | undefined,
): ServerClickDefault | undefined {
  const value = String(raw ?? '')
    .trim()
    .toUpperCase();
  if (value === '' || value === 'ASK') return '';
  return value === 'YES' || value === 'NO' ? value : undefined;
}

/**
 * Acts as `name` in this spreadsheet from now on ('' is the main account). A sub-account's
 * keys are looked up at once, so a wrong name is said now rather than at the next job.
 */
export function setActingAccount(
  platform: Platform,
  name: string,
): SettingsView {
  const account = String(name ?? '').trim();
  const documentId = platform.documentId();
  if (account !== '') {
    const {mainClient, store} = connect(platform);
    const found = getSubAccount(mainClient, account);
    if (!found) {
      throw new ConfigError(
        `The main account has no sub-account named "${account}".`,
      );
    }
    store.put(account, {accessKey: found.access_key, apiKey: found.api_key});
  }
  new SettingsStore(platform.userProperties).setActingAccount(
    documentId,
    account,
  );
  return getSettings(platform);
}
