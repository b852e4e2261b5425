/**
 * pushCampaigns (API 4.7): for each campaign whose editable cells differ from what was last
 * pulled, only the changed fields are sent, with campaign_id. The rules of 4.7 are checked
 * first (rules/campaign.ts); a refused row is INVALID and nothing is sent for it.
 */
import {renderDetails} from '../api/errors';
import {campaignsListing, updateCampaigns} from '../api/operations';
import type {CampaignUpdate} from '../api/types';
import type {Platform} from '../platform/ports';
import {CampaignField, checkCampaign} from '../rules/campaign';
import {decodeRow, editableColumns} from '../sheets/rows';
import {CAMPAIGNS} from '../sheets/schemas/campaigns';
import type {Campaign} from '../api/types';
import {
  Built,
  PushOptions,
  PushSpec,
  changedHeaders,
  listByIds,
  runPush,
} from './push';
import type {JobSummary} from './run';

export const CAMPAIGNS_PUSH: PushSpec<Campaign, CampaignUpdate> = {
  job: 'pushCampaigns',
  schema: CAMPAIGNS,
  refreshTitle: 'Refresh campaigns',
  build(record, table, context): Built<CampaignUpdate> {
    const [row] = record.rows;
    const changed = changedHeaders(record, table, context) as CampaignField[];
    const columns = editableColumns(table);
    const decoded = decodeRow(
      table,
      row,
      columns.map(c => c.header),
      context,
    );
    const problems = {
      ...checkCampaign(decoded.values, changed),
      ...Object.fromEntries(
        Object.entries(decoded.problems).filter(([field]) =>
          changed.includes(field as CampaignField),
        ),
      ),
    };
    if (Object.keys(problems).length > 0) {
      return {ok: false, refused: new Map([[row, renderDetails(problems)]])};
    }
    const request: CampaignUpdate = {campaign_id: Number(record.id)};
    for (const field of changed) {
      const value = decoded.values[field];
      Object.assign(request, {
        [field]:
          field === 'icon' ? String(value ?? '').toLowerCase() : (value ?? ''),
      });
    }
    return {ok: true, request, sends: changed.join(', ')};
  },
  send: updateCampaigns,
  readBack: (client, ids) =>
    listByIds(
      ids,
      chunk => campaignsListing(client, {campaign_id: chunk}),
      campaign => [campaign],
    ),
};

export function pushCampaigns(
  platform: Platform,
  options?: PushOptions,
): JobSummary {
  return runPush(platform, CAMPAIGNS_PUSH, options);
}
