/**
 * A refresher of one sheet from one listing, and the pieces a refresher of its own is made of:
 * what the accounts listed, as the merge takes it and written into a sheet.
 */
import type {Listing} from '../../api/paging';
import type {PulledRecord} from '../../sheets/merge';
import type {SheetSchema} from '../../sheets/schema';
import type {Noun} from '../../text/wording';
import type {AccountListed, FetchContext, Pulled, Refresher} from './refresher';
import {refreshSheet} from './refresh-sheet';

/** A listed record as the sheet shows it, its account aside (the listing's). */
type ToRecord<T, S> = (item: T) => Omit<PulledRecord<S>, 'account'>;

/** The records each account listed, as the merge takes them: with their account. */
export function pulledRecords<T, S>(
  listed: ReadonlyArray<AccountListed<T>>,
  toRecord: ToRecord<T, S>,
): Array<PulledRecord<S>> {
  return listed.flatMap(({account, items}) =>
    items.map(item => ({...toRecord(item), account})),
  );
}

/** What the accounts listed, written into the sheet of `schema`. */
export function sheetPulled<T, S>(
  schema: SheetSchema<S>,
  listed: ReadonlyArray<AccountListed<T>>,
  toRecord: ToRecord<T, S>,
  answers?: string,
): Pulled {
  return {
    records: listed.reduce((n, l) => n + l.items.length, 0),
    requests: listed.reduce((n, l) => n + l.requests, 0),
    write: refresh => [
      refreshSheet(refresh, schema, pulledRecords(listed, toRecord), answers),
    ],
  };
}

/**
 * A refresher that fills one sheet from one listing: `listing` declares it, `toRecord` maps
 * each listed item to the rows it takes; `answers` names the query the listing answers.
 */
export function sheetRefresher<T, S>(
  what: Noun,
  schema: SheetSchema<S>,
  listing: (context: FetchContext) => Listing<T>,
  pageSize: number,
  toRecord: ToRecord<T, S>,
  answers?: string,
): Refresher<T> {
  return {
    what,
    cost: {sheets: [schema.name], pageSize},
    listing,
    pulled: listed => sheetPulled(schema, listed, toRecord, answers),
  };
}
