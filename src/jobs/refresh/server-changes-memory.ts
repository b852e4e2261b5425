/**
 * What server-changes.ts compares beside a sheet's state, read and kept by the refresh: when
 * each account's rows of a sheet were refreshed (a memo, for "changed on the server since …",
 * moved only by a refresh that finds a change or an account's first, so a refresh that
 * changed nothing writes no state), and the values the scheduled changes sent (their store
 * in the state book, the one record of them: they leave the sheet's state as pulled).
 */
import {accountOfCell, recordKey} from '../../sheets/accounts';
import type {StateBook} from '../../state/book';
import {storedTexts} from '../../state/scheduled-memo';
import type {OwnWrites} from './server-changes';

/** sheet -> account ('' main) -> when its rows were last refreshed (ms). */
const REFRESHED_MEMO = 'refreshed';

type Refreshed = Record<string, Record<string, number>>;

/**
 * When the account's rows of the sheet were refreshed, at the latest: the refresh that last
 * found a change there, or its first (undefined: not known, a state of an earlier release).
 */
export function refreshedAt(
  book: StateBook,
  sheet: string,
  account: string,
): number | undefined {
  const at = book.memo<Refreshed>(REFRESHED_MEMO)?.[sheet]?.[account];
  return typeof at === 'number' ? at : undefined;
}

/** Records that the accounts' rows of the sheet were refreshed `now`. */
export function refreshedNow(
  book: StateBook,
  sheet: string,
  accounts: readonly string[],
  now: Date,
): void {
  if (accounts.length === 0) return;
  const memo = {...book.memo<Refreshed>(REFRESHED_MEMO)};
  memo[sheet] = {
    ...memo[sheet],
    ...Object.fromEntries(accounts.map(a => [a, now.getTime()])),
  };
  book.setMemo(REFRESHED_MEMO, memo);
}

/**
 * The values the scheduled changes of that sheet sent and the server accepted (OK: `after`;
 * REVERTED: `after`, then `before` again), by record key and field, whatever their time: a
 * change goes out up to the grace hours after its apply_at, and none is known to have gone
 * out before the last refresh. Read from the stored changes (closed ones are kept a week),
 * not from the Scheduled sheet: a cell typed over there must not explain a server's change.
 */
export function scheduledWrites(book: StateBook, sheet: string): OwnWrites {
  const out = new Map<string, Map<string, Set<string>>>();
  for (const entry of storedTexts(book)) {
    if (entry.sheet !== sheet) continue;
    const sent =
      entry.status === 'OK'
        ? [entry.after]
        : entry.status === 'REVERTED'
          ? [entry.after, entry.before]
          : [];
    if (sent.length === 0) continue;
    const key = recordKey(accountOfCell(entry.account) ?? '', entry.record);
    const fields = out.get(key) ?? new Map<string, Set<string>>();
    out.set(key, fields);
    const values = fields.get(entry.field) ?? new Set<string>();
    fields.set(entry.field, values);
    for (const value of sent) values.add(value);
  }
  return out;
}
