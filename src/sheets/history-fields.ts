/**
 * A record's change as History fields, and back: the fields a push changed (before and after,
 * as a user reads them), and the record's content with those fields put back as they were
 * before (revert).
 *
 * Contents are a record's canonical editable texts (rows.ts contentOf), one array per row.
 * A one-row record (a campaign, an offer's tracking) has a field per changed column. A
 * record of several rows (Budgets) names the row by its rowKey cells in brackets:
 * `daily_cap [US,CA]`; a group added or removed has a field for each of its non-empty cells,
 * the key's own included, so revert can rebuild every row from the History alone.
 */
import {NO_ZONE, canonical, fromCanonical} from './codec';
import {EMPTY, contentOf} from './rows';
import {Column, SheetSchema, editableOf} from './schema';

export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** A canonical text as the user reads it: '' for nothing, lists comma-separated. */
export function historyText(column: Column<never>, text: string): string {
  if (text === EMPTY) return '';
  const value = fromCanonical(text);
  if (value === null || value === undefined) return '';
  if (column.type === 'json') return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(String).join(',');
  return String(value);
}

/** A History text as the canonical text of its column (how a push would read it). */
function canonicalOf(column: Column<never>, text: string): string {
  return canonical(column, text, NO_ZONE);
}

/** The positions of the rowKey columns among the editable ones. */
export function keyPositions<S>(schema: SheetSchema<S>): number[] {
  const columns = editableOf(schema);
  return (schema.rowKey ?? []).map(h => columns.findIndex(c => c.header === h));
}

/** What tells a row of a record from its others: its rowKey texts (canonical). */
export function rowKeyText(
  row: readonly string[],
  keys: readonly number[],
): string {
  return JSON.stringify(keys.map(k => row[k]));
}

function keyLabel<S>(
  schema: SheetSchema<S>,
  row: readonly string[],
  keys: readonly number[],
): string {
  const columns = editableOf(schema) as ReadonlyArray<Column<never>>;
  return keys.map(k => historyText(columns[k], row[k]) || '(none)').join(' ');
}

/** The fields that differ between two contents of one record. */
export function fieldChanges<S>(
  schema: SheetSchema<S>,
  before: readonly string[][],
  after: readonly string[][],
): FieldChange[] {
  const columns = editableOf(schema) as ReadonlyArray<Column<never>>;
  const empty = columns.map(() => EMPTY);
  const changes: FieldChange[] = [];
  const compare = (b: readonly string[], a: readonly string[], tag = '') =>
    columns.forEach((column, k) => {
      if (b[k] === a[k]) return;
      changes.push({
        field: column.header + tag,
        before: historyText(column, b[k]),
        after: historyText(column, a[k]),
      });
    });
  if (!schema.rowKey) {
    compare(before[0] ?? empty, after[0] ?? empty);
    return changes;
  }
  const keys = keyPositions(schema);
  const groups = new Map<
    string,
    {b?: readonly string[]; a?: readonly string[]}
  >();
  for (const row of before) groups.set(rowKeyText(row, keys), {b: row});
  for (const row of after) {
    const key = rowKeyText(row, keys);
    groups.set(key, {...groups.get(key), a: row});
  }
  for (const {b, a} of groups.values()) {
    const row = (a ?? b)!;
    compare(b ?? empty, a ?? empty, ` [${keyLabel(schema, row, keys)}]`);
  }
  return changes;
}

/** Why a revert cannot put a record back, or its content as it was before the change. */
export type Reverted =
  {ok: true; content: string[][]} | {ok: false; fields: string[]};

/**
 * The record's content with the change's fields set to one side of it (`before`: revert).
 * `now` is what the server is last known to hold; `from` names the side every field must
 * still be at: the fields that are not are answered, and nothing is put back.
 */
export function shiftContent<S>(
  schema: SheetSchema<S>,
  now: readonly string[][],
  changes: readonly FieldChange[],
  from: 'before' | 'after',
  to: 'before' | 'after',
): Reverted {
  const rows = rowsByLabel(schema, now);
  const moved: string[] = [];
  for (const change of changes) {
    const at = fieldAt(schema, rows, change);
    if (!at || at.row[at.k] !== at.texts[from]) {
      moved.push(change.field);
      continue;
    }
    at.row[at.k] = at.texts[to];
    rows.set(at.label, at.row);
  }
  if (moved.length > 0) return {ok: false, fields: moved};
  return {ok: true, content: contentOf([...rows.values()])};
}

/**
 * What a record's content holds at a change's field, and the change's two sides, as canonical
 * texts (a field of no column: undefined).
 */
export function fieldTexts<S>(
  schema: SheetSchema<S>,
  now: readonly string[][],
  change: FieldChange,
): {now: string; before: string; after: string} | undefined {
  const at = fieldAt(schema, rowsByLabel(schema, now), change);
  return at && {now: at.row[at.k], ...at.texts};
}

/** A record's rows by the label their group has now: a change names a group by its label after it. */
function rowsByLabel<S>(
  schema: SheetSchema<S>,
  now: readonly string[][],
): Map<string, string[]> {
  const keys = keyPositions(schema);
  const label = (row: readonly string[]) =>
    schema.rowKey ? keyLabel(schema, row, keys) : '';
  return new Map(now.map(row => [label(row), [...row]]));
}

/** Where a change's field sits (its group's row, empty where absent), and its sides' texts. */
function fieldAt<S>(
  schema: SheetSchema<S>,
  rows: ReadonlyMap<string, string[]>,
  change: FieldChange,
):
  | {
      label: string;
      row: string[];
      k: number;
      texts: Record<'before' | 'after', string>;
    }
  | undefined {
  const columns = editableOf(schema) as ReadonlyArray<Column<never>>;
  const {header, group} = splitField(change.field);
  const k = columns.findIndex(c => c.header === header);
  if (k < 0) return undefined;
  const label = schema.rowKey ? (group ?? '') : '';
  return {
    label,
    row: rows.get(label) ?? columns.map(() => EMPTY),
    k,
    texts: {
      before: canonicalOf(columns[k], change.before),
      after: canonicalOf(columns[k], change.after),
    },
  };
}

/** `daily_cap [US,CA]` -> daily_cap and the group's label. */
export function splitField(field: string): {header: string; group?: string} {
  const match = /^(\S+) \[(.*)\]$/.exec(field);
  return match ? {header: match[1], group: match[2]} : {header: field};
}
