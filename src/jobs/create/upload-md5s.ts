/**
 * Materials looked up by md5 in creatives/source (API 4.9): the upload answer names a
 * material's md5 and name at most; the list gives its type, resolution and size, and the name
 * an `already existed` answer left out.
 */
import type {ApiClient} from '../../api/client';
import {MAX_LIMIT, materialsListing} from '../../api/operations';
import {listEach} from '../../api/paging';
import type {Material} from '../../api/types';
import {encode} from '../../sheets/codec';
import {columnOf} from '../../sheets/rows';
import type {Table} from '../../sheets/table';
import type {RowWrites} from '../row-writes';
import {MaterialVerdict, Unnamed, onServer, quoted} from './upload-verdicts';

/** What the upload answer leaves out, filled from the material as the server lists it. */
const DETAILS = [
  'creative_type',
  'resolution',
  'size',
  'language',
  'platform',
] as const;

export function fillDetails(
  writes: RowWrites<Material>,
  index: number,
  material: Material,
): void {
  for (const header of DETAILS) {
    const column = columnOf(writes.table, header);
    writes.set(index, header, encode(column, material[header] ?? null));
  }
}

/** The materials creatives/source lists for `md5s`, or why the look-up failed. */
interface Md5Lookup {
  /** By lowercase md5; undefined when the look-up failed. */
  listed?: Map<string, Material>;
  failure?: Error;
  requests: number;
}

/**
 * Looks the md5s up in creatives/source (4.9), each in the materials of its account (signed by
 * it), at most 200 per request, all requests of all accounts in one batch: the upload answer
 * names a material's md5 and name at most, the list gives its type, resolution and size (and
 * the name an `already existed` answer left out). It runs even when the time budget is spent:
 * it is one read, bounded by the retry deadline, and without it the uploads just answered
 * would be lost. One account's failed look-up is that account's alone. Answers by account.
 */
export function listByMd5(
  clientFor: (account: string) => ApiClient,
  wanted: ReadonlyArray<{account: string; md5: string}>,
): Map<string, Md5Lookup> {
  const byAccount = new Map<string, Set<string>>();
  for (const {account, md5} of wanted) {
    byAccount.set(account, (byAccount.get(account) ?? new Set()).add(md5));
  }
  const chunks: Array<{account: string; md5s: string[]}> = [];
  for (const [account, set] of byAccount) {
    const md5s = [...set];
    for (let i = 0; i < md5s.length; i += MAX_LIMIT.materials) {
      chunks.push({account, md5s: md5s.slice(i, i + MAX_LIMIT.materials)});
    }
  }
  const results = listEach<Material>(
    chunks.map(({account, md5s}) => ({
      ...materialsListing(clientFor(account), {creative_md5: md5s}),
      isolated: true,
    })),
  );
  const lookups = new Map<string, Md5Lookup>();
  chunks.forEach(({account}, k) => {
    const lookup: Md5Lookup = lookups.get(account) ?? {
      listed: new Map(),
      requests: 0,
    };
    const {items, failed, requests} = results[k];
    lookup.requests += requests;
    if (failed) lookup.failure = failed;
    for (const m of items)
      lookup.listed!.set(String(m.creative_md5).toLowerCase(), m);
    lookups.set(account, lookup);
  });
  for (const lookup of lookups.values()) {
    if (lookup.failure) delete lookup.listed;
  }
  return lookups;
}

/**
 * The rows whose `already existed` answer named no name get the one the server lists in
 * their account (`lookupOf` a row).
 */
export function nameByMd5(
  rows: readonly Unnamed[],
  lookupOf: (index: number) => Md5Lookup,
  table: Table<Material>,
): Map<number, MaterialVerdict> {
  const verdicts = new Map<number, MaterialVerdict>();
  const said = (row: Unnamed) =>
    `The API answered ${quoted(row.answer)}: material ${row.md5} is already on the server`;
  for (const row of rows) {
    const {listed, failure} = lookupOf(row.index);
    if (!listed) {
      verdicts.set(row.index, {
        status: 'ERROR',
        message: `${said(row)}, but looking up its creative_name failed (${failure?.message}), so nothing was filled in. Run Upload creative materials again.`,
      });
      continue;
    }
    const name = listed.get(row.md5)?.creative_name;
    verdicts.set(
      row.index,
      name === undefined
        ? {
            status: 'ERROR',
            message: `${said(row)}, but creatives/source does not list that md5, so its creative_name is unknown and nothing was filled in. Run Refresh creative materials and use the material's own row if it appears; otherwise run Upload creative materials again later.`,
          }
        : onServer(
            table,
            row.index,
            row.md5,
            String(name),
            `Already on the server (the API answered ${quoted(row.answer)}, naming no creative_name, so the md5 was looked up): creative_md5 ${row.md5} and creative_name ${name} filled in.`,
          ),
    );
  }
  return verdicts;
}
