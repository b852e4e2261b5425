/**
 * Whose a row is (DESIGN 4.3, 4.4): every record sheet has an `account` column, and a record's
 * identity is its account and its id. Inside the add-on an account is an `Account`: '' (the
 * main account), a sub-account's `sub_adv_user_name`, or EVERY_ACCOUNT for the acting account
 * that stands for them all. This module is the one place that shows or reads one: its cell
 * text, the same in every sheet (record sheets, History, Scheduled, Alerts) so one filter finds
 * an account's rows everywhere, and its label, as sentences name it.
 */

/** '' the main account, a sub-account's name, or EVERY_ACCOUNT. */
export type Account = string;

export const ACCOUNT = 'account';

/** The acting account that stands for the main account and every sub-account (DESIGN 4.4). */
export const EVERY_ACCOUNT: Account = '*';

/**
 * How a cell names the main account. Parentheses and a space: the add-on's label, which no
 * sub-account's rows can be taken for. A sub-account is its bare name, readable in a narrow
 * column ("demo_sub_a", never "sub-account de…").
 */
export const MAIN_ACCOUNT_CELL = '(main account)';
const EVERY_ACCOUNT_CELL = '(every account)';

/** The `account` cell of an account's rows, and of its History, Scheduled and Alerts rows. */
export function accountCell(account: Account): string {
  if (account === EVERY_ACCOUNT) return EVERY_ACCOUNT_CELL;
  return account === '' ? MAIN_ACCOUNT_CELL : account;
}

/** How a sentence names an account: 'main account', 'sub-account NAME', 'every account'. */
export function accountLabel(account: Account): string {
  if (account === EVERY_ACCOUNT) return 'every account';
  return account === '' ? 'main account' : `sub-account ${account}`;
}

/** Text with its spaces made one and its case lowered: how labels are compared. */
const folded = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();

/**
 * The account a cell names, or undefined for an empty cell (what it means is the job's to
 * say: the acting account for a new row, the one account an older state knew for a pulled
 * one). Read in this release's spelling and in the ones before it: History, Scheduled and
 * Alerts wrote the label ("main account", "sub-account NAME") until issue 33, and such rows
 * must still be reverted, sent and filtered. The labels are read whatever their case and
 * spacing.
 */
export function accountOfCell(cell: unknown): Account | undefined {
  const text = cell === null || cell === undefined ? '' : String(cell).trim();
  if (text === '') return undefined;
  const label = folded(text);
  if (label === MAIN_ACCOUNT_CELL || label === 'main account') return '';
  if (label === EVERY_ACCOUNT_CELL || label === 'every account')
    return EVERY_ACCOUNT;
  return /^sub-account\s/i.test(text)
    ? text.replace(/^sub-account\s+/i, '')
    : text;
}

/** Any spelling of an account, as this release writes it; '' stays ''. */
export function accountCellOf(text: string): string {
  const account = accountOfCell(text);
  return account === undefined ? '' : accountCell(account);
}

/** Between account and id in a record key: no account name or id holds it. */
const SEPARATOR = '\u001f';

/** A record's identity as one string: the key of its state and of its rows. */
export function recordKey(account: string, id: string): string {
  return `${account}${SEPARATOR}${id}`;
}

/** The account and id of a record key. */
export function keyParts(key: string): {account: string; id: string} {
  const at = key.indexOf(SEPARATOR);
  return at < 0
    ? {account: '', id: key}
    : {account: key.slice(0, at), id: key.slice(at + SEPARATOR.length)};
}
