/**
 * Which accounts a refresh writes, and which it leaves out, each with why: trimmed to fit one
 * run, no longer listed, keys not had, a list failed. Their rows stay as they were.
 */
import {keyParts} from '../../sheets/accounts';
import type {StateBook} from '../../state/book';
import type {AccountsFound} from '../accounts';
import type {AccountListed, Refresher} from './refresher';

/**
 * The sub-accounts whose records the last pull of these sheets holds, that neither the
 * listing nor the Sub-accounts sheet names now, nor failed already: deleted, or no longer the
 * main account's. Named, so their rows carried as they were are never taken for refreshed.
 */
export function noLongerListed(
  book: StateBook,
  refreshers: readonly Refresher[],
  found: AccountsFound,
): AccountsFound['failed'] {
  const named = new Set([
    ...found.accounts,
    ...found.failed.map(f => f.account),
  ]);
  const held = new Set(
    refreshers.flatMap(r =>
      Object.keys(book.get(r.cost.sheets[0])?.records ?? {}).map(
        key => keyParts(key).account,
      ),
    ),
  );
  return [...held]
    .filter(account => !named.has(account))
    .map(account => ({
      account,
      message:
        'no longer listed: deleted, or no longer a sub-account of the main account; its rows are as the last refresh left them',
    }));
}

/**
 * The accounts found, but for those a refresh trimmed to fit one run (refreshPlan) leaves out:
 * named among the failed, each with why, so their rows are carried as they were.
 */
export function fitting(
  found: AccountsFound,
  only: readonly string[] | undefined,
  left: ReadonlyMap<string, string>,
): AccountsFound {
  if (!only) return found;
  const out = found.accounts.filter(a => !only.includes(a));
  const why = [...left.values()][0];
  return {
    ...found,
    accounts: found.accounts.filter(a => only.includes(a)),
    failed: [
      ...found.failed,
      ...[...new Set([...left.keys(), ...out])]
        .filter(a => !found.failed.some(f => f.account === a))
        .map(account => ({account, message: left.get(account) ?? why})),
    ],
  };
}

/**
 * The accounts left out of a refresh, each with why: its keys could not be had, or one of its
 * lists failed (the first failure said).
 */
export function accountFailures(
  keyless: ReadonlyArray<{account: string; message: string}>,
  listed: ReadonlyArray<AccountListed<unknown>>,
): Map<string, string> {
  const failed = new Map(keyless.map(f => [f.account, f.message]));
  for (const l of listed) {
    if (l.failed && !failed.has(l.account))
      failed.set(l.account, l.failed.message);
  }
  return failed;
}
