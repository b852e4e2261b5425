/**
 * The Budgets sheet: one row per budget group of each offer (API 4.5), beside the offer's
 * delivery geos, so budgets are split or merged by adding or deleting rows. An offer's rows
 * together are its whole budget: a push replaces the offer's budget with them.
 *
 * A group is `ALL` (one budget shared by every delivery geo) or comma-separated geo codes.
 * An offer without a budget shows one row with empty budget cells: fill it to give it one.
 */
import type {Offer, OfferBudget} from '../../api/types';
import {MONEY_FORMAT, defineSchema} from '../schema';

/** A row: the offer and one of its budget items (none for an offer without a budget). */
export interface BudgetRow {
  offer: Offer;
  group?: OfferBudget;
}

export const DAILY_CAP_TYPES = ['BUDGET', 'CONVERSION'] as const;

/**
 * Widths (px) narrower than the defaults, each bold header whole: at 1280 px with the sidebar
 * open, Sheets shows some 860 px of columns, and every column from account through
 * total_budget fits in them unscrolled (the currency beside the caps, issue 33). maintain_by
 * and the sync columns are a short scroll right: the sync columns trail every sheet
 * (DESIGN 4.3), and with currency the columns through sync_status take 921 px. A long
 * offer_name or target_geo is cut at the cell's edge (the formula bar shows it).
 */
export const BUDGETS = defineSchema<BudgetRow>({
  name: 'Budgets',
  about:
    "One row per budget group of each offer (API 4.5), with the offer's delivery geos beside it. An offer's rows together are its whole budget: a push replaces the offer's budget with them. Split or merge groups by adding rows (copy a row of the offer) or deleting them. An offer without a budget shows one row with empty budget cells: fill it to give it one. Deleting every row of an offer sends nothing; the next refresh brings its budget back.",
  account: 'pulled',
  id: 'offer_id',
  rowKey: ['country_code'],
  sync: true,
  sends:
    "Push budgets sends the offer's whole budget (all its rows) when any of its rows changed.",
  columns: [
    {
      header: 'offer_id',
      width: 62,
      type: 'integer',
      read: r => r.offer.offer_id,
      note: 'The offer. To add a budget group, copy one of its rows and change country_code.',
    },
    {
      header: 'offer_name',
      width: 82,
      type: 'text',
      read: r => r.offer.offer_name,
      note: 'Offer name.',
    },
    {
      header: 'target_geo',
      width: 80,
      type: 'list',
      joined: true,
      read: r => r.offer.target_geo,
      note: "The offer's delivery geos: per-geo groups must cover each of them exactly once.",
    },
    {
      header: 'currency',
      width: 66,
      type: 'text',
      read: r => r.offer.currency,
      later: true,
      note: "The offer's currency (CNY or USD), that of its account: daily_cap (BUDGET) and total_budget are in it, and the budget guard asks and totals per currency. Read-only.",
    },
    {
      header: 'country_code',
      width: 98,
      type: 'list',
      joined: true,
      upper: true,
      unordered: true,
      editable: true,
      read: r => r.group?.target_geo ?? null,
      note: 'ALL (one budget shared by all geos of the offer) or comma-separated geo codes forming one group. An offer has either one ALL group or per-geo groups, never both.',
    },
    {
      header: 'daily_cap_type',
      width: 108,
      type: 'text',
      editable: true,
      values: DAILY_CAP_TYPES,
      read: r => r.group?.daily_cap_type ?? null,
      note: 'BUDGET (daily_cap is money) or CONVERSION (daily_cap counts conversions).',
    },
    {
      header: 'daily_cap',
      width: 72,
      type: 'decimal',
      open: true,
      editable: true,
      read: r => r.group?.daily_cap ?? null,
      note: 'Daily cap, at least 50 (a whole number for CONVERSION, three decimals at most), or OPEN for no limit.',
    },
    {
      header: 'total_budget',
      width: 88,
      type: 'decimal',
      format: MONEY_FORMAT,
      open: true,
      editable: true,
      read: r => r.group?.total_budget ?? null,
      note: 'Total consumable budget (three decimals at most), or OPEN for no limit.',
    },
    {
      header: 'maintain_by',
      width: 85,
      type: 'text',
      read: r => r.offer.maintain_by,
      later: true,
      note: 'Who manages the offer: ADV (you: its budget is yours to edit) or AM (your account manager: a push refuses its rows, whose budget cells are grey).',
    },
  ],
  lockedWhen: {header: 'maintain_by', value: 'AM'},
});

/** An offer's rows: one per budget item, or one empty row when it has none. */
export function budgetRows(offer: Offer): BudgetRow[] {
  const groups = Array.isArray(offer.budget) ? offer.budget : [];
  return groups.length > 0 ? groups.map(group => ({offer, group})) : [{offer}];
}
