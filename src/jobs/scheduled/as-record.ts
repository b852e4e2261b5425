/**
 * A due scheduled change as a changed record (DESIGN 4.5): its base, the server's record as
 * read now; its content, that base with the stored fields changed. Its request is the push's
 * own (`PushSpec.build`): the same rules, the same request as a push of that content.
 */
import type {Workbook} from '../../platform/ports';
import {recordKey} from '../../sheets/accounts';
import {fromCanonical} from '../../sheets/codec';
import {type SheetSchema, editableOf} from '../../sheets/schema';
import type {StateBook} from '../../state/book';
import {type ChangedRecord, type PushSpec, openedFor} from '../push/push-spec';

/** The changed record that makes `content` of the server's record `base`. */
export function asRecord(
  schema: SheetSchema<never>,
  book: StateBook,
  change: {
    account: string;
    id: string;
    /** What the server holds (canonical texts, rows.ts contentOf). */
    base: string[][];
    content: string[][];
    /** The headers that change. */
    edited: readonly string[];
  },
): ChangedRecord {
  const columns = editableOf(schema);
  const key = recordKey(change.account, change.id);
  // The facts a rule needs (a budget's delivery geos) are the record's as last pulled.
  const facts = book.get(schema.name)?.records[key]?.facts;
  return {
    account: change.account,
    id: change.id,
    key,
    rows: change.content.map((_, k) => k),
    said: change.content.map(() => ({status: '', message: ''})),
    decoded: change.content.map(texts => ({
      texts,
      values: Object.fromEntries(
        columns.map((c, k) => [c.header, fromCanonical(texts[k])]),
      ),
      problems: {},
    })),
    base: {rows: change.base, ...(facts ? {facts} : {})},
    content: change.content,
    edited: change.edited,
  };
}

/** The request of a changed record, or why the push's rules refuse it. */
export function requestOf<Q>(
  spec: PushSpec<never, Q>,
  opened: {workbook: Workbook; book: StateBook},
  record: ChangedRecord,
): {request: Q} | {refused: string} {
  // A job's book is a getter: named, not spread.
  const {workbook, book} = opened;
  const built = spec.build(
    record,
    openedFor(spec.rules, {workbook, book, records: []}),
  );
  if (built.ok) return {request: built.request};
  const why = 'kept' in built ? built.kept : built.refused;
  return {refused: [...new Set(why.values())].join(' ')};
}
