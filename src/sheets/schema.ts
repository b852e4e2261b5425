/**
 * Declarative sheet schemas: the framework every sheet of the add-on is described with.
 *
 * A `SheetSchema` names the sheet and lists its columns in their default order. Each `Column`
 * gives its header (the API's own field name, DESIGN 4.3), its type (the cell codec, codec.ts),
 * whether the user may edit it (editable columns are what a push sends and what a refresh
 * keeps when they hold unpushed edits), its enumerated values (a dropdown when editable; `suggests` where the list is not fixed), the
 * header note (the field's meaning from the API document), a number format and a width (both
 * derived from the type unless given, see `formatOf` and `widthOf`) and how to read it from the
 * row's source object (`read`, by default the field named like the header).
 *
 * A schema is generic in its row source `S`: one object per sheet row. Most sheets have one
 * row per API record (S is the record); a sheet may give a record several rows (Budgets: one
 * per budget group, S pairs the offer with a group; `rowKey` names the columns that tell the
 * rows of one record apart). `id` names the column holding the record's id: rows are matched
 * with records by it, never by position.
 *
 * Sheets the add-on writes statuses to set `sync: true` and end with `sync_status`,
 * `sync_message`, `synced_at` (SYNC_COLUMNS). Defining a new sheet: write its schema with
 * `defineSchema` in src/sheets/schemas/ and list it in schemas/index.ts (the user guide,
 * docs/sheets.md, is generated from that list by scripts/gen-docs.ts); then use table.ts to
 * read it (openTable) and write it (writer.ts), rows.ts to tell its rows' records and edits,
 * merge.ts to refresh it from API records (jobs/refresh/refresh-sheet.ts `refreshSheet` does all three) and
 * the state book (src/state/book.ts) to remember what was pulled.
 */
import type {CellValue} from '../platform/ports';
import {ACCOUNT} from './accounts';
import type {CodecSpec, ColumnType} from './codec';

export interface Column<S = unknown> extends CodecSpec {
  header: string;
  type: ColumnType;
  /** The field's meaning, shown as the header's note. */
  note: string;
  /** The user may change it and a push sends it. */
  editable?: boolean;
  /**
   * Known values where the API document does not fix the list (schemas/vendor-values.ts, and
   * the billing types of rules/offer-pricing.ts): a dropdown that only suggests. Unlike
   * `values`, the codec never respells a typed value to match one: it reads as typed, and so
   * does a comma-separated list of them in a list column. A rule may still take a known
   * value's spelling where the API's case is known (billing_type: cpi is sent as CPI).
   */
  suggests?: readonly string[];
  /**
   * The API's list never returns it: the cell shows what the add-on last sent, and an empty
   * cell means "not known", not "empty" (support_server_click).
   */
  unlisted?: boolean;
  /** Must be filled for the row to mean anything (an id the user types, New Offers fields). */
  required?: boolean;
  /** A number format; by default one that suits the type. */
  format?: string;
  /** Width in pixels; by default one that suits the type and the header. */
  width?: number;
  /**
   * The user types it although no push sends it (a Creatives file, or its name before the
   * upload; a sub-account's name and password; the Alerts `seen` tick): an input column, with
   * the editable columns' header colour and never protected like the read-only columns.
   */
  typed?: boolean;
  /**
   * The API value for this row; undefined when the API did not say (the last known value
   * stays). By default the source's field named like the header.
   */
  read?: (source: S) => unknown;
  /**
   * When the API does not say (read gives undefined), a refresh leaves the cell as it is,
   * travelling with its record like a column of the user's: what the user types for a create
   * (Creatives `file`, Sub-accounts `password`) and fields only a create answers (credit).
   */
  kept?: boolean;
  /**
   * A read-only column a later release added: a sheet an earlier release made lacks it, and
   * a job that adds no columns (a push) reads the sheet without it; the next refresh adds it.
   */
  later?: boolean;
}

export interface SheetSchema<S = unknown> {
  /** The sheet's name (DESIGN 4.3). */
  name: string;
  /** What a row is and how the sheet is used, for the user guide (docs/sheets.md). */
  about?: string;
  /** Header of the column holding the record id. */
  id: string;
  /** Headers that tell apart the rows of one record (several rows per record). */
  rowKey?: readonly string[];
  /**
   * Headers whose cells tell a row apart for a write (writer.ts finds the row a decision is
   * for by them when the job writes); by default the id and the rowKey. A sheet whose rows
   * are written before they have an id (New Offers) names what the user gave them.
   */
  identity?: readonly string[];
  columns: ReadonlyArray<Column<S>>;
  /** Ends with the sync columns: the add-on writes row statuses here. */
  sync: boolean;
  /** What a push or create sends of the editable columns and when, for their header notes. */
  sends?: string;
  /**
   * Rows the user wrote for a create job that has not run yet (a Creatives row with a file
   * and no md5, a Sub-accounts row with a password): a refresh keeps them exactly as they are,
   * whatever their id cell says. `cell` reads the row's cell under a header.
   */
  awaitsCreation?: (cell: (header: string) => CellValue) => boolean;
  /**
   * The read-only column and value that mark a row no push may send (maintain_by AM): a row's
   * editable cells are greyed as a read-only header is, wherever a job writes that column, so
   * a paste or a fill-down does not start on rows it cannot send.
   */
  lockedWhen?: {header: string; value: string};
  /**
   * Rows belong to an account (DESIGN 4.3): `defineSchema` puts the `account` column first.
   * 'pulled': a refresh fills it, read-only; 'typed': the user says which account creates
   * the row (empty: the acting account).
   */
  account?: 'pulled' | 'typed';
}

/** The headers whose cells tell a row apart for a write (see `identity`). */
export function identityOf<S>(schema: SheetSchema<S>): readonly string[] {
  const own = schema.identity ?? [schema.id, ...(schema.rowKey ?? [])];
  return schema.account ? [ACCOUNT, ...own] : own;
}

export const SYNC_STATUS = 'sync_status';
export const SYNC_MESSAGE = 'sync_message';
export const SYNCED_AT = 'synced_at';

export const SYNC_COLUMNS: ReadonlyArray<Column> = [
  {
    header: SYNC_STATUS,
    type: 'text',
    // CONFLICT fits; a narrow status keeps it beside the editable columns.
    width: 85,
    note: 'Written by Offer Desk: OK (accepted), INVALID (refused before sending, nothing sent), ERROR (the API or the network refused), EDITED (changed, not pushed yet), CONFLICT (edited here while the server changed it).',
  },
  {
    header: SYNC_MESSAGE,
    type: 'text',
    width: 300,
    note: 'Written by Offer Desk: what happened to the row, with the field and the reason when it was refused.',
  },
  {
    header: SYNCED_AT,
    type: 'timestamp',
    note: 'Written by Offer Desk: when the status was written.',
  },
];

export const TEXT_FORMAT = '@';
export const INTEGER_FORMAT = '0';
/**
 * Numbers as they are, without padding: `-5`, `5.5`, `20`. `0.###############`, the pattern
 * Sheets reports for its automatic format, would show a whole number with a trailing point
 * (`-5.`) once set explicitly, as `0.##` does; General shows none (docs/architecture.md).
 */
export const NUMBER_FORMAT = 'General';
/** Money: two decimals always, up to four when the API has them (budgets take three). */
export const MONEY_FORMAT = '0.00##';
/** The one timestamp format of the add-on, in sheets and in the sidebar. */
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** The number format a column's cells get. */
export function formatOf(column: Column<never>): string {
  if (column.format) return column.format;
  switch (column.type) {
    case 'integer':
      return INTEGER_FORMAT;
    case 'decimal':
      // Time zones, sizes and caps that may be counts: money columns say MONEY_FORMAT.
      return NUMBER_FORMAT;
    case 'timestamp':
      return DATE_TIME_FORMAT;
    default:
      // Lists, codes and text as plain text: what a user types stays what they typed.
      return TEXT_FORMAT;
  }
}

/** Sheets' width of a column nobody sized, in pixels. */
export const DEFAULT_WIDTH = 100;

/** Pixels a character of a bold 10 pt header takes, and the room around it (filter button). */
const HEADER_CHAR_PX = 7;
const HEADER_PADDING_PX = 24;

/**
 * The width a column is given: its own, else one by what it holds (ids and numbers narrow,
 * names, links and JSON wide: API field names end in `_name`, `_url`), never so narrow that
 * the header is cut.
 */
export function widthOf(column: Column<never>): number {
  if (column.width) return column.width;
  const byContent = (): number => {
    if (column.type === 'json') return 300;
    if (/(_name|_url|description)$/.test(column.header)) return 220;
    switch (column.type) {
      case 'integer':
      case 'decimal':
      case 'yesno':
        return 80;
      case 'timestamp':
        return 140;
      default:
        return 120;
    }
  };
  return Math.max(
    byContent(),
    column.header.length * HEADER_CHAR_PX + HEADER_PADDING_PX,
  );
}

/** Whether long values are clipped at the cell's edge rather than spilling over (JSON). */
export function isClipped(column: Column<never>): boolean {
  return column.type === 'json';
}

/** Every column the add-on owns in the sheet, sync columns included, in default order. */
export function allColumns<S>(
  schema: SheetSchema<S>,
): ReadonlyArray<Column<S>> {
  return schema.sync
    ? [...schema.columns, ...(SYNC_COLUMNS as ReadonlyArray<Column<S>>)]
    : schema.columns;
}

/** Each schema's editable columns, found once: every row's texts are read in their order. */
const EDITABLE = new WeakMap<
  SheetSchema<never>,
  ReadonlyArray<Column<never>>
>();

/** The columns a push sends, in schema order: the order of a record's canonical texts. */
export function editableOf<S>(
  schema: SheetSchema<S>,
): ReadonlyArray<Column<S>> {
  const key = schema as SheetSchema<never>;
  let found = EDITABLE.get(key);
  if (!found) {
    found = key.columns.filter(c => c.editable);
    EDITABLE.set(key, found);
  }
  return found as ReadonlyArray<Column<S>>;
}

/** The API value of a column for a row source. */
export function readColumn<S>(column: Column<S>, source: S): unknown {
  if (column.read) return column.read(source);
  return (source as Record<string, unknown>)[column.header];
}

/**
 * The `account` column of a schema whose rows belong to an account. Its cell is never read
 * from the API record (`read` gives nothing): the merge writes the account it listed. Wide
 * enough for "(main account)" and a sub-account's name, no wider: it comes first in every
 * record sheet, before what a row is about.
 */
const ACCOUNT_WIDTH = 100;

function accountColumn<S>(kind: 'pulled' | 'typed'): Column<S> {
  return kind === 'pulled'
    ? {
        header: ACCOUNT,
        type: 'text',
        width: ACCOUNT_WIDTH,
        read: () => undefined,
        note: "Whose record the row is: (main account), or the sub-account it was listed as. A push, a revert and a create sign the row with that account's keys, whichever account you act as. Filled by a refresh; do not change it.",
      }
    : {
        header: ACCOUNT,
        type: 'text',
        width: ACCOUNT_WIDTH,
        typed: true,
        read: () => undefined,
        kept: true,
        note: "Which account creates the row: (main account), or a sub-account's sub_adv_user_name; its requests are signed with that account's keys, whichever account you act as. Empty: the account you act as (required when you act as every account); in Creative Sets, its offer's; in Creatives, that of the new offers that use it (filled once uploaded).",
      };
}

/** Checks a schema's internal consistency once, where it is defined. */
export function defineSchema<S>(given: SheetSchema<S>): SheetSchema<S> {
  const schema = given.account
    ? {...given, columns: [accountColumn<S>(given.account), ...given.columns]}
    : given;
  const headers = allColumns(schema).map(c => c.header);
  const twice = headers.find((h, i) => headers.indexOf(h) !== i);
  if (twice !== undefined) {
    throw new Error(`schema ${schema.name}: column ${twice} is listed twice`);
  }
  for (const name of [schema.id, ...(schema.rowKey ?? [])]) {
    if (!headers.includes(name)) {
      throw new Error(`schema ${schema.name}: no column ${name}`);
    }
  }
  return schema;
}
