/**
 * refreshAll: every listing of the account, fetched together (all first pages in one fetchAll,
 * then all other pages in shared batches), then every sheet (refresh.ts). Adding a refresh to
 * it is one line here; this module sits above the refreshers it lists, so none of them
 * imports another.
 */
import type {Platform} from '../../platform/ports';
import {campaignsRefresher, runRefresh} from './refresh';
import {offersRefresher} from './offers-refresher';
import type {Refresher} from './refresher';
import {creativesRefresher} from './refresh-creatives';
import {subAccountsRefresher} from './refresh-sub-accounts';
import type {ScheduledJobName} from '../catalog';
import type {RunOptions} from '../kernel';
import type {JobSummary} from '../run';
import {OFFERS} from '../../sheets/schemas/offers';

/** What refreshAll runs, in order. */
export const ALL_REFRESHERS: readonly Refresher[] = [
  campaignsRefresher,
  offersRefresher,
  creativesRefresher,
  subAccountsRefresher,
];

/** What each refresh a schedule may run lists: its cost is told from them (refresh-cost.ts). */
export const SCHEDULED_REFRESHERS: Readonly<
  Record<ScheduledJobName, readonly Refresher[]>
> = {
  refreshAll: ALL_REFRESHERS,
  refreshCampaigns: [campaignsRefresher],
  refreshOffers: [offersRefresher],
  refreshCreatives: [creativesRefresher],
  refreshSubAccounts: [subAccountsRefresher],
};

export function refreshAll(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  // The empty Sub-accounts sheet, made last, is no place to start: Offers is.
  return runRefresh(
    platform,
    'refreshAll',
    ALL_REFRESHERS,
    options,
    OFFERS.name,
  );
}
