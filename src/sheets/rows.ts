/**
 * Rows as records: which rows are blank, which record a row belongs to (its id cell), and the
 * canonical texts of a row's editable cells that tell an edit. Shared by the refresh merge and
 * the pushes, so both judge a row the same way.
 */
import {excerpt} from '../rules/values';
import {ACCOUNT, MAIN_ACCOUNT_CELL, accountOfCell, recordKey} from './accounts';
import {isEmptyCell, showsFormulaError} from './cell';
import {CodecContext, Decoded, canonical, canonicalOf, decode} from './codec';
import {Column, SYNC_COLUMNS, SheetSchema, editableOf} from './schema';
import {Table, cellOf} from './table';

/** The canonical text of an empty cell. */
export const EMPTY = 'null';

/** No content outside the sync columns: neither a value nor a formula. */
export function isBlankRow<S>(table: Table<S>, index: number): boolean {
  const sync = new Set(SYNC_COLUMNS.map(c => table.position.get(c.header)));
  return table.values[index].every(
    (cell, c) =>
      sync.has(c) || (isEmptyCell(cell) && !table.formulas[index]?.[c]),
  );
}

/** Each schema's columns by header, found once: rows are read cell by cell. */
const BY_HEADER = new WeakMap<SheetSchema<never>, Map<string, Column<never>>>();

export function columnOf<S>(table: Table<S>, header: string): Column<S> {
  const schema = table.schema as SheetSchema<never>;
  let byHeader = BY_HEADER.get(schema);
  if (!byHeader) {
    byHeader = new Map(schema.columns.map(c => [c.header, c]));
    BY_HEADER.set(schema, byHeader);
  }
  const column = byHeader.get(header) as Column<S> | undefined;
  if (!column)
    throw new Error(`schema ${table.schema.name} has no column ${header}`);
  return column;
}

export function editableColumns<S>(table: Table<S>): ReadonlyArray<Column<S>> {
  return editableOf(table.schema);
}

/** The record id of a row (canonical text), or null when its id cell is empty or unreadable. */
export function recordId<S>(
  table: Table<S>,
  index: number,
  context: CodecContext,
): string | null {
  const {id} = table.schema;
  const text = canonical(
    columnOf(table, id),
    cellOf(table, index, id),
    context,
  );
  return text === EMPTY || text.startsWith('\u0000') ? null : text;
}

/** Why a row that is not blank has no record id. */
export function missingIdMessage<S>(table: Table<S>, index: number): string {
  const {id} = table.schema;
  const cell = cellOf(table, index, id);
  return isEmptyCell(cell)
    ? `${id} is empty: rows here are matched with the API's records by ${id}; fill it or delete the row.`
    : `${id} ${excerpt(cell)} is not a valid id: fix it or delete the row.`;
}

/** Canonical texts of a row's editable cells, in schema order. */
export function editableTexts<S>(
  table: Table<S>,
  index: number,
  context: CodecContext,
): string[] {
  return decodeEditable(table, index, context).texts;
}

/**
 * A row's editable cells decoded once: their canonical texts (in schema order: what tells an
 * edit) beside their request values and problems (what a push builds and checks).
 */
export interface EditableRow extends DecodedRow {
  texts: string[];
}

export function decodeEditable<S>(
  table: Table<S>,
  index: number,
  context: CodecContext,
): EditableRow {
  const row: EditableRow = {texts: [], values: {}, problems: {}};
  for (const column of editableColumns(table)) {
    const cell = cellOf(table, index, column.header);
    const decoded = decode(column, cell, context);
    row.texts.push(canonicalOf(column, cell, decoded));
    putDecoded(row, table, index, column.header, decoded);
  }
  return row;
}

/** The account a row belongs to: its `account` cell, else `blank` (see RowGroups). */
export function rowAccount<S>(
  table: Table<S>,
  index: number,
  id: string | null,
  blank: BlankAccount | undefined,
): string | undefined {
  if (!table.schema.account) return '';
  const cell = accountOfCell(cellOf(table, index, ACCOUNT));
  return cell ?? (id === null ? undefined : blank?.(id));
}

/** The account of a record id whose row has an empty `account` cell, if any is known. */
export type BlankAccount = (id: string) => string | undefined;

/** Why a row that is not blank has no account. */
export function missingAccountMessage<S>(table: Table<S>): string {
  return `${ACCOUNT} is empty: rows here are matched with the API's records by ${ACCOUNT} and ${table.schema.id}; type the account the record is listed as (${MAIN_ACCOUNT_CELL} for the main account), or refresh.`;
}

/** Rows of each record, in sheet order, and the non-blank rows without a readable id. */
export interface RowGroups {
  /** Record key (accounts.ts recordKey) -> data row indexes, in order of first appearance. */
  byKey: Map<string, number[]>;
  /**
   * Rows in sheet order, with their record key (null: no readable id, or no account). A row
   * waiting for a create (the schema's awaitsCreation) has `awaits` set and belongs to no
   * record.
   */
  order: Array<{
    index: number;
    key: string | null;
    awaits?: true;
    noAccount?: true;
  }>;
}

/**
 * The rows of each record. A row's account is its `account` cell; an empty one is what
 * `blank` says (pulled.ts blankAccountOf: the rows of an earlier release), else the row has none.
 * Sheets without accounts hold the main account's records.
 */
export function groupRows<S>(
  table: Table<S>,
  context: CodecContext,
  blank?: BlankAccount,
): RowGroups {
  const byKey = new Map<string, number[]>();
  const order: RowGroups['order'] = [];
  table.values.forEach((_, index) => {
    if (isBlankRow(table, index)) return;
    if (table.schema.awaitsCreation?.(h => cellOf(table, index, h))) {
      order.push({index, key: null, awaits: true});
      return;
    }
    const id = recordId(table, index, context);
    const account = rowAccount(table, index, id, blank);
    if (id !== null && account === undefined) {
      order.push({index, key: null, noAccount: true});
      return;
    }
    const key = id === null ? null : recordKey(account!, id);
    order.push({index, key});
    if (key === null) return;
    const rows = byKey.get(key);
    if (rows) rows.push(index);
    else byKey.set(key, [index]);
  });
  return {byKey, order};
}

/**
 * A record's edit-relevant content: the editable texts of its rows, rows with every editable
 * cell empty left out (an offer's empty budget row is no budget), sorted so row order does not
 * matter.
 */
export function contentOf(rows: string[][]): string[][] {
  // Copied to its length: filter grows an array with room for 17 rows, and a state holds this
  // array for every record (128 bytes of a one-row record, issue 37).
  return rows
    .filter(row => row.some(text => text !== EMPTY))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
    .slice();
}

export function sameContent(
  a: string[][] | undefined,
  b: string[][] | undefined,
): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    JSON.stringify(a) === JSON.stringify(b)
  );
}

/**
 * Why a cell cannot be sent: it shows the error its formula gives (a reference deleted, a
 * look-up with no match), which would otherwise go out as text.
 */
export function formulaError<S>(
  table: Table<S>,
  index: number,
  header: string,
): string | undefined {
  const at = table.position.get(header);
  const formula = at === undefined ? '' : (table.formulas[index]?.[at] ?? '');
  const value = cellOf(table, index, header);
  if (formula === '' || !showsFormulaError(value)) return undefined;
  return `shows ${value}, the error of its formula ${excerpt(formula)}: fix the formula or type the value`;
}

/** Each cell of the row whose formula gives an error: header -> `header why`. */
export function formulaErrors<S>(
  table: Table<S>,
  index: number,
): Record<string, string> {
  return Object.fromEntries(
    table.schema.columns.flatMap(c => {
      const why = formulaError(table, index, c.header);
      return why ? [[c.header, `${c.header} ${why}`]] : [];
    }),
  );
}

/**
 * The problems of a row: its formula errors first, then the rules' problems of the other
 * fields (a rule would only repeat, in its words, that the error is no value).
 */
export function withFormulaErrors(
  errors: Record<string, string>,
  problems: Partial<Record<string, string>>,
): string[] {
  return [
    ...Object.values(errors),
    ...Object.entries(problems).flatMap(([field, message]) =>
      field in errors || message === undefined ? [] : [message],
    ),
  ];
}

/** A row's cells as request values, and the cells that could not be read. */
export interface DecodedRow {
  /** Header -> value (null for an empty cell, undefined for one that did not decode). */
  values: Record<string, unknown>;
  /** Header -> why the cell could not be read. */
  problems: Record<string, string>;
}

export function decodeRow<S>(
  table: Table<S>,
  index: number,
  headers: readonly string[],
  context: CodecContext,
): DecodedRow {
  const row: DecodedRow = {values: {}, problems: {}};
  for (const header of headers) {
    const cell = cellOf(table, index, header);
    putDecoded(
      row,
      table,
      index,
      header,
      decode(columnOf(table, header), cell, context),
    );
  }
  return row;
}

/** A cell's value into `row`, or why it cannot be sent: a formula's error before all. */
function putDecoded<S>(
  row: DecodedRow,
  table: Table<S>,
  index: number,
  header: string,
  decoded: Decoded,
): void {
  const problem =
    formulaError(table, index, header) ??
    (decoded.ok ? undefined : decoded.problem);
  row.values[header] =
    decoded.ok && problem === undefined ? decoded.value : undefined;
  if (problem !== undefined) row.problems[header] = problem;
}
