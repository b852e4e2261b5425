/**
 * Whose a row is (DESIGN 4.3, 4.4): every record sheet has an `account` column, and a record's
 * identity is its account and its id. Inside the add-on an account is '' (the main account) or
 * a sub-account's `sub_adv_user_name`; a cell shows the main account as MAIN_ACCOUNT_CELL.
 */

export const ACCOUNT = 'account';

/**
 * How the `account` cell names the main account. Parentheses and a space: a sub-account name
 * never holds them, as Create sub-accounts refuses such a name (rules/sub-account.ts), so no
 * sub-account's rows can be taken for the main account's.
 */
export const MAIN_ACCOUNT_CELL = '(main account)';

/** The `account` cell of an account's rows. */
export function accountCell(account: string): string {
  return account === '' ? MAIN_ACCOUNT_CELL : account;
}

/**
 * The account an `account` cell names, or undefined for an empty cell (what it means is the
 * job's to say: the acting account for a new row, the one account an older state knew for a
 * pulled one). The main account's label is read whatever its case and spacing.
 */
export function accountOfCell(cell: unknown): string | undefined {
  const text = cell === null || cell === undefined ? '' : String(cell).trim();
  if (text === '') return undefined;
  return text.replace(/\s+/g, ' ').toLowerCase() === MAIN_ACCOUNT_CELL
    ? ''
    : text;
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
