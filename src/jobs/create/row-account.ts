/**
 * Which account a row of the user's input (New Offers, Creative Sets, a Creatives row to
 * upload) creates its record as (DESIGN 4.3): the account its `account` cell names, else the
 * acting account. Acting as every account an empty cell names none, and nothing is guessed.
 */
import {excerpt, lengthProblem} from '../../rules/values';
import {ACCOUNT, MAIN_ACCOUNT_CELL, accountOfCell} from '../../sheets/accounts';
import {didYouMean, knownText} from '../known-accounts';
import {EVERY_ACCOUNT} from '../settings-store';

/** The account a row is for, or why its cell names none (a full message naming the column). */
export type RowAccount = {account: string} | {problem: string};

/** What no account name holds: spaces, parentheses, '*'. */
export const NO_NAME = /[\s()*]/;

/** What the cell may hold, as its messages say it. */
const NAMES = `${MAIN_ACCOUNT_CELL} or a sub-account's sub_adv_user_name`;

/**
 * The account `cell` names; an empty cell is `fallback`'s (the acting account, or the account
 * of the row it belongs to), and names none when that is every account or unknown. `creates`
 * says what the row's account does ("creates the offer"). A cell too long for any name, or
 * holding what no account name holds (spaces, parentheses, '*'), names no account; given
 * `known` (known-accounts.ts), neither does a sub-account name not among them.
 */
export function typedAccount(
  cell: unknown,
  fallback: string | undefined,
  creates: string,
  known?: readonly string[],
): RowAccount {
  const tooLong = lengthProblem(ACCOUNT, cell);
  if (tooLong) return {problem: `${tooLong}: write ${NAMES}`};
  const account = accountOfCell(cell);
  if (account === undefined) {
    return fallback === undefined || fallback === EVERY_ACCOUNT
      ? {
          problem: `${ACCOUNT} is empty: acting as every account, say which account ${creates} (${NAMES})`,
        }
      : {account: fallback};
  }
  if (NO_NAME.test(account)) {
    return {
      problem: `${ACCOUNT} ${excerpt(account)} names no account: write ${NAMES}`,
    };
  }
  if (known && account !== '' && !known.includes(account)) {
    return {
      problem: `${ACCOUNT} ${excerpt(account)} is no account known here${didYouMean(account, known)}: write ${knownText(known)} (Refresh sub-accounts lists the main account's sub-accounts in the Sub-accounts sheet)`,
    };
  }
  return {account};
}
