/**
 * Refresh creative materials (API 4.9): the account's materials into the Creatives sheet. A
 * row waiting for its upload (a file and no creative_md5) stays exactly as the user left it,
 * and a material's `file` cell stays with it (the schema keeps both).
 */
import {materialsListing} from '../api/operations';
import type {Platform} from '../platform/ports';
import {CREATIVES} from '../sheets/schemas/creatives';
import {runRefresh, sheetRefresher} from './refresh';
import type {JobSummary} from './run';

export const creativesRefresher = sheetRefresher(
  'creative materials',
  CREATIVES,
  ({client}) => materialsListing(client),
  material => ({sources: [material]}),
);

export function refreshCreatives(platform: Platform): JobSummary {
  return runRefresh(platform, 'refreshCreatives', [creativesRefresher]);
}
