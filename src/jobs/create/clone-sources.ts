/**
 * What cloneOffers reads of its source offers, from the sheets the last refresh and listing
 * left (DESIGN 4.6): each offer's Offers row decoded, and its creative sets, from its Creative
 * Ads rows (API 4.8 lists an offer's creatives only by creative-ad id), or for an offer Offer
 * Desk created, from the Creative Sets rows it sent. Reading only.
 */
import type {Workbook} from '../../platform/ports';
import {accountOfCell} from '../../sheets/accounts';
import {decodeRow} from '../../sheets/rows';
import {CREATIVE_ADS} from '../../sheets/schemas/creative-ads';
import {CREATIVE_SETS} from '../../sheets/schemas/creative-sets';
import {CREATIVES} from '../../sheets/schemas/creatives';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {OFFERS} from '../../sheets/schemas/offers';
import type {SheetSchema} from '../../sheets/schema';
import {Table, cellOf, openTable} from '../../sheets/table';
import type {CreatedOffers} from '../../state/created-offers';

/** A material of a source's creative set: its md5 where known, and where its file is. */
export interface SourceMaterial {
  /** md5, or the text the Creative Sets row names it by where no Creatives row resolves it. */
  ref: string;
  md5?: string;
  name?: string;
  /** The material's creative_url (Creative Ads rows): where a clone into another account fetches it. */
  url?: string;
}

export interface SourceSet {
  creative_set_name: string;
  /** ALL, or the set's own geos (from Creative Sets rows). */
  geos: string[];
  ad_outputs: number[];
  creatives: SourceMaterial[];
}

export interface SourceOffer {
  account: string;
  offer_id: number;
  /** The Offers row's cells decoded, by header. */
  fields: Record<string, unknown>;
  /** Where its creative sets came from; undefined when neither source has them. */
  setsFrom?: 'Creative Ads' | 'Creative Sets';
  sets: SourceSet[];
}

/** A sheet's rows, each decoded by header with its account; none when the sheet is missing. */
function rowsOf<S>(
  workbook: Workbook,
  schema: SheetSchema<S>,
): Array<{account: string | undefined; values: Record<string, unknown>}> {
  const table: Table<S> | null = openTable(workbook, schema, {
    create: false,
  });
  if (!table) return [];
  const headers = schema.columns
    .map(c => c.header)
    .filter(h => table.position.has(h));
  return table.values.map((_, i) => ({
    account: accountOfCell(cellOf(table, i, 'account')),
    values: decodeRow(table, i, headers, workbook).values,
  }));
}

export const listOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : String(value ?? '').split(','))
    .map(v => String(v).trim())
    .filter(Boolean);

/** The sheets a clone reads, once. */
export interface SourceSheets {
  offers: ReturnType<typeof rowsOf>;
  ads: ReturnType<typeof rowsOf>;
  newOffers: ReturnType<typeof rowsOf>;
  sets: ReturnType<typeof rowsOf>;
  creatives: ReturnType<typeof rowsOf>;
}

export function readSourceSheets(workbook: Workbook): SourceSheets {
  return {
    offers: rowsOf(workbook, OFFERS),
    ads: rowsOf(workbook, CREATIVE_ADS),
    newOffers: rowsOf(workbook, NEW_OFFERS),
    sets: rowsOf(workbook, CREATIVE_SETS),
    creatives: rowsOf(workbook, CREATIVES),
  };
}

/** The source's Offers row, or undefined when the last refresh did not list it. */
export function sourceOffer(
  sheets: SourceSheets,
  created: CreatedOffers | undefined,
  account: string,
  offerId: number,
): SourceOffer | undefined {
  const row = sheets.offers.find(
    r => r.account === account && Number(r.values.offer_id) === offerId,
  );
  if (!row) return undefined;
  const fromAds = setsFromAds(sheets, account, offerId);
  if (fromAds.length > 0) {
    return {
      account,
      offer_id: offerId,
      fields: row.values,
      setsFrom: 'Creative Ads',
      sets: fromAds,
    };
  }
  const sent = created?.[String(offerId)]
    ? setsSent(sheets, account, offerId)
    : [];
  return {
    account,
    offer_id: offerId,
    fields: row.values,
    ...(sent.length > 0 ? {setsFrom: 'Creative Sets' as const} : {}),
    sets: sent,
  };
}

/** One set per creative_set_id of the offer's Creative Ads rows, in their order. */
function setsFromAds(
  sheets: SourceSheets,
  account: string,
  offerId: number,
): SourceSet[] {
  const sets = new Map<string, SourceSet>();
  for (const {account: owner, values} of sheets.ads) {
    if (owner !== account || Number(values.offer_id) !== offerId) continue;
    const id = String(values.creative_set_id ?? '');
    let set = sets.get(id);
    if (!set) {
      set = {
        creative_set_name: `set_${id}`,
        geos: ['ALL'],
        ad_outputs: [],
        creatives: [],
      };
      sets.set(id, set);
    }
    const output = Number(values.ad_output);
    if (Number.isInteger(output) && !set.ad_outputs.includes(output))
      set.ad_outputs.push(output);
    const md5 = String(values.creative_md5 ?? '');
    if (md5 && !set.creatives.some(c => c.md5 === md5)) {
      set.creatives.push({
        ref: md5,
        md5,
        name: String(values.creative_name ?? '') || undefined,
        url: String(values.creative_url ?? '') || undefined,
      });
    }
  }
  return [...sets.values()];
}

/** The Creative Sets rows of the New Offers row that created the offer, materials resolved. */
function setsSent(
  sheets: SourceSheets,
  account: string,
  offerId: number,
): SourceSet[] {
  const made = sheets.newOffers.find(
    r =>
      (r.account ?? account) === account &&
      Number(r.values.offer_id) === offerId,
  );
  if (!made) return [];
  const name = String(made.values.offer_name ?? '');
  const materials = sheets.creatives.filter(
    c => (c.account ?? account) === account,
  );
  const resolve = (ref: string): SourceMaterial => {
    const found = materials.find(m =>
      ['creative_md5', 'creative_name'].some(
        h => String(m.values[h] ?? '') === ref,
      ),
    );
    const md5 = String(found?.values.creative_md5 ?? '');
    return md5
      ? {ref: md5, md5, name: String(found!.values.creative_name ?? '')}
      : {ref};
  };
  return sheets.sets
    .filter(
      s =>
        (s.account ?? account) === account &&
        String(s.values.offer_name ?? '') === name,
    )
    .map(s => ({
      creative_set_name: String(s.values.creative_set_name ?? ''),
      geos: listOf(s.values.geos),
      ad_outputs: listOf(s.values.ad_outputs).map(Number),
      creatives: listOf(s.values.creatives).map(resolve),
    }));
}
