/**
 * The sub-accounts an input row may name (issue 36). Known without asking: the names of the
 * Sub-accounts sheet, those whose keys the add-on got (the sidebar's "Act as" list) and the
 * acting account. The names typed that are none of these are looked up by name, all in one
 * round trip (a read: a preview does it too), and their keys kept; only a name the main
 * account answers it has not is unknown. A row naming it is refused before anything is sent,
 * naming the known accounts, and a known name that differs only in case is offered as "did
 * you mean".
 */
import {subAccountLookup} from '../api/operations';
import {listEach} from '../api/paging';
import type {Workbook} from '../platform/ports';
import {MAIN_ACCOUNT_CELL} from '../sheets/accounts';
import {subAccountNamesInSheet} from '../sheets/sub-account-names';
import {lookedUp} from './accounts';
import type {Connected} from './connect';
import {EVERY_ACCOUNT, SettingsStore} from './settings-store';

/** The sub-accounts known without asking: the Sub-accounts sheet's and those acted as. */
export function subAccountsHeld(
  workbook: Workbook,
  store: SettingsStore,
): string[] {
  return [
    ...new Set([
      ...subAccountNamesInSheet(workbook),
      ...store.seenSubAccounts(),
    ]),
  ].sort();
}

/**
 * The longest name looked up: it travels in the URL (at most 2 KB in Apps Script), and no
 * sub-account name comes near it; a longer cell names no account known here.
 */
const LOOKUP_MAX = 100;

/** The sub-accounts known, `typed` (names as the rows hold them) looked up where not known. */
export function knownSubAccounts(
  connected: Connected,
  workbook: Workbook,
  typed: readonly string[],
): string[] {
  const {account: acting, store, mainClient} = connected;
  const known = new Set([
    ...(acting === '' || acting === EVERY_ACCOUNT ? [] : [acting]),
    ...subAccountsHeld(workbook, store),
  ]);
  const unknown = [...new Set(typed)].filter(
    name => name !== '' && name.length <= LOOKUP_MAX && !known.has(name),
  );
  const results = listEach(
    unknown.map(name => subAccountLookup(mainClient, name)),
  );
  unknown.forEach((name, i) => {
    const found = lookedUp(name, results[i]);
    if ('keys' in found) store.put(name, found.keys);
    // A lookup that failed says nothing of the name: the run says what it meets.
    if ('keys' in found || !found.gone) known.add(name);
  });
  return [...known].sort();
}

/** ` (did you mean demo_sub_a?)` for a name known in another case; '' when none is. */
export function didYouMean(name: string, known: readonly string[]): string {
  const same = known.find(k => k.toLowerCase() === name.toLowerCase());
  return same === undefined ? '' : ` (did you mean ${same}?)`;
}

/** `(main account), demo_sub_a or demo_sub_b`: the accounts a cell may name. */
export function knownText(known: readonly string[]): string {
  const names = [MAIN_ACCOUNT_CELL, ...known];
  return names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
