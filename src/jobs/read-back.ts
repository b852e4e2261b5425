/**
 * The one read-back protocol: how a write whose answer was lost is settled, by a push
 * (push/push-delivery.ts) and by a create's tracking (create/offer-tracking.ts) alike; the
 * scheduled changes read their records before sending with the same reading
 * (scheduled/apply.ts).
 *
 * Before a push's write leaves, it is posted to the outbox (state/outbox.ts: what was sent),
 * and each answer settles the entry; a run killed while the write is out leaves it there. A mark or a lost answer is never sent blind: the records are read
 * back by id, each account's signed with its own keys (one list request per 50 ids), and each
 * judged by rules/read-back.ts: applied, not applied, changed by someone else, or cannot tell;
 * what is done next, the marks left and the words a row says of it follow from the verdict.
 */
import type {ApiClient} from '../api/client';
import {IdGroup, READ_BACK_IDS, ReadBack} from '../api/paging';
import {ReadBackVerdict, ServerRecord, judgeReadBack} from '../rules/read-back';
import {recordKey} from '../sheets/accounts';
import {CodecContext, canonical, encode} from '../sheets/codec';
import {EMPTY, contentOf} from '../sheets/rows';
import {SheetSchema, editableOf, readColumn} from '../sheets/schema';
import type {TimeBudget} from './run';

/** What a list reads back: a sheet's records by id, as their row sources. */
export interface ReadBackList<S> {
  schema: SheetSchema<S>;
  readBack(groups: readonly IdGroup[]): ReadBack<S>;
}

/** A record to read back: its account signs the request. */
export interface ReadBackTarget {
  account: string;
  id: string;
}

/**
 * The listed records by record key: per row, each editable field's canonical text, null where
 * the list does not return the field.
 */
export type Listed = ReadonlyMap<string, ReadonlyArray<Array<string | null>>>;

export type ReadBackResult =
  | {listed: Listed; requests: number}
  /** `failed`: why, as the clause a row's message carries. */
  | {failed: string; error?: unknown; requests: number};

/** The clause of a read back the time left no room for. */
export const NO_TIME_TO_READ = 'the time ran out before reading it back';

/**
 * Reads the targets' records back, every account's list signed by that account, all in one
 * batch within the time budget (none given: it starts whatever the time).
 */
export function readBack<S>(
  list: ReadBackList<S>,
  targets: readonly ReadBackTarget[],
  deps: {
    clientFor(account: string): ApiClient;
    context: CodecContext;
    budget?: TimeBudget;
  },
): ReadBackResult {
  const accounts = [...new Set(targets.map(t => t.account))];
  const groups = accounts.map(account => ({
    client: deps.clientFor(account),
    ids: [
      ...new Set(targets.filter(t => t.account === account).map(t => t.id)),
    ],
  }));
  const read = () => {
    try {
      return list.readBack(groups);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  const back = deps.budget ? deps.budget.batch(read) : read();
  if (back === undefined) return {failed: NO_TIME_TO_READ, requests: 0};
  if (back instanceof Error) {
    // Each list's first page went out, at least.
    const requests = groups.reduce(
      (n, g) => n + Math.ceil(g.ids.length / READ_BACK_IDS),
      0,
    );
    return {
      failed: `reading it back failed (${back.message})`,
      error: back,
      requests,
    };
  }
  const {schema} = list;
  const idColumn = schema.columns.find(c => c.header === schema.id)!;
  const text = (value: unknown) =>
    canonical(idColumn, encode(idColumn, value ?? null), deps.context);
  const listed = new Map<string, Array<Array<string | null>>>();
  back.records.forEach((records, g) => {
    for (const rows of records) {
      listed.set(
        recordKey(accounts[g], text(readColumn(idColumn, rows[0]))),
        rows.map(source =>
          editableOf(schema).map(column => {
            const value = readColumn(column, source);
            return value === undefined
              ? null
              : canonical(column, encode(column, value), deps.context);
          }),
        ),
      );
    }
  });
  return {listed, requests: back.requests};
}

/**
 * A listed record as content (rows.ts contentOf), a field the list does not return taking
 * its text of `fill` where that is one row (what was sent, or what was last pulled: reading
 * cannot tell it), else empty.
 */
export function serverRecord<S>(
  schema: SheetSchema<S>,
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  fill: readonly string[][],
): ServerRecord & {rows: string[][]} {
  const blind = new Set<string>();
  const headers = editableOf(schema).map(c => c.header);
  const texts = rows.map(row =>
    row.map((value, k) => {
      if (value !== null) return value;
      blind.add(headers[k]);
      return fill.length === 1 ? fill[0][k] : EMPTY;
    }),
  );
  return {rows: contentOf(texts), blind};
}

/** A write whose answer was lost, as the read back judges it. */
export interface LostWrite {
  key: string;
  /** What it sent, and what the record held before it: editable contents. */
  sent: string[][];
  before: string[][];
  /** The fields it changed, of a one-row record (none: judged whole). */
  changed: readonly string[];
}

/** The verdict on a lost write, from what reading back listed (or why it could not). */
export function verdictOn<S>(
  schema: SheetSchema<S>,
  back: ReadBackResult,
  write: LostWrite,
): ReadBackVerdict {
  if ('failed' in back) {
    return {verdict: 'cannot tell', because: {unread: back.failed}};
  }
  const rows = back.listed.get(write.key);
  return judgeReadBack({
    fields: editableOf(schema).map(c => c.header),
    empty: EMPTY,
    sent: write.sent,
    before: write.before,
    changed: write.changed,
    server: rows && serverRecord(schema, rows, write.sent),
  });
}

/**
 * What reading back told, as the clause a row's message carries after the lost answer:
 * `subject` names the record where the list did not return it.
 */
export function readBackSays(
  verdict: ReadBackVerdict,
  subject: string,
): string {
  switch (verdict.verdict) {
    case 'applied':
      return 'reading it back confirmed it';
    case 'not applied':
      return 'reading it back shows the server does not have it';
    case 'changed':
      return `reading it back shows ${verdict.shows.map(s => `${s.field} ${s.value}`).join(', ')}, neither what was sent nor what it was (the server's own form of it, or a change made since)`;
    default: {
      const {because} = verdict;
      if ('unread' in because) return because.unread;
      if ('unlisted' in because)
        return `reading it back did not list ${subject}`;
      return `reading it back cannot tell: the API's list does not return ${because.blind.join(', ')}`;
    }
  }
}

/** Why a write was sent a second time, after `lost`: read back, it was not applied. */
export const sentAgain = (lost: string) =>
  `sent again: ${lost}, and reading it back showed it was not applied`;
