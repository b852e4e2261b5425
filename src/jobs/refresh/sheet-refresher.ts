/**
 * A refresher of one sheet from one listing, and the pieces a refresher of its own is made of:
 * what the accounts listed, as the merge takes it and written into a sheet.
 *
 * What a sheet needs of the listed items is made as soon as they are listed, and handed to its
 * write once (`once`): a Pulled keeps no listing's items, so each parsed record is garbage as
 * soon as the sheets that read it have encoded it (issue 37). A listing of many records keeps
 * them encoded as its pages arrive (offers-refresher.ts); these few are encoded at their write.
 */
import type {Listing} from '../../api/paging';
import {PulledRecord, encodeRecords} from '../../sheets/server-records';
import type {SheetSchema} from '../../sheets/schema';
import type {Noun} from '../../text/wording';
import type {AccountListed, FetchContext, Pulled, Refresher} from './refresher';
import {refreshSheet} from './refresh-sheet';

/** A listed record as the sheet shows it, its account aside (the listing's). */
type ToRecord<T, S> = (item: T) => Omit<PulledRecord<S>, 'account'>;

/** The records each account listed, as the merge takes them: with their account. */
export function pulledRecords<T, S>(
  listed: ReadonlyArray<Pick<AccountListed<T>, 'account' | 'items'>>,
  toRecord: ToRecord<T, S>,
): Array<PulledRecord<S>> {
  return listed.flatMap(({account, items}) =>
    items.map(item => ({...toRecord(item), account})),
  );
}

/**
 * `value`, handed out once and then forgotten: whoever takes it holds it no longer than it
 * needs to (refreshSheet: until the records are encoded).
 */
export function once<T>(value: T | undefined): () => T {
  return () => {
    if (value === undefined) throw new Error('already taken');
    const taken = value;
    value = undefined;
    return taken;
  };
}

/** How many records the accounts listed, and with how many requests. */
export function listedCounts<T>(
  listed: ReadonlyArray<AccountListed<T>>,
): Pick<Pulled, 'records' | 'requests'> {
  return {
    records: listed.reduce((n, l) => n + l.items.length, 0),
    requests: listed.reduce((n, l) => n + l.requests, 0),
  };
}

/** What the accounts listed, written into the sheet of `schema`. */
export function sheetPulled<T, S>(
  schema: SheetSchema<S>,
  listed: ReadonlyArray<AccountListed<T>>,
  toRecord: ToRecord<T, S>,
  answers?: string,
): Pulled {
  const records = once(pulledRecords(listed, toRecord));
  return {
    ...listedCounts(listed),
    write: refresh => [
      refreshSheet(refresh, schema, () => encodeRecords(schema, records()), {
        answers,
      }),
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
