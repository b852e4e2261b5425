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
import {keyParts, recordKey} from '../sheets/accounts';
import {CodecContext, NO_ZONE, canonical, encode} from '../sheets/codec';
import {EMPTY, contentOf} from '../sheets/rows';
import {SheetSchema, editableOf, readColumn} from '../sheets/schema';
import type {StateBook} from '../state/book';
import {lastSent} from '../state/server-click-memory';
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
  | {
      listed: Listed;
      requests: number;
      /**
       * Accounts whose list failed while the others' answered, each with why (the clause a
       * row's message carries): one account's failure holds back no other's records.
       */
      unread?: ReadonlyMap<string, {failed: string; error?: Error}>;
    }
  /** `failed`: why, as the clause a row's message carries. */
  | {failed: string; error?: unknown; requests: number};

/** The clause of a read back the time left no room for. */
export const NO_TIME_TO_READ = 'the time ran out before reading it back';

/**
 * Reads the targets' records back, every account's list signed by that account, all in one
 * batch within the time budget (none given: it starts whatever the time). Where that batch
 * fails and it read several accounts, each account is read again on its own: the accounts
 * that answer are read, the others named in `unread` (all failing: `failed`).
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
    account,
    client: deps.clientFor(account),
    ids: [
      ...new Set(targets.filter(t => t.account === account).map(t => t.id)),
    ],
  }));
  const read = (of: typeof groups) => {
    const run = () => {
      try {
        return list.readBack(of);
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    };
    return deps.budget ? deps.budget.batch(run) : run();
  };
  // Each list's first page went out, at least.
  const sent = (of: typeof groups) =>
    of.reduce((n, g) => n + Math.ceil(g.ids.length / READ_BACK_IDS), 0);
  const whole = read(groups);
  if (whole === undefined) return {failed: NO_TIME_TO_READ, requests: 0};
  let requests = whole instanceof Error ? sent(groups) : whole.requests;
  const unread = new Map<string, {failed: string; error?: Error}>();
  const answered: Array<{account: string; records: S[][]}> = [];
  if (!(whole instanceof Error)) {
    whole.records.forEach((records, g) =>
      answered.push({account: accounts[g], records}),
    );
  } else if (groups.length === 1) {
    return {
      failed: `reading it back failed (${whole.message})`,
      error: whole,
      requests,
    };
  } else {
    for (const group of groups) {
      const one = read([group]);
      if (one === undefined || one instanceof Error) {
        requests += one ? sent([group]) : 0;
        unread.set(
          group.account,
          one
            ? {failed: `reading it back failed (${one.message})`, error: one}
            : {failed: NO_TIME_TO_READ},
        );
        continue;
      }
      requests += one.requests;
      answered.push({account: group.account, records: one.records[0]});
    }
    if (answered.length === 0) {
      return {
        failed: `reading it back failed (${whole.message})`,
        error: whole,
        requests,
      };
    }
  }
  const {schema} = list;
  const idColumn = schema.columns.find(c => c.header === schema.id)!;
  const text = (value: unknown) =>
    canonical(idColumn, encode(idColumn, value ?? null), deps.context);
  const listed = new Map<string, Array<Array<string | null>>>();
  for (const {account, records} of answered) {
    for (const rows of records) {
      listed.set(
        recordKey(account, text(readColumn(idColumn, rows[0]))),
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
  }
  return {listed, requests, ...(unread.size > 0 ? {unread} : {})};
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

/**
 * A listed record as a due scheduled change takes the server's (canonical content): a field the
 * list did not return, of a column it never returns (schema `unlisted`: support_server_click),
 * as the add-on last sent it (state/server-click-memory.ts), else empty. Answers that column's
 * header where so taken: compared and resent as Offer Desk knows it, never judged by reading
 * back (verdictOn counts every field the list did not return as blind).
 */
export function heldRecord<S>(
  schema: SheetSchema<S>,
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  book: StateBook,
  id: string,
): {content: string[][]; unlisted?: string} {
  const columns = editableOf(schema);
  let unlisted: string | undefined;
  const texts = rows.map(row =>
    row.map((text, k) => {
      if (text !== null) return text;
      const column = columns[k];
      if (!column.unlisted) return EMPTY;
      unlisted = column.header;
      const sent = lastSent(book, column.header, id);
      return sent === undefined ? EMPTY : canonical(column, sent, NO_ZONE);
    }),
  );
  return {content: contentOf(texts), ...(unlisted ? {unlisted} : {})};
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
  const unread = back.unread?.get(keyParts(write.key).account);
  if (unread) return {verdict: 'cannot tell', because: {unread: unread.failed}};
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
