/** What only the sidebar asks for: the accounts to act as, a job's progress, a row to show. */
import {ConfigError} from '../api/errors';
import type {JobProgress, Platform} from '../platform/ports';
import {SettingsStore} from './settings-store';

export const SUB_ACCOUNTS_SHEET = 'Sub-accounts';
const NAME_HEADER = 'sub_adv_user_name';

export interface ActingAccounts {
  /** '' is the main account. */
  current: string;
  /** Names only, never keys. */
  subAccounts: string[];
}

/**
 * The sub-accounts this spreadsheet knows: the names in the Sub-accounts sheet (which the
 * sub-account jobs fill), and the one acted as. The API lists sub-accounts only by name
 * (4.11), so no request is made.
 */
export function actingAccounts(platform: Platform): ActingAccounts {
  const current = new SettingsStore(platform.userProperties).actingAccount(
    platform.documentId(),
  );
  const names = new Set<string>();
  const rows =
    platform.workbook().sheet(SUB_ACCOUNTS_SHEET)?.readValues() ?? [];
  const column = (rows[0] ?? []).findIndex(
    h => String(h).trim() === NAME_HEADER,
  );
  if (column >= 0) {
    for (const row of rows.slice(1)) {
      const name = String(row[column] ?? '').trim();
      if (name) names.add(name);
    }
  }
  if (current) names.add(current);
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
