/**
 * What the API listed, as the merge (merge.ts) compares and writes it: each record's cells
 * encoded once, in the schema's column order, and the canonical content of its editable
 * cells. Encoded before the merge so a refresh holds these cells, not the parsed records they
 * come from, while it merges and writes a sheet (issue 37).
 */
import type {CellValue} from '../platform/ports';
import {ACCOUNT, accountCell, recordKey} from './accounts';
import {isDate} from './cell';
import {CodecContext, canonical, encode, fromCanonical} from './codec';
import type {RecordState, SheetState} from './pulled';
import {contentOf, editableColumns} from './rows';
import {Column, SheetSchema, readColumn} from './schema';
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
 * The records of `table`'s schema encoded; `previous` (what was last pulled) fills a field the
 * API did not return.
 */
export function serverRecords<S>(
  table: Table<S>,
  records: ReadonlyArray<PulledRecord<S>>,
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
  // Many records share a moment (a start time on a whole day): one Date each, not one per cell.
  const moments = new Map<number, Date>();
  for (const record of records) {
    const {account} = record;
    const rows = record.sources.map(source =>
      encodeSource(schema, source, account, moments),
    );
    const id = canonical(idColumn, rows[0][idAt]!, context);
    const key = recordKey(account, id);
    if (byKey.has(key)) continue;
    fillUnknown(schema, editable, rows, record.sources, own[key]);
    const texts = rows.map(row =>
      editable.map(k => canonical(schema.columns[k], row[k]!, context)),
    );
    byKey.set(key, {
      key,
      account,
      rows,
      content: contentOf(texts),
      ...(record.facts ? {facts: record.facts} : {}),
    });
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
  moments: Map<number, Date>,
): ServerCells {
  return schema.columns.map(c => {
    if (c.header === ACCOUNT) return accountCell(account);
    const value = readColumn(c, source);
    if (value === undefined && c.kept) return undefined;
    const cell = encode(c, value ?? null);
    if (!isDate(cell)) return cell;
    const shared = moments.get(cell.getTime()) ?? cell;
    moments.set(cell.getTime(), shared);
    return shared;
  });
}

/** A field the API did not return keeps its last known value (one-row records). */
function fillUnknown<S>(
  schema: SheetSchema<S>,
  editable: readonly number[],
  rows: ServerCells[],
  sources: S[],
  previous: RecordState | undefined,
): void {
  if (rows.length !== 1 || previous?.rows.length !== 1) return;
  editable.forEach((k, e) => {
    const column: Column<S> = schema.columns[k];
    if (readColumn(column, sources[0]) !== undefined) return;
    rows[0][k] = encode(column, fromCanonical(previous.rows[0][e]));
  });
}
