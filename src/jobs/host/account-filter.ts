/**
 * "Show one account's rows" (issues 25, 33): every record sheet, History, Scheduled and Alerts
 * filtered on its `account` column to the rows of one account, with Sheets' own basic filter, so a user sees and edits one
 * client at a time and clears it as any filter. Nothing is sent; no cell changes.
 */
import {ConfigError} from '../../api/errors';
import type {Platform} from '../../platform/ports';
import {ACCOUNT, accountOfCell} from '../../sheets/accounts';
import {SCHEMAS} from '../../sheets/schemas';
import {cellOf, openTable} from '../../sheets/table';
import {accountLabel} from '../connect';
import {EVERY_ACCOUNT} from '../settings-store';

export interface AccountShown {
  /** The sheets filtered (or cleared). */
  sheets: string[];
  message: string;
}

/**
 * Filters each sheet with an account column to `account`'s rows ('' the main account); '*'
 * shows every account's rows again. A row with an empty account cell is hidden with the others: whose it
 * is, only a refresh says.
 */
export function showAccount(
  platform: Platform,
  account: unknown,
): AccountShown {
  if (typeof account !== 'string') {
    throw new ConfigError('Show rows of: choose an account.');
  }
  const every = account === EVERY_ACCOUNT;
  const shown = accountOfCell(account.trim()) ?? '';
  const workbook = platform.workbook();
  const sheets: string[] = [];
  // History, Scheduled and Alerts too: an account is written one way in every sheet (and
  // read in the spellings of earlier releases), so one filter finds its rows everywhere.
  for (const schema of SCHEMAS.filter(
    s => s.account || s.columns.some(c => c.header === ACCOUNT),
  )) {
    const table = openTable(workbook, schema, {create: false});
    const at = table?.position.get(ACCOUNT);
    if (!table || at === undefined) continue;
    const cells = new Set(
      table.values.map((_, i) => String(cellOf(table, i, ACCOUNT))),
    );
    table.sheet.filterColumn(
      at + 1,
      every ? null : [...cells].filter(cell => accountOfCell(cell) !== shown),
    );
    sheets.push(schema.name);
  }
  const where = sheets.length > 0 ? sheets.join(', ') : 'no sheet yet';
  return {
    sheets,
    message: every
      ? `Every account's rows are shown (${where}).`
      : `Only the rows of the ${accountLabel(account.trim())} are shown (${where}): Data > Remove filter, or Show every account, shows the others again.`,
  };
}
