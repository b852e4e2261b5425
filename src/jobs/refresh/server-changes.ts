/**
 * What changed on the server outside Offer Desk (DESIGN 4.7, issue 35): pure, from what a
 * sheet's state held before a refresh, what the refresh pulled, and what Offer Desk wrote
 * that the state does not hold.
 *
 * The state is the add-on's own knowledge of each record: what the last refresh pulled, and
 * after a push, a revert's push, a create's tracking or a lost write settled by reading back,
 * what it sent (push.ts `taken`, read-back.ts `marksAfter`). So a field whose value now
 * differs from the state's is one nobody told the add-on of, except:
 * - a scheduled change, which leaves the state as pulled (its rows show the value pulled until
 *   the next refresh): `ownWrites` gives the values the Scheduled sheet says went out;
 * - a write still in flight (an outbox entry, `inFlight`): refresh-settle.ts `inFlight` tells a
 *   push's records already, and a scheduled change's are its own job's to read back and settle;
 * - what a stopped refresh was writing (`writing`, and the facts it told, `toldFacts`): that
 *   refresh told it before saving it;
 * - a click_url the server keeps in its own form (scheme and host in lower case, the emulator's
 *   `normalisesClickUrl`): the same link, not a change.
 *
 * Nothing is told for an account the sheet's state has no pull of (its first refresh: nothing
 * to compare with), for a record new to the account, or for a field the state did not record
 * (an earlier release's: `unrecorded`, or a fact it did not keep). A record whose state cannot
 * be read (no rows array) is counted, told once by the summary, and compared next time.
 */
import {keyParts} from '../../sheets/accounts';
import {fieldChanges} from '../../sheets/history-fields';
import {sameContent} from '../../sheets/rows';
import type {HistoryChange} from '../../sheets/history';
import type {SheetSchema} from '../../sheets/schema';
import type {RecordState, SheetState} from '../../sheets/pulled';
import {accountLabel} from '../connect';

/** History's `job` of a change made outside Offer Desk. */
export const SERVER_JOB = 'changed on the server';

/**
 * Facts of a record watched beside its editable fields, by sheet: what the API lets another
 * tool change and a person acting on the offer wants to know of.
 */
export const WATCHED_FACTS: Readonly<Record<string, readonly string[]>> = {
  Offers: ['status', 'bid_rate', 'target_geo'],
};

/**
 * Values Offer Desk wrote that the state does not hold, as History texts: by record key, then
 * by History field (`daily_cap [ALL]`).
 */
export type OwnWrites = ReadonlyMap<
  string,
  ReadonlyMap<string, ReadonlySet<string>>
>;

export interface ServerChangesInput<S> {
  schema: SheetSchema<S>;
  /** The sheet's state before the refresh (pulled with this connection), if any. */
  previous: SheetState | undefined;
  /** The state the refresh pulled: every listed record's content and facts. */
  now: SheetState;
  /** The accounts whose lists this refresh wrote ('' for the main account). */
  accounts: readonly string[];
  /** Asked only when some field differs: its answer may cost a read. */
  /** Record keys with a write still out (the outbox): a push's, told by the refresh already; a scheduled change's, settled by its job. */
  inFlight: ReadonlySet<string>;
  ownWrites: () => OwnWrites;
  /** The History message of an account's changes (says since when): asked once an account. */
  message: (account: string) => string;
}

export interface ServerChanges {
  changes: HistoryChange[];
  /** Records listed now whose earlier state could not be read: not compared. */
  unreadable: number;
  /** The accounts ('' main) with a change found. */
  accounts: string[];
  /** By record key, the watched facts told (field -> value now): RecordState.toldFacts. */
  toldFacts: Map<string, Record<string, string>>;
}

export function serverChanges<S>(input: ServerChangesInput<S>): ServerChanges {
  const {schema, previous, now} = input;
  const found: ServerChanges = {
    changes: [],
    unreadable: 0,
    accounts: [],
    toldFacts: new Map(),
  };
  if (!previous) return found;
  const compared = new Set(
    input.accounts.filter(a => previous.accounts.includes(a)),
  );
  const unrecorded = new Set(previous.unrecorded);
  const facts = WATCHED_FACTS[schema.name] ?? [];
  let own: OwnWrites | undefined;
  // Worded once per account: saying a time asks the spreadsheet's time zone (a service call).
  const messages = new Map<string, string>();
  const messageOf = (account: string) => {
    if (!messages.has(account)) messages.set(account, input.message(account));
    return messages.get(account)!;
  };
  for (const [key, record] of Object.entries(now.records)) {
    const {account, id} = keyParts(key);
    const was = previous.records[key];
    if (!compared.has(account) || !was || input.inFlight.has(key)) continue;
    if (!readable(was)) {
      found.unreadable++;
      continue;
    }
    const base = was.writing ?? was.rows;
    const differ = [
      // Most records are as they were: compared whole before field by field.
      ...(sameContent(base, record.rows)
        ? []
        : fieldChanges(schema, base, record.rows).filter(
            c => !unrecorded.has(c.field.split(' ')[0]),
          )),
      ...facts.flatMap(field => {
        const before = was.facts?.[field];
        const after = record.facts?.[field] ?? '';
        return before === undefined ||
          before === after ||
          was.toldFacts?.[field] === after
          ? []
          : [{field, before, after}];
      }),
    ].filter(c => !sameLink(c.field, c.before, c.after));
    if (differ.length === 0) continue;
    own ??= input.ownWrites();
    const written = own.get(key);
    for (const change of differ) {
      if (written?.get(change.field)?.has(change.after)) continue;
      if (!found.accounts.includes(account)) found.accounts.push(account);
      if (facts.includes(change.field)) {
        found.toldFacts.set(key, {
          ...found.toldFacts.get(key),
          [change.field]: change.after,
        });
      }
      found.changes.push({
        account: accountLabel(account),
        sheet: schema.name,
        record: id,
        ...change,
        outcome: 'SEEN',
        message: messageOf(account),
        job: SERVER_JOB,
      });
    }
  }
  return found;
}

/** A record state as an older or damaged save may hold it: rows of texts, or not. */
function readable(state: RecordState): boolean {
  const rows = (state as {rows?: unknown}).rows;
  return (
    Array.isArray(rows) &&
    rows.every(r => Array.isArray(r) && r.every(t => typeof t === 'string'))
  );
}

/**
 * A click_url the server keeps with its scheme and host in lower case is the link sent (URL
 * scheme and host are case-insensitive): 2.3 says the service normalises impression_url, and
 * a server may treat click_url so (the emulator's `normalisesClickUrl`).
 */
function sameLink(field: string, before: string, after: string): boolean {
  if (field !== 'click_url') return false;
  const origin = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is;
  const a = origin.exec(before);
  const b = origin.exec(after);
  return (
    !!a && !!b && a[1].toLowerCase() === b[1].toLowerCase() && a[2] === b[2]
  );
}

const SINCE =
  /^Changed on the server since the refresh of (.+?), by no write of Offer Desk\.$/;

/**
 * The History message of a change made outside Offer Desk: since when (the last refresh of the
 * account's rows, as History shows a time; unknown before this release recorded it).
 */
export function serverChangeMessage(since: string | undefined): string {
  return since === undefined
    ? 'Changed on the server since the last refresh, by no write of Offer Desk.'
    : `Changed on the server since the refresh of ${since}, by no write of Offer Desk.`;
}

/** The time serverChangeMessage names, for the sidebar's heading; undefined: none. */
export function sinceOf(message: string): string | undefined {
  return SINCE.exec(message)?.[1];
}

/**
 * The summary's sentence: how many fields changed on the server, how many records were not
 * compared, and the sheets whose last refresh could not be read at all.
 */
export function serverChangesSaid(
  changes: number,
  unreadable: number,
  unread: readonly string[] = [],
): string {
  return [
    changes > 0
      ? ` ${changes === 1 ? '1 field' : `${changes} fields`} changed on the server, see History.`
      : '',
    unreadable > 0
      ? ` ${unreadable === 1 ? '1 record' : `${unreadable} records`} had a last refresh Offer Desk could not read: not compared for changes on the server this time.`
      : '',
    unread.length > 0
      ? ` The last refresh of ${unread.join(' and ')} could not be read from the state sheet: nothing there was compared for changes on the server this time.`
      : '',
  ].join('');
}
