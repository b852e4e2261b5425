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
import {fromCanonical} from '../../sheets/codec';
import {CAMPAIGNS} from '../../sheets/schemas/campaigns';
import {editableOf} from '../../sheets/schema';
import {CREATIVES, creativesRefreshedAs} from '../../sheets/schemas/creatives';
import {ACCOUNT, accountOfCell} from '../../sheets/accounts';
import {
  SheetLayoutError,
  Table,
  cellOf,
  openTable,
  sheetRow,
} from '../../sheets/table';
import type {Decoded, PushSpec, RecordDecision, RecordRules} from './push-spec';
import {runPush} from './push';
import type {JobSummary} from '../run';

/**
 * The campaign rules (rules/campaign.ts) on a campaign's one row, against its account's other
 * campaigns (names are unique in an account, 2.2) and materials, as the job decoded them
 * before deciding (knownSheets).
 */
const CAMPAIGN_RULES: RecordRules = {
  known: knownSheets,
  check: ([row], {account, id, edited, opened}) => {
    const known = opened?.known as KnownSheets | undefined;
    const others: KnownAccount = {
      others: (known?.campaigns ?? [])
        .filter(c => c.account === account && c.id !== id)
        .map(c => c.campaign),
      materials: known?.materials?.get(account),
    };
    return {
      rows: [checkCampaign(row, edited as CampaignField[], others)],
      whole: {},
    };
  },
};

/** The push of the Campaigns sheet. */
export const CAMPAIGNS_PUSH: PushSpec<Campaign, CampaignUpdate> = {
  job: 'pushCampaigns',
  schema: CAMPAIGNS,
  refreshTitle: 'Refresh campaigns',
  rules: CAMPAIGN_RULES,
  build(record, opened): RecordDecision<CampaignUpdate> {
    const [row] = record.rows;
    const [decoded] = record.decoded;
    const changed = record.edited as CampaignField[];
    const problems = {
      ...CAMPAIGN_RULES.check([decoded.values], {...record, opened}).rows[0],
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
  readBack: groups =>
    listByIds(
      groups,
      (client, chunk) => campaignsListing(client, {campaign_id: chunk}),
      campaign => [campaign],
    ),
};

interface KnownSheets {
  campaigns: Array<{
    account: string;
    id: string;
    campaign: KnownAccount['others'][number];
  }>;
  /** Each account's materials, where Creatives was refreshed as it. */
  materials?: Map<string, NonNullable<KnownAccount['materials']>>;
}

/**
 * Every campaign row's name, as typed and as last refreshed, and the Creatives sheet's
 * materials when it was refreshed as the account the campaigns were (the push runs only as
 * that account). Told once per push, from the records it decoded.
 */
function knownSheets({workbook, book, records}: Decoded): KnownSheets {
  const pulled = book.get(CAMPAIGNS.name);
  const at = editableOf(CAMPAIGNS).findIndex(c => c.header === 'campaign_name');
  const text = (value: unknown) =>
    value === null || value === undefined ? '' : String(value).trim();
  const campaigns = records.flatMap(({account, id, key, rows, decoded}) => {
    const base = pulled?.records[key]?.rows[0]?.[at];
    return decoded.map((cells, k) => ({
      account,
      id,
      campaign: {
        id,
        pulled: base === undefined ? '' : text(fromCanonical(base)),
        typed: text(cells.values.campaign_name),
        row: sheetRow(rows[k]),
      },
    }));
  });
  const refreshedAs = creativesRefreshedAs(book);
  if (refreshedAs.length === 0) return {campaigns};
  const all = materialsIn(workbook, refreshedAs);
  return {
    campaigns,
    materials:
      all && new Map(refreshedAs.map(a => [a, all.get(a) ?? new Map()])),
  };
}

/**
 * The Creatives sheet's materials by account (a row with an empty account cell is the one
 * account refreshed, where only one was); undefined when the sheet is gone or its headers
 * broken.
 */
function materialsIn(
  workbook: Workbook,
  refreshedAs: readonly string[],
): Map<string, Map<string, KnownMaterial>> | undefined {
  let table: Table<Material> | null;
  try {
    table = openTable(workbook, CREATIVES, {create: false});
  } catch (e) {
    if (e instanceof SheetLayoutError) return undefined;
    throw e;
  }
  return table ? materialsOf(table, refreshedAs) : undefined;
}

function materialsOf(
  table: Table<Material>,
  refreshedAs: readonly string[],
): Map<string, Map<string, KnownMaterial>> {
  const byAccount = new Map<string, Map<string, KnownMaterial>>();
  const only = refreshedAs.length === 1 ? refreshedAs[0] : undefined;
  table.values.forEach((_, index) => {
    const cell = (header: string) =>
      String(cellOf(table, index, header)).trim();
    const md5 = cell('creative_md5').toLowerCase();
    const account = accountOfCell(cell(ACCOUNT)) ?? only;
    if (md5 === '' || account === undefined) return;
    const size = cellOf(table, index, 'size');
    const materials = byAccount.get(account) ?? new Map();
    byAccount.set(account, materials);
    materials.set(md5, {
      creative_type: cell('creative_type'),
      resolution: cell('resolution'),
      size: typeof size === 'number' ? size : null,
    });
  });
  return byAccount;
}

export function pushCampaigns(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runPush(platform, CAMPAIGNS_PUSH, options);
}
