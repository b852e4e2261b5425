/**
 * Refresh sub-accounts (API 4.11): the main account's sub-accounts into the Sub-accounts
 * sheet, looked up with the main account's keys whoever is acted as (part 5, rule 3). The
 * lookup answers each sub-account's api key: it is dropped here, never written to a cell.
 *
 * The API document shows the lookup by sub_adv_user_name only. Assumed: the same GET without
 * a name lists every sub-account (paged like the other lists). Names already in the sheet that
 * this listing does not answer (the API refuses the nameless GET, or lists nothing for it) are
 * looked up one by one, so a sub-account the sheet knows is never dropped for want of a list.
 */
import type {ApiClient} from '../../api/client';
import {
  OPERATIONS,
  SUB_ACCOUNT_PAGE,
  subAccountsListing,
} from '../../api/operations';
import type {ListResult} from '../../api/paging';
import type {SubAccount} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {SUB_ACCOUNTS, SubAccountRow} from '../../sheets/schemas/sub-accounts';
import {subAccountNamesInSheet} from '../../sheets/sub-account-names';
import {noun} from '../../text/wording';
import {runRefresh} from './refresh';
import type {Refresher} from './refresher';
import {sheetPulled} from './sheet-refresher';
import type {RunOptions} from '../kernel';
import type {JobSummary} from '../run';

type Listed = Pick<ListResult<SubAccount>, 'items' | 'requests'>;

/** What the listing answered, and the names of `names` it did not, looked up in one batch. */
export function withNamesLookedUp(
  main: ApiClient,
  listed: Listed,
  names: readonly string[],
): Listed {
  const known = new Set(listed.items.map(a => a.sub_adv_user_name));
  const wanted = names.filter(name => !known.has(name));
  const outcomes = main.callAll<{list?: SubAccount[]}>(
    OPERATIONS.getSubAccount,
    wanted.map(name => ({query: {sub_adv_user_name: name}})),
  );
  const found = outcomes.flatMap((outcome, i) => {
    if (!outcome.ok) throw outcome.error;
    return (outcome.data?.list ?? []).filter(
      account => account.sub_adv_user_name === wanted[i],
    );
  });
  return {
    items: [...listed.items, ...found],
    requests: listed.requests + wanted.length,
  };
}

/** What the sheet shows of a sub-account: everything but its api key. */
function row(account: SubAccount): SubAccountRow {
  return {
    sub_adv_user_name: account.sub_adv_user_name,
    access_key: account.access_key,
    is_unlimited_credit: account.is_unlimited_credit,
    credit: account.credit,
  };
}

/** The sheet's names are looked up after the shared listing phases, only when it missed them. */
export const subAccountsRefresher: Refresher<SubAccount> = {
  // Whoever acts, these are the main account's: the summary's "(main account)" says who acted.
  what: noun('sub-account'),
  mainOnly: true,
  cost: {sheets: [SUB_ACCOUNTS.name], pageSize: SUB_ACCOUNT_PAGE},
  listing: ({main}) => subAccountsListing(main),
  pulled([listed], {main, workbook}) {
    const found = withNamesLookedUp(
      main,
      listed,
      subAccountNamesInSheet(workbook),
    );
    return sheetPulled(SUB_ACCOUNTS, [{...listed, ...found}], account => ({
      sources: [row(account)],
    }));
  },
};

export function refreshSubAccounts(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runRefresh(
    platform,
    'refreshSubAccounts',
    [subAccountsRefresher],
    options,
  );
}
