/** What only the sidebar asks for: the accounts to act as, a job's progress, a row to show. */
import {ConfigError} from '../../api/errors';
import type {JobProgress, Platform} from '../../platform/ports';
import {EVERY_ACCOUNT, SettingsStore} from '../settings-store';

export const SUB_ACCOUNTS_SHEET = 'Sub-accounts';
const NAME_HEADER = 'sub_adv_user_name';
const KEY_HEADER = 'access_key';

export interface ActingAccounts {
  /** '' is the main account, '*' every account. */
  current: string;
  /** Names only, never keys. */
  subAccounts: string[];
}

/**
 * The sub-accounts to offer: every name the add-on has seen for this user (created, looked up,
 * acted as), the Sub-accounts rows that have an access_key (which Refresh sub-accounts fills),
 * and the one acted as. A row without an access_key is a sub-account not created (yet, or
 * refused): it is not offered. The API lists sub-accounts only by name (4.11), so no request
 * is made.
 */
export function actingAccounts(platform: Platform): ActingAccounts {
  const store = new SettingsStore(platform.userProperties);
  const current = store.actingAccount(platform.documentId());
  const names = new Set<string>(store.seenSubAccounts());
  const rows =
    platform.workbook().sheet(SUB_ACCOUNTS_SHEET)?.readValues() ?? [];
  const header = (name: string) =>
    (rows[0] ?? []).findIndex(h => String(h).trim() === name);
  const column = header(NAME_HEADER);
  const keys = header(KEY_HEADER);
  if (column >= 0 && keys >= 0) {
    for (const row of rows.slice(1)) {
      const name = String(row[column] ?? '').trim();
      if (name && String(row[keys] ?? '').trim()) names.add(name);
    }
  }
  if (current && current !== EVERY_ACCOUNT) names.add(current);
  return {current, subAccounts: [...names].sort()};
}

export function getProgress(platform: Platform): JobProgress | null {
  return platform.progress.read();
}

/** Selects a row the sidebar listed, so the user sees it. */
export function selectRow(
  platform: Platform,
  sheet: string,
  row: number,
): void {
  const line = Number(row);
  if (!Number.isInteger(line) || line < 1) {
    throw new ConfigError(`Row ${String(row)} is not a row number.`);
  }
  if (!platform.ui.selectRow(String(sheet), line)) {
    throw new ConfigError(
      `There is no sheet named "${String(sheet)}" any more: it was renamed or deleted.`,
    );
  }
}
