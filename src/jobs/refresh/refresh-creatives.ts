/**
 * Refresh creative materials (API 4.9): the account's materials into the Creatives sheet. A
 * row waiting for its upload (a file and no creative_md5) stays exactly as the user left it,
 * and a material's `file` cell stays with it (the schema keeps both).
 *
 * The Creatives sheet has no editable column, so no pull state says whose materials it lists:
 * a memo does (CREATIVES_ACCOUNT_MEMO), for the campaign push to judge an icon against them.
 */
import {MAX_LIMIT, materialsListing} from '../../api/operations';
import type {Material} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {
  CREATIVES,
  CREATIVES_ACCOUNT_MEMO,
  creativesRefreshedAs,
} from '../../sheets/schemas/creatives';
import {noun} from '../../text/wording';
import {runRefresh} from './refresh';
import type {Refresher} from './refresher';
import {sheetRefresher} from './sheet-refresher';
import type {RunOptions} from '../kernel';
import type {JobSummary} from '../run';

const listed = sheetRefresher(
  noun('creative material'),
  CREATIVES,
  ({client}) => materialsListing(client),
  MAX_LIMIT.materials,
  (material: Material) => ({sources: [material]}),
);

export const creativesRefresher: Refresher<Material> = {
  ...listed,
  pulled(result, context) {
    const pulled = listed.pulled(result, context);
    return {
      ...pulled,
      write(refresh) {
        const known = new Set([
          ...creativesRefreshedAs(refresh.state),
          ...refresh.accounts,
        ]);
        refresh.state.setMemo(CREATIVES_ACCOUNT_MEMO, [...known]);
        return pulled.write(refresh);
      },
    };
  },
};

export function refreshCreatives(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runRefresh(
    platform,
    'refreshCreatives',
    [creativesRefresher],
    options,
  );
}
