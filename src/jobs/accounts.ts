/**
 * The accounts a job acts for (DESIGN 4.4). Placeholder until the accounts branch lands.
 */
import type {Connected} from './connect';

export interface AccountsFound {
  accounts: string[];
  failed: Array<{account: string; message: string}>;
  requests: number;
}

export function accountsToActFor(
  connected: Connected,
  sheetNames: readonly string[],
): AccountsFound {
  if (connected.account !== '*')
    return {accounts: [connected.account], failed: [], requests: 0};
  return {accounts: ['', ...new Set(sheetNames)], failed: [], requests: 0};
}
