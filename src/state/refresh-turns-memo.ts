/**
 * The turns of a refresh of every account that does not fit its run (jobs/refresh/refresh-turns.ts
 * decides them): the accounts in the order its next run takes them. A queue rather than times,
 * so a refresh that took every account leaves it as it was and writes no state.
 */
import type {StateBook} from './book';

export const REFRESH_TURNS_MEMO = 'refresh turns';

/** A refresh (the sheets it lists) -> its accounts ('' the main account) in turn. */
type Turns = Record<string, string[]>;

function turns(book: StateBook): Turns {
  const kept = book.memo<unknown>(REFRESH_TURNS_MEMO);
  return typeof kept === 'object' && kept !== null && !Array.isArray(kept)
    ? (kept as Turns)
    : {};
}

/** The accounts of `refresh` in turn; none where it never took turns (or the memo is no list). */
export function turnsOf(book: StateBook, refresh: string): string[] {
  const queue: unknown = turns(book)[refresh];
  return Array.isArray(queue)
    ? queue.filter((a): a is string => typeof a === 'string')
    : [];
}

/** Keeps the accounts of `refresh` in turn; saved with the book's next save(). */
export function rememberTurns(
  book: StateBook,
  refresh: string,
  accounts: readonly string[],
): void {
  book.setMemo(REFRESH_TURNS_MEMO, {...turns(book), [refresh]: [...accounts]});
}
