/**
 * What the API listed, as the merge (merge.ts) compares and writes it: each record's cells
 * encoded once, in the schema's column order, and the canonical content of its editable
 * cells. Encoded as a listing parses its pages (encodeRecord, for a listing of many records)
 * or before the merge, so a refresh holds these cells, not the parsed records they come from,
 * while it merges and writes a sheet (issue 37).
 */
import type {CellValue} from '../platform/ports';
import {ACCOUNT, accountCell, recordKey} from './accounts';
import {CellPool} from './cell-pool';
import {CodecContext, canonical, encode, fromCanonical} from './codec';
import type {RecordState, SheetState} from './pulled';
import {contentOf, editableColumns} from './rows';
import {
  Column,
  SheetSchema,
  allColumns,
  editableOf,
  readColumn,
} from './schema';
import type {Table} from './table';

/** A record as the sheet shows it: one row source per row (at least one). */
export interface PulledRecord<S> {
  /** The account that listed it ('' for the main account). */
  account: string;
  sources: S[];
  /** What a push needs to remember of it (maintain_by, delivery geos). */
  facts?: Record<string, string>;
}

/**
 * A row's cells by the schema's column index; undefined: a kept column the API said nothing
 * about, whose cell the row keeps.
 */
export type ServerCells = Array<CellValue | undefined>;

export interface ServerRecord {
  /** Its record key (accounts.ts). */
  key: string;
  account: string;
  rows: ServerCells[];
  /** The canonical texts of the editable cells of each row (rows.ts contentOf). */
  content: string[][];
  facts?: Record<string, string>;
}

/** The listed records by record key, in the API's order (a repeated key: its first). */
export type ServerRecords = ReadonlyMap<string, ServerRecord>;

const POSITIONS = new WeakMap<object, ReadonlyMap<string, number>>();

/** The index of each header among the schema's columns. */
export function columnIndex<S>(
  schema: SheetSchema<S>,
): ReadonlyMap<string, number> {
  let positions = POSITIONS.get(schema);
  if (!positions) {
    positions = new Map(schema.columns.map((c, k) => [c.header, k]));
    POSITIONS.set(schema, positions);
  }
  return positions;
}

/**
 * A listed record encoded for its sheet: what a listing may keep of an item instead of the
 * parsed item (issue 37). `unknown`: the editable columns (by schema index) a one-row record's
 * API answer said nothing about, filled from what was last pulled when it is merged.
 */
export interface EncodedRecord {
  account: string;
  rows: ServerCells[];
  unknown?: readonly number[];
  facts?: Record<string, string>;
}

/** A record's rows encoded, cells the pool already holds shared. */
export function encodeRecord<S>(
  schema: SheetSchema<S>,
  record: PulledRecord<S>,
  pool: CellPool,
): EncodedRecord {
  const {account, sources, facts} = record;
  const rows = sources.map(source =>
    encodeSource(schema, source, account, pool),
  );
  const unknown =
    sources.length === 1 ? unlisted(schema, sources[0], pool) : undefined;
  // One shape for every record, made whole: an object grown by spreads holds far more.
  return {account, rows, unknown, facts};
}

/** Records encoded together: their repeated cells held once. */
export function encodeRecords<S>(
  schema: SheetSchema<S>,
  records: ReadonlyArray<PulledRecord<S>>,
): EncodedRecord[] {
  const pool = new CellPool();
  return records.map(record => encodeRecord(schema, record, pool));
}

/**
 * The records of `table`'s schema as the merge takes them; `previous` (what was last pulled)
 * fills a field the API did not return. The records' rows become the merge's: they are not
 * copied.
 */
export function serverRecords<S>(
  table: Table<S>,
  records: ReadonlyArray<EncodedRecord>,
  previous: SheetState | undefined,
  context: CodecContext,
): Map<string, ServerRecord> {
  const {schema} = table;
  const at = columnIndex(schema);
  const idAt = at.get(schema.id)!;
  const idColumn = schema.columns[idAt];
  const editable = editableColumns(table).map(c => at.get(c.header)!);
  const own = previous?.records ?? {};
  const byKey = new Map<string, ServerRecord>();
  // The canonical texts stay in the state to the job's end, and repeat down a sheet.
  const pool = new CellPool();
  for (const {account, rows, unknown, facts} of records) {
    const id = canonical(idColumn, rows[0][idAt]!, context);
    const key = recordKey(account, id);
    if (byKey.has(key)) continue;
    if (unknown) fillUnknown(schema, editable, rows, unknown, own[key]);
    const texts = rows.map(row =>
      editable.map(k =>
        pool.text(canonical(schema.columns[k], row[k]!, context)),
      ),
    );
    byKey.set(key, {key, account, rows, content: contentOf(texts), facts});
  }
  return byKey;
}

/**
 * A kept column the API said nothing about gets no cell: the row's own stays. The account
 * column says whose the record is.
 */
function encodeSource<S>(
  schema: SheetSchema<S>,
  source: S,
  account: string,
  pool: CellPool,
): ServerCells {
  // As long as a row of the sheet the add-on lays out (its statuses after the schema's
  // columns), so that the merge can make these cells a row without growing the array.
  const cells: ServerCells = new Array(allColumns(schema).length).fill('');
  schema.columns.forEach((c, k) => {
    if (c.header === ACCOUNT) {
      cells[k] = accountCell(account);
      return;
    }
    const value = readColumn(c, source);
    cells[k] =
      value === undefined && c.kept
        ? undefined
        : pool.cell(encode(c, value ?? null));
  });
  return cells;
}

/** The editable columns `source` has no value for, if any; equal lists held once. */
function unlisted<S>(
  schema: SheetSchema<S>,
  source: S,
  pool: CellPool,
): readonly number[] | undefined {
  const at = columnIndex(schema);
  const none = editableOf(schema)
    .filter(c => readColumn(c, source) === undefined)
    .map(c => at.get(c.header)!);
  return none.length > 0 ? pool.indexes(none) : undefined;
}

/** A field the API did not return keeps its last known value (one-row records). */
function fillUnknown<S>(
  schema: SheetSchema<S>,
  editable: readonly number[],
  rows: ServerCells[],
  unknown: readonly number[],
  previous: RecordState | undefined,
): void {
  if (rows.length !== 1 || previous?.rows.length !== 1) return;
  editable.forEach((k, e) => {
    if (!unknown.includes(k)) return;
    const column: Column<S> = schema.columns[k];
    rows[0][k] = encode(column, fromCanonical(previous.rows[0][e]));
  });
}
