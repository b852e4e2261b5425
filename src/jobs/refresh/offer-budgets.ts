/**
 * The Budgets records of an offers refresh, made from the offers' Offers cells once Offers is
 * written (issue 37): a refresh holds one encoded record per offer while Offers is merged and
 * written, not a Budgets record beside it.
 *
 * Every field Budgets reads of an offer is an Offers column. Its cell gives back what Budgets
 * makes of the field: the cell is the field encoded as Budgets encodes it (the same column
 * spec, and encoding a cell again gives the cell), its text is the field's text, and the
 * budget's JSON decodes to the budget. A field for which that does not hold (an object where
 * a text is expected, a budget given as text, a value JSON does not carry) is kept as listed.
 */
import type {Offer} from '../../api/types';
import {CellPool} from '../../sheets/cell-pool';
import {NO_ZONE, decode} from '../../sheets/codec';
import {BUDGETS, budgetRows} from '../../sheets/schemas/budgets';
import {OFFERS} from '../../sheets/schemas/offers';
import {
  EncodedRecord,
  ServerCells,
  columnIndex,
  encodeRecord,
} from '../../sheets/server-records';

/** The fields of an offer Budgets reads: its columns' and its facts' (budgetRecord). */
export const BUDGETS_READS = [
  'offer_id',
  'offer_name',
  'target_geo',
  'currency',
  'maintain_by',
  'budget',
] as const;

/** Fields of an offer kept as listed, because their Offers cells would not give them back. */
export type ListedFields = Partial<Pick<Offer, (typeof BUDGETS_READS)[number]>>;

/** The offers one account listed, as the Offers cells Budgets reads and the fields kept as listed. */
export interface OffersCells {
  account: string;
  /** Of each offer, the Offers cells Budgets reads (budgetCells). */
  rows: ServerCells[];
  /** By index in `rows`: the fields its cells would not give back. */
  asListed: ReadonlyMap<number, ListedFields>;
}

/** What a push needs to know of an offer: who maintains it, where it delivers. */
export function offerFacts(offer: Offer): Record<string, string> {
  return {
    maintain_by: String(offer.maintain_by ?? ''),
    target_geo: String(offer.target_geo ?? ''),
  };
}

/** An offer's Budgets record, its facts those the budget guard reads besides a push's. */
export function budgetRecord(
  offer: Offer,
  account: string,
  pool: CellPool,
): EncodedRecord {
  return encodeRecord(
    BUDGETS,
    {
      account,
      sources: budgetRows(offer),
      // The budget guard names the offer and its currency.
      facts: pool.facts({
        ...offerFacts(offer),
        currency: String(offer.currency ?? ''),
        offer_name: String(offer.offer_name ?? ''),
      }),
    },
    pool,
  );
}

/** The Budgets records of the offers listed, in their order, from their Offers cells. */
export function budgetRecords(
  listed: ReadonlyArray<OffersCells>,
): EncodedRecord[] {
  const pool = new CellPool();
  return listed.flatMap(({account, rows, asListed}) =>
    rows.map((cells, k) =>
      budgetRecord(offerOfCells(cells, asListed.get(k)), account, pool),
    ),
  );
}

/** The fields of `offer` its Offers cells would not give back, if any. */
export function unfaithful(offer: Offer): ListedFields | undefined {
  let kept: Record<string, unknown> | undefined;
  for (const field of BUDGETS_READS) {
    const value: unknown = offer[field];
    const faithful =
      field === 'budget' ? faithfulBudget(value) : faithfulScalar(value);
    if (!faithful) (kept ??= {})[field] = value;
  }
  return kept as ListedFields | undefined;
}

const OFFERS_AT = columnIndex(OFFERS);
const READ_AT = BUDGETS_READS.map(field => OFFERS_AT.get(field)!);
const BUDGET = BUDGETS_READS.indexOf('budget');

/**
 * The Offers cells of an offer that Budgets reads, in BUDGETS_READS order: what Budgets keeps
 * of an Offers row once Offers is merged (offers-refresher.ts), so the whole row can go with
 * the Offers write (issue 37).
 */
export function budgetCells(offersCells: ServerCells): ServerCells {
  return READ_AT.map(at => offersCells[at]);
}

/** What Budgets reads of an offer, from its cells (budgetCells) and the fields kept as listed. */
function offerOfCells(cells: ServerCells, listed?: ListedFields): Offer {
  const fields: Record<string, unknown> = {};
  BUDGETS_READS.forEach((field, k) => (fields[field] = cells[k]));
  const budget = decode(
    OFFERS.columns[READ_AT[BUDGET]],
    cells[BUDGET],
    NO_ZONE,
  );
  fields.budget = budget.ok ? budget.value : null;
  return {...fields, ...listed} as unknown as Offer;
}

/**
 * A field Budgets encodes as a text, list or number, and reads as text: its cell does both
 * unless it is an object (JSON in the cell, `[object Object]` as text) or -0 (a sheet's 0
 * may stand for it).
 */
function faithfulScalar(value: unknown): boolean {
  if (value === null) return true;
  return typeof value !== 'object' && !Object.is(value, -0);
}

/**
 * Budgets reads groups from an array only. A text may hold JSON of an array, which the cell
 * unwraps; an object comes back from its JSON when JSON carries all of it; what else the
 * cell holds decodes to no array, as the field is none.
 */
function faithfulBudget(value: unknown): boolean {
  if (typeof value === 'object' && value !== null) return carriedByJson(value);
  return typeof value !== 'string';
}

/** Whether JSON.parse(JSON.stringify(value)) gives back an equal value. */
function carriedByJson(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) {
      if (!(k in value) || !carriedByJson(value[k])) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value as object).every(carriedByJson);
}
