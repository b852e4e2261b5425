/**
 * The accounts a job acts for (DESIGN 4.4). Acting as one account, that account. Acting as
 * every account ('*'), the main account and each of its sub-accounts, with their keys got in
 * one round trip and kept (the user's properties), so that every account's lists can then go
 * out together, each signed by its own account (Connected.clientFor).
 *
 * The API document shows the sub-account lookup by name only (4.11). Assumed, as Refresh
 * sub-accounts does: the same GET without a name lists every sub-account with its keys where
 * a server answers it. The nameless listing and a lookup of each name the Sub-accounts sheet
 * holds go out in the same fetchAll, so a server that refuses the nameless GET (the emulator
 * by default) costs no round trip more, and one that answers it still has the sheet's names
 * checked. Names the listing answers without keys, and whose keys are not kept, are looked up
 * by name in a second round trip, only then.
 */
import {subAccountLookup, subAccountsListing} from '../api/operations';
import {ListResult, listEach} from '../api/paging';
import type {Credentials} from '../api/signing';
import type {SubAccount} from '../api/types';
import type {Connected} from './connect';
import {EVERY_ACCOUNT} from './settings-store';

export interface AccountsFound {
  /** '' (main) first, then sub-account names in the order the listing/sheet gave them, each once. */
  accounts: string[];
  /** Sub-accounts whose keys could not be had (lookup refused / not found): named, never silently dropped. */
  failed: Array<{account: string; message: string}>;
  /** Requests sent. */
  requests: number;
}

/**
 * What became of one sub-account name: its keys, or why there are none (`gone`: the main
 * account has no such sub-account, so keys kept from an earlier run must not serve).
 */
export type Found = {keys: Credentials} | {message: string; gone: boolean};

/**
 * The accounts a job acts for: [acting] for one account (no request); for '*', the main
 * account and every sub-account that the nameless listing answers or that `sheetNames` (the
 * Sub-accounts sheet's names) holds. Keys found are kept, so clientFor(name) looks nothing up.
 * Refused main keys throw: no sub-account can be had without them.
 */
export function accountsToActFor(
  connected: Connected,
  sheetNames: readonly string[],
): AccountsFound {
  if (connected.account !== EVERY_ACCOUNT)
    return {accounts: [connected.account], failed: [], requests: 0};
  const {mainClient: main, store} = connected;
  const names = [
    ...new Set(sheetNames.map(name => name.trim()).filter(Boolean)),
  ];
  const [listed, ...lookups] = listEach<SubAccount>([
    subAccountsListing(main),
    ...names.map(name => subAccountLookup(main, name)),
  ]);
  const found = new Map<string, Found>();
  names.forEach((name, i) => found.set(name, lookedUp(name, lookups[i])));
  // The listing's names first, in its order; a name listed with keys needs nothing more.
  const order = new Set<string>();
  const unkeyed: string[] = [];
  for (const account of listed.items) {
    const name = String(account.sub_adv_user_name);
    order.add(name);
    const keys = keysOf(account);
    if (keys) found.set(name, {keys});
    else if (!found.has(name) && !store.get(name)) unkeyed.push(name);
  }
  for (const name of names) order.add(name);
  const again = listEach(unkeyed.map(name => subAccountLookup(main, name)));
  unkeyed.forEach((name, i) => found.set(name, lookedUp(name, again[i])));
  const accounts = [''];
  const failed: AccountsFound['failed'] = [];
  for (const name of order) {
    const result = found.get(name);
    if (result && 'keys' in result) {
      store.put(name, result.keys);
      accounts.push(name);
    } else if (result === undefined || (!result.gone && store.get(name))) {
      // Listed without keys, or its lookup failed: the keys kept from an earlier run serve
      // (refused, they are looked up again).
      accounts.push(name);
    } else failed.push({account: name, message: result.message});
  }
  return {
    accounts,
    failed,
    requests: [listed, ...lookups, ...again].reduce(
      (n, result) => n + result.requests,
      0,
    ),
  };
}

/** Both keys, where the answer carries them as text that is not empty. */
function keysOf(account: SubAccount): Credentials | undefined {
  const {access_key: accessKey, api_key: apiKey} = account;
  return typeof accessKey === 'string' &&
    accessKey !== '' &&
    typeof apiKey === 'string' &&
    apiKey !== ''
    ? {accessKey, apiKey}
    : undefined;
}

/** What a lookup by name says of `name`: its keys, or why it gives none. */
export function lookedUp(name: string, result: ListResult<SubAccount>): Found {
  if (result.failed)
    return {
      message: `The keys of sub-account ${name} could not be looked up (${result.failed.message}).`,
      gone: false,
    };
  const account = result.items.find(a => a.sub_adv_user_name === name);
  if (!account)
    return {
      message: `The main account has no sub-account named "${name}".`,
      gone: true,
    };
  const keys = keysOf(account);
  return keys
    ? {keys}
    : {
        message: `The lookup of sub-account ${name} answered no access_key and api_key.`,
        gone: false,
      };
}
