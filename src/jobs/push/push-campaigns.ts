/**
 * pushCampaigns (API 4.7): for each campaign whose editable cells differ from what was last
 * pulled, only the changed fields are sent, with campaign_id. The rules of 4.7 are checked
 * first (rules/campaign.ts), with what the sheets know of the account: the names of the other
 * campaigns (as last refreshed and as their rows have them now) and the materials the
 * Creatives sheet lists. A refused row is INVALID and nothing is sent for it.
 */
import {listByIds} from '../../api/paging';
import type {RunOptions} from '../kernel';
import {renderDetails} from '../../api/errors';
import {campaignsListing, updateCampaigns} from '../../api/operations';
import type {Campaign, CampaignUpdate, Material} from '../../api/types';
import type {Platform, Workbook} from '../../platform/ports';
import {
  CampaignField,
  KnownAccount,
  KnownMaterial,
  checkCampaign,
} from '../../rules/campaign';
import {CodecContext, fromCanonical} from '../../sheets/codec';
import {
  decodeRow,
  editableColumns,
  isBlankRow,
  recordId,
} from '../../sheets/rows';
import {CAMPAIGNS} from '../../sheets/schemas/campaigns';
import {
  CREATIVES,
  CREATIVES_ACCOUNT_MEMO,
} from '../../sheets/schemas/creatives';
import type {StateBook} from '../../sheets/state';
import {
  SheetLayoutError,
  Table,
  cellOf,
  openTable,
  sheetRow,
} from '../../sheets/table';
import {Built, PushSpec, changedHeaders} from './push-spec';
import {runPush} from './push';
import type {JobSummary} from '../run';

/** The push of the Campaigns sheet. */
export function campaignsPush(): PushSpec<Campaign, CampaignUpdate> {
  let known: KnownSheets | undefined;
  return {
    job: 'pushCampaigns',
    schema: CAMPAIGNS,
    refreshTitle: 'Refresh campaigns',
    build(record, table, context, opened): Built<CampaignUpdate> {
      known ??= knownSheets(opened.workbook, opened.book, table, context);
      const [row] = record.rows;
      const changed = changedHeaders(record, table, context) as CampaignField[];
      const columns = editableColumns(table);
      const decoded = decodeRow(
        table,
        row,
        columns.map(c => c.header),
        context,
      );
      const account: KnownAccount = {
        others: known.campaigns.filter(c => c.id !== record.id),
        materials: known.materials,
      };
      const problems = {
        ...checkCampaign(decoded.values, changed, account),
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
        Object.assign(request, {[field]: decoded.values[field] ?? ''});
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
}

interface KnownSheets {
  campaigns: KnownAccount['others'];
  materials: KnownAccount['materials'];
}

/**
 * Every campaign row's name, as typed and as last refreshed, and the Creatives sheet's
 * materials when it was refreshed as the account the campaigns were (the push runs only as
 * that account). Read once per push.
 */
function knownSheets(
  workbook: Workbook,
  book: StateBook,
  table: Table<Campaign>,
  context: CodecContext,
): KnownSheets {
  const pulled = book.get(CAMPAIGNS.name);
  const at = editableColumns(table).findIndex(
    c => c.header === 'campaign_name',
  );
  const text = (value: unknown) =>
    value === null || value === undefined ? '' : String(value).trim();
  const campaigns = table.values.flatMap((_, index) => {
    const id = isBlankRow(table, index)
      ? null
      : recordId(table, index, context);
    if (id === null) return [];
    const base = pulled?.records[id]?.rows[0]?.[at];
    return [
      {
        id,
        pulled: base === undefined ? '' : text(fromCanonical(base)),
        typed: text(cellOf(table, index, 'campaign_name')),
        row: sheetRow(index),
      },
    ];
  });
  const refreshed =
    pulled !== undefined &&
    book.memo<string>(CREATIVES_ACCOUNT_MEMO) === pulled.account;
  return {
    campaigns,
    materials: refreshed ? materialsIn(workbook) : undefined,
  };
}

/** The Creatives sheet's materials; undefined when the sheet is gone or its headers broken. */
function materialsIn(
  workbook: Workbook,
): Map<string, KnownMaterial> | undefined {
  let table: Table<Material> | null;
  try {
    table = openTable(workbook, CREATIVES, {create: false});
  } catch (e) {
    if (e instanceof SheetLayoutError) return undefined;
    throw e;
  }
  return table ? materialsOf(table) : undefined;
}

function materialsOf(table: Table<Material>): Map<string, KnownMaterial> {
  const materials = new Map<string, KnownMaterial>();
  table.values.forEach((_, index) => {
    const cell = (header: string) =>
      String(cellOf(table, index, header)).trim();
    const md5 = cell('creative_md5').toLowerCase();
    if (md5 === '') return;
    const size = cellOf(table, index, 'size');
    materials.set(md5, {
      creative_type: cell('creative_type'),
      resolution: cell('resolution'),
      size: typeof size === 'number' ? size : null,
    });
  });
  return materials;
}

export function pushCampaigns(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runPush(platform, campaignsPush(), options);
}
