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
