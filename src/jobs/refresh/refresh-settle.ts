/**
 * What a refresh settles before it writes a sheet: the writes a push left in flight (still in
 * the outbox) told in History by what the server has now, the fields changed outside Offer
 * Desk told (server-changes.ts), and the state saved with what the write puts in each record's
 * rows.
 */
import {RecordState, SheetState, recordWith} from '../../sheets/pulled';
import {fieldChanges} from '../../sheets/history-fields';
import {HistoryChange, HistoryOutcome, timeOf} from '../../sheets/history';
import type {MergeResult} from '../../sheets/merge';
import {keyParts} from '../../sheets/accounts';
import {sameContent} from '../../sheets/rows';
import type {SheetSchema} from '../../sheets/schema';
import {writeKey} from '../../state/outbox';
import {accountLabel} from '../connect';
import type {RefreshContext} from './refresher';
import {
  ServerChanges,
  serverChangeMessage,
  serverChanges,
} from './server-changes';
import {refreshedAt, scheduledWrites} from './server-changes-memory';

/**
 * What is saved before a sheet's write, so that a run Apps Script stops inside it (the writer
 * reads between blocks; a person's typing makes the sheet merged again) leaves History and the
 * state true whatever rows it wrote: first the History of the writes a push left in flight and
 * of the fields changed outside Offer Desk (server-changes.ts: the last moment they can be
 * told; a rerun finds them told in `writing` and `toldFacts`), then the state as last pulled with, beside
 * each record, what the write puts in its rows
 * (`writing`: rows showing either are as pulled, neither is an edit). The in-flight writes it
 * recorded are settled; a record whose read-only cells change keeps no print (neither the old
 * one nor the new one holds for every row); the facts stay the last pull's, which the alerts
 * compare. The state saved after the write replaces it. Answers what the refresh reports of the
 * changes found, not the changes: History has them, and 42,000 of them held through a large
 * write were 11 MB of its peak (issue 37).
 */
export function beforeWriting<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  previous: SheetState | undefined,
  merged: MergeResult,
  pulled: SheetState,
): ChangesSeen | undefined {
  if (!previous) return undefined;
  const seen = serverChanges({
    schema,
    previous,
    now: merged.state,
    accounts: context.accounts,
    inFlight: context.outbox.recordsOut(schema.name),
    ownWrites: () => scheduledWrites(context.state, schema.name),
    message: account => {
      const at = refreshedAt(context.state, schema.name, account);
      return serverChangeMessage(
        at === undefined ? undefined : timeOf(context.workbook, new Date(at)),
      );
    },
  });
  const found = [
    ...inFlight(context, schema, previous, merged.state),
    ...seen.changes,
  ];
  if (found.length > 0 && context.log) {
    context.log.add(found);
    context.log.flush(context.workbook);
  }
  const records = {...previous.records};
  for (const [id, now] of Object.entries(pulled.records)) {
    const was = records[id];
    records[id] = was ? settled(was, now, seen.toldFacts.get(id)) : now;
  }
  context.state.set(schema.name, {...previous, records});
  context.state.save();
  return {
    changes: seen.changes.length,
    unreadable: seen.unreadable,
    accounts: seen.accounts,
  };
}

/** What a refresh tells of the changes it found outside Offer Desk, once they are in History. */
export type ChangesSeen = Omit<ServerChanges, 'changes' | 'toldFacts'> & {
  /** How many fields were found changed. */
  changes: number;
};

/**
 * A record as last pulled with what the write puts in its rows beside it (`writing`, none where
 * they stay as they are), the facts told and its print where it stays: the record itself where
 * that is what it already was. Only the records the write marks are copies, so the state saved
 * here is not a second copy of every record while the refresh holds the last and the new one
 * (issue 37).
 */
function settled(
  was: RecordState,
  now: RecordState,
  toldFacts: Record<string, string> | undefined,
): RecordState {
  const writing = sameContent(was.rows, now.rows) ? undefined : now.rows;
  const readOnly = was.readOnly === now.readOnly ? was.readOnly : undefined;
  if (
    !writing &&
    !toldFacts &&
    !was.writing &&
    !was.toldFacts &&
    readOnly === was.readOnly
  )
    return was;
  return recordWith(was, {writing, toldFacts, readOnly});
}

/**
 * The History of the writes a push left in flight (still in the outbox: it was stopped while
 * they were out, or lost their answers and could not read them back), told by what the server
 * has now: the values sent (OK), the values before (not applied: the row keeps the edit, which
 * the next push sends and records), or neither (UNKNOWN: changed since, by whoever). Each told
 * is settled in the outbox; a record not listed (its account's list not asked, or not
 * answering) keeps its entry: nothing is known.
 */
function inFlight<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  previous: SheetState,
  pulled: SheetState,
): HistoryChange[] {
  const out = context.outbox.writesOf(schema.name);
  return [...out].flatMap(([key, sent]) => {
    const {account, id} = keyParts(key);
    const [was, now] = [previous.records[key], pulled.records[key]];
    if (!was || !now || !context.accounts.includes(account)) return [];
    context.outbox.settle(writeKey(schema.name, account, id));
    const outcome: HistoryOutcome = sameContent(now.rows, sent)
      ? 'OK'
      : sameContent(now.rows, was.rows)
        ? 'ERROR'
        : 'UNKNOWN';
    const message = {
      OK: 'A push sent it and was stopped (or lost its answer) before reading it back; this refresh found it on the server.',
      ERROR:
        'A push sent it and was stopped (or lost its answer) before reading it back; this refresh found the server without it: not applied. The row keeps your edit for the next push.',
      UNKNOWN:
        'A push sent it and was stopped (or lost its answer) before reading it back; this refresh found other values on the server (changed since): whether it was applied is not known.',
    }[outcome];
    return fieldChanges(schema, was.rows, sent).map(change => ({
      account: accountLabel(account),
      sheet: schema.name,
      record: id,
      ...change,
      outcome,
      message,
    }));
  });
}
