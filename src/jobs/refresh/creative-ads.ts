/**
 * listCreativeAds (API 4.8): fills Creative Ads with the creative ads asked for, by ids, narrowed
 * to a promoted package when one is given. ad_ids is required: a package alone is refused.
 */
import {ConfigError} from '../../api/errors';
import {MAX_LIMIT, creativeAdsListing} from '../../api/operations';
import type {CreativeAdFilter} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {excerpt} from '../../rules/values';
import {CREATIVE_ADS, creativeAdRows} from '../../sheets/schemas/creative-ads';
import {noun} from '../../text/wording';
import {runRefresh} from './refresh';
import {sheetRefresher} from './sheet-refresher';
import type {JobSummary} from '../run';

/** What the creative-ad list asks for (DESIGN 4.2). */
export interface CreativeAdsQuery {
  adIds?: string;
  packageName?: string;
}

/** The API filter for a query, or a ConfigError saying what to type. */
export function creativeAdsFilter(
  q: CreativeAdsQuery | undefined,
): CreativeAdFilter {
  const ids = String(q?.adIds ?? '')
    .split(',')
    .map(id => id.trim())
    .filter(id => id !== '');
  const packageName = String(q?.packageName ?? '').trim();
  if (ids.length === 0) {
    throw new ConfigError(
      packageName === ''
        ? 'List creative ads: give creative ad ids (comma-separated, e.g. 1001,1002).'
        : `List creative ads: give creative ad ids (comma-separated, e.g. 1001,1002): the API refuses a package name alone (4.8: ad_ids is required), and with ids it only narrows them to the package ${excerpt(packageName)}. Nothing was sent.`,
    );
  }
  const bad = ids.find(id => !/^\d+$/.test(id));
  if (bad !== undefined) {
    throw new ConfigError(
      `List creative ads: ${excerpt(bad)} is not a creative ad id: ids are whole numbers separated by commas.`,
    );
  }
  const filter: CreativeAdFilter = {};
  if (ids.length > 0) filter.ad_ids = ids.map(Number);
  if (packageName !== '') filter.demand_package_name = packageName;
  return filter;
}

/** The query as the sheet and the summary name it: `ad_ids 1001,1002`. */
function queryText(filter: CreativeAdFilter): string {
  return [
    filter.ad_ids ? `ad_ids ${filter.ad_ids.join(',')}` : '',
    filter.demand_package_name
      ? `demand_package_name ${filter.demand_package_name}`
      : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

/**
 * Each listing replaces the rows of the last: a sheet without status columns keeps no row
 * the API did not list (merge.ts), and the id header's note names the query.
 */
function creativeAdsRefresher(filter: CreativeAdFilter) {
  const query = queryText(filter);
  return sheetRefresher(
    noun(`creative ad for ${query}`, `creative ads for ${query}`),
    CREATIVE_ADS,
    ({client}) => creativeAdsListing(client, filter),
    MAX_LIMIT.creativeAds,
    ad => ({sources: creativeAdRows(ad)}),
    query,
  );
}

export function listCreativeAds(
  platform: Platform,
  q: CreativeAdsQuery | undefined,
): JobSummary {
  const filter = creativeAdsFilter(q);
  return runRefresh(platform, 'listCreativeAds', [
    creativeAdsRefresher(filter),
  ]);
}
