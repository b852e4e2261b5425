/**
 * A Sub-accounts row to create (API 4.10): a sub_adv_user_name and a password. The document
 * shows no rule for either beyond being sent, so the name's presence is checked, and that no
 * other row of the sheet uses it.
 */
import {excerpt} from './values';

export const NAME_MISSING =
  'sub_adv_user_name is empty: write the user name of the sub-account to create';

/** A name used by other rows of the sheet. */
export function takenInSheet(name: string, rows: readonly number[]): string {
  return `sub_adv_user_name ${excerpt(name, false)} is also in Sub-accounts row ${rows.join(', ')}: each sub-account has one row`;
}

/**
 * Cells of a row to create that the API fills and does not take (4.10 sends a name and a
 * password only): created, the row would show the server's answer over what was typed.
 */
export function answeredOnly(typed: ReadonlyArray<[string, unknown]>): string {
  const cells = typed.map(([field, value]) => `${field} ${excerpt(value)}`);
  return `${cells.join(', ')} cannot be set here: a sub-account is created from a name and a password only, and the API answers its credit itself; clear ${typed.length > 1 ? 'them' : 'it'} to create the sub-account`;
}
