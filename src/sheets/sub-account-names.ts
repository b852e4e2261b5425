/**
 * The sub-accounts the Sub-accounts sheet names: what a refresh of sub-accounts looks up, and,
 * acting as every account, the accounts a job acts for besides the listing's.
 */
import type {Workbook} from '../platform/ports';
import {isBlank} from './cell';
import {SUB_ACCOUNTS} from './schemas/sub-accounts';
import {cellOf, openTable} from './table';

/** The names of the sheet's sub-accounts (rows waiting for creation aside). */
export function subAccountNamesInSheet(workbook: Workbook): string[] {
  const table = openTable(workbook, SUB_ACCOUNTS, {create: false});
  if (!table) return [];
  const names = table.values
    .map((_, i) => i)
    .filter(i => !SUB_ACCOUNTS.awaitsCreation!(h => cellOf(table, i, h)))
    .map(i => String(cellOf(table, i, 'sub_adv_user_name')).trim())
    .filter(name => !isBlank(name));
  return [...new Set(names)];
}
