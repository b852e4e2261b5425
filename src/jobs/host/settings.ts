/** The settings entry points: what the sidebar saves and shows. */
import {ConfigError} from '../../api/errors';
import {getSubAccount} from '../../api/operations';
import {didYouMean, subAccountsHeld} from '../known-accounts';
import {GuardInput, GuardSettings, readGuard} from '../../rules/budget-guard';
import {
  SettingsInput,
  describeFieldErrors,
  settingsProblems,
} from '../../rules/settings';
import type {Platform} from '../../platform/ports';
import {historyLimit} from '../change-log';
import {connect} from '../connect';
import {
  AlertSettings,
  EVERY_ACCOUNT,
  ServerClickDefault,
  SettingsStore,
} from '../settings-store';
import {urlWhitelistProblem} from '../url-whitelist';

/** What the sidebar may see: never the api key, only whether one is stored. */
export interface SettingsView {
  baseUrl: string;
  uploadBaseUrl: string;
  accessKey: string;
  hasApiKey: boolean;
  /** '' the main account, a sub-account's name, or '*' for every account. */
  actingAccount: string;
  refreshEveryHours: number;
  /** support_server_click sent where the add-on does not know it: YES, NO, or '' (ask). */
  supportServerClick: ServerClickDefault;
  /** Rows the History keeps: the sidebar's History size box shows it as soon as it opens. */
  historyLimit: number;
  /** What pushBudgets holds for a yes (rules/budget-guard.ts). */
  guard: GuardSettings;
  /** When alerts are due, and the alert emails a day. */
  alerts: AlertSettings;
}

/**
 * What the sidebar saves: the connection, and optionally the support_server_click default
 * (omitted: the stored one stays; '' or 'ask': ask, that is no default).
 */
export interface SettingsForm extends SettingsInput {
  supportServerClick?: string;
  /** Omitted parts keep what is stored. */
  guard?: GuardInput;
  alerts?: {hours?: number | string; emailsPerDay?: number | string};
}

/** Bounds of the alert settings: a day and a week; MailApp's consumer quota. */
const ALERT_HOURS = [1, 168] as const;
const ALERT_EMAILS = [0, 100] as const;

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
    guard: store.guard(),
    alerts: store.alertSettings(),
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
  const guard = readGuard(s.guard ?? {}, store.guard());
  if (!guard.ok) {
    for (const [field, problem] of Object.entries(guard.problems))
      errors[`guard ${field}`] = problem;
  }
  const alerts = readAlerts(s.alerts ?? {}, store.alertSettings(), errors);
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
  if (s.guard !== undefined && guard.ok) store.setGuard(guard.settings);
  if (s.alerts !== undefined) store.setAlertSettings(alerts);
  return getSettings(platform);
}

/** The alert settings typed (omitted: as stored); a problem is added to `errors`. */
function readAlerts(
  input: NonNullable<SettingsForm['alerts']>,
  stored: AlertSettings,
  errors: Record<string, string | undefined>,
): AlertSettings {
  const whole = (
    raw: number | string | undefined,
    [min, max]: readonly [number, number],
    field: string,
    what: string,
  ): number | undefined => {
    if (raw === undefined || String(raw).trim() === '') return undefined;
    const value = Number(String(raw).trim());
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    errors[field] =
      `must be a whole number from ${min} to ${max} (${what}), not "${String(raw)}"`;
    return undefined;
  };
  return {
    hours:
      whole(
        input.hours,
        ALERT_HOURS,
        'alert hours',
        'hours after which a click URL not passed or an offer still PENDING is an alert',
      ) ?? stored.hours,
    emailsPerDay:
      whole(
        input.emailsPerDay,
        ALERT_EMAILS,
        'alert emails a day',
        'emails of new alerts a scheduled refresh may send a day; 0 sends none',
      ) ?? stored.emailsPerDay,
  };
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
 * Acts as `name` in this spreadsheet from now on: '' the main account, '*' every account (the
 * main account and each of its sub-accounts, DESIGN 4.4), else a sub-account, whose keys are
 * looked up at once, so a wrong name is said now rather than at the next job. Every account
 * needs the connection only: the sub-accounts are found by each job that acts for them.
 */
export function setActingAccount(
  platform: Platform,
  name: string,
): SettingsView {
  const account = String(name ?? '').trim();
  const documentId = platform.documentId();
  if (account === EVERY_ACCOUNT) connect(platform);
  else if (account !== '') {
    const {mainClient, store} = connect(platform);
    const found = getSubAccount(mainClient, account);
    if (!found) {
      const known = subAccountsHeld(platform.workbook(), store);
      throw new ConfigError(
        `The main account has no sub-account named "${account}"${didYouMean(account, known)}.`,
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
