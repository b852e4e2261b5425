/**
 * The pull jobs (DESIGN 3, issue 4): list records from the API, then write each sheet once.
 *
 * Everything is fetched before anything is written: an API failure (a 5xx after retries,
 * refused keys) throws before the first cell changes, so every sheet stays exactly as it was
 * and the error says why. Writing goes through the sheets framework: the merge keeps unpushed
 * edits (EDITED / CONFLICT) and the user's own columns, and the state sheet remembers what was
 * pulled.
 *
 * A refresher declares the listing it needs and turns its records into sheets; it fetches
 * nothing itself. The job fetches the listings of all its refreshers together (paging.ts):
 * every first page in one fetchAll, then every other page in shared batches, so refreshAll
 * costs the round trips of one listing, not of four in a row. refresh-all.ts lists what
 * refreshAll runs.
 */
import type {ApiClient} from '../../api/client';
import {campaignsListing, offersListing} from '../../api/operations';
import {ListResult, Listing, listEach} from '../../api/paging';
import type {Offer} from '../../api/types';
import type {Platform, Workbook} from '../../platform/ports';
import {
  MergeCounts,
  OtherAccounts,
  othersMemo,
  PulledRecord,
  RowNote,
  mergeRecords,
} from '../../sheets/merge';
import {headerNote} from '../../sheets/layout';
import {
  Column,
  NUMBER_FORMAT,
  SheetSchema,
  formatOf,
} from '../../sheets/schema';
import {BUDGETS, budgetRows} from '../../sheets/schemas/budgets';
import {CAMPAIGNS} from '../../sheets/schemas/campaigns';
import {OFFERS} from '../../sheets/schemas/offers';
import {CodecContext, canonical} from '../../sheets/codec';
import {readOnlyPrint} from '../../sheets/read-only';
import {columnOf} from '../../sheets/rows';
import {SheetState, StateBook} from '../../sheets/state';
import {
  Contents,
  Formula,
  Table,
  openTable,
  sheetRow,
} from '../../sheets/table';
import {SheetWriter} from '../../sheets/writer';
import {Noun, counted, noun} from '../../text/wording';
import {watchedFacts} from './alerts';
import {accountLabel} from '../connect';
import {JobFacts, withJob} from '../kernel';
import {OfferWatch} from './offer-watch';
import {ServerClickMemo, sentServerClicks} from '../server-click-memory';
import {JobSummary, MAX_PROBLEMS, RowProblem} from '../run';

/** Where a refresher writes: the spreadsheet, the state sheet, who pulled, and when. */
export interface RefreshContext {
  workbook: Workbook;
  state: StateBook;
  /** '' for the main account. */
  account: string;
  /** The connection's fingerprint and label (connect.ts): stored with what is pulled. */
  connection: {fingerprint: string; label: string};
  now: Date;
  /** The alerts a refresh of offers finds (offer-watch.ts). */
  watch?: OfferWatch;
}

/** How one sheet came out of a refresh. */
export interface SheetReport {
  sheet: string;
  counts: MergeCounts;
  notes: RowNote[];
}

/** A listing fetched and not yet written. */
export interface Pulled {
  /** Records listed. */
  records: number;
  /** Requests sent. */
  requests: number;
  /** Writes the listing into its sheets. */
  write(context: RefreshContext): SheetReport[];
}

/** What a refresher may use to declare its listing and to complete what it listed. */
export interface FetchContext {
  /** Signs as the account acted as. */
  client: ApiClient;
  /** Signs as the main account: sub-accounts are listed with its keys (API part 5, rule 3). */
  main: ApiClient;
  /** For reading only: nothing is written before every listing has answered. */
  workbook: Workbook;
}

/** One API listing and the sheets it fills. */
export interface Refresher<T = unknown> {
  /** What it lists, for messages: noun('offer'). */
  what: Noun;
  /** The listing it needs, with the client that signs it; the job fetches it. */
  listing(context: FetchContext): Listing<T>;
  /** What to write, from the listed records; writes nothing, may ask the API for more. */
  pulled(listed: ListResult<T>, context: FetchContext): Pulled;
}

/**
 * Merges `records` into the sheet of `schema` (created when missing) and writes it once,
 * remembering what was pulled for the next refresh and push. `answers` names the query the
 * records answer, for a sheet that shows one query at a time: the id header's note says it.
 */
export function refreshSheet<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  records: ReadonlyArray<PulledRecord<S>>,
  answers?: string,
): SheetReport {
  const table = openTable(context.workbook, schema, {
    create: true,
    rows: records.reduce((n, r) => n + r.sources.length, 0),
  })!;
  const others = context.state.memo<OtherAccounts>(othersMemo(schema.name));
  if (context.state.get(schema.name)?.storedAs === 1) reformatNumbers(table);
  const merged = mergeRecords({
    table,
    records,
    previous: sameConnection(context.state.get(schema.name), context),
    others,
    account: context.account,
    label: accountLabel,
    context: context.workbook,
    now: context.now,
  });
  const writer = new SheetWriter(table, () => context.now.getTime());
  const rowAt = writer.replaceRows(merged.rows, merged.sources);
  writer.flush();
  const notes = merged.notes.map(note => ({
    ...note,
    row: sheetRow(rowAt[note.row - sheetRow(0)]),
  }));
  if (answers !== undefined) {
    const id = schema.columns.find(c => c.header === schema.id)!;
    const listed = context.now.toISOString().slice(0, 16).replace('T', ' ');
    table.sheet.setNotes(1, table.position.get(schema.id)! + 1, [
      [
        `${headerNote(id as Column<never>)}\n\nThe rows answer the list of ${answers}, as the ${accountLabel(context.account)}, ${listed} UTC.`,
      ],
    ]);
  }
  // A sheet with statuses remembers its records even without editable columns: refreshed as
  // another account, rows of these records are then known as another account's, not unknown.
  if (schema.sync) {
    context.state.set(schema.name, {
      ...withReadOnlyPrints(table, merged.rows, merged.state, context.workbook),
      connection: context.connection.fingerprint,
      connectionLabel: context.connection.label,
    });
    // Written once some row of another account is kept, and from then on.
    if (others || Object.keys(merged.others).length > 0) {
      context.state.setMemo(othersMemo(schema.name), merged.others);
    }
    // Queued behind the sheet's writes, so both reach the document in the same round trip: a
    // run Apps Script stops before the job's end (at the next sheet's read, say) leaves no
    // sheet written beside its old state, whose rows the next push would take for edits.
    context.state.save();
  }
  return {sheet: schema.name, counts: merged.counts, notes};
}

/**
 * Release 1 formatted plain numbers `0.###############`, which Sheets shows with a trailing
 * point (`-5.`): the first refresh after the upgrade gives their columns today's format, once
 * (the state it writes is of today's version).
 */
function reformatNumbers<S>(table: Table<S>): void {
  const rows = table.sheet.maxRows() - 1;
  for (const column of table.schema.columns) {
    if (formatOf(column as Column<never>) !== NUMBER_FORMAT) continue;
    const at = table.position.get(column.header);
    if (at !== undefined) {
      table.sheet.setNumberFormat(sheetRow(0), at + 1, rows, 1, NUMBER_FORMAT);
    }
  }
}

/**
 * What was last pulled, when it was pulled with the keys connected now. Pulled with other
 * keys (another editor's, or another base URL), none of it tells an edit here: the rows are
 * taken as new from the server, and a push never sends what the other keys pulled.
 */
function sameConnection(
  state: SheetState | undefined,
  context: RefreshContext,
): SheetState | undefined {
  if (!state?.connection) return state;
  return state.connection === context.connection.fingerprint
    ? state
    : undefined;
}

/**
 * The state with the print of each record's read-only cells as just written (its first row),
 * so a push can tell a value the user types into one of them.
 */
function withReadOnlyPrints<S>(
  table: Table<S>,
  rows: Contents[][],
  state: SheetState,
  context: CodecContext,
): SheetState {
  const {schema} = table;
  const idColumn = columnOf(table, schema.id);
  const records = {...state.records};
  const printed = new Set<string>();
  for (const row of rows) {
    const cell = (header: string) => {
      const contents = row[table.position.get(header) ?? -1];
      return contents instanceof Formula ? '' : (contents ?? '');
    };
    const id = canonical(idColumn, cell(schema.id), context);
    if (printed.has(id) || !records[id]) continue;
    printed.add(id);
    records[id] = {
      ...records[id],
      readOnly: readOnlyPrint(schema, cell),
    };
  }
  return {...state, records};
}

/** Records listed with `requests` requests, written into the sheet of `schema`. */
export function sheetPulled<T, S>(
  schema: SheetSchema<S>,
  items: readonly T[],
  requests: number,
  toRecord: (item: T) => PulledRecord<S>,
  answers?: string,
): Pulled {
  return {
    records: items.length,
    requests,
    write: refresh => [
      refreshSheet(refresh, schema, items.map(toRecord), answers),
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
  toRecord: (item: T) => PulledRecord<S>,
  answers?: string,
): Refresher<T> {
  return {
    what,
    listing,
    pulled: ({items, requests}) =>
      sheetPulled(schema, items, requests, toRecord, answers),
  };
}

export const campaignsRefresher = sheetRefresher(
  noun('campaign'),
  CAMPAIGNS,
  ({client}) => campaignsListing(client),
  campaign => ({
    sources: [campaign],
    facts: {maintain_by: String(campaign.maintain_by ?? '')},
  }),
);

/**
 * What a push needs to know of an offer: who maintains it, where it delivers, and for the
 * budget guard its currency and name.
 */
function offerFacts(offer: Offer): Record<string, string> {
  return {
    maintain_by: String(offer.maintain_by ?? ''),
    target_geo: String(offer.target_geo ?? ''),
    currency: String(offer.currency ?? ''),
    offer_name: String(offer.offer_name ?? ''),
  };
}

/**
 * The offer with the support_server_click the add-on last sent, where the list leaves it out
 * (it always does: TOOLING); an offer it never sent one to keeps what the sheet last had.
 */
function withServerClick(offer: Offer, sent: ServerClickMemo): Offer {
  const fields = offer as unknown as Record<string, unknown>;
  const remembered = sent[String(offer.offer_id)];
  if (fields.support_server_click !== undefined || remembered === undefined)
    return offer;
  return {...offer, support_server_click: remembered} as Offer;
}

/** One offers listing fills both Offers and Budgets. */
export const offersRefresher: Refresher<Offer> = {
  what: noun('offer'),
  listing: ({client}) => offersListing(client),
  pulled: ({items, requests}) => ({
    records: items.length,
    requests,
    write: context => {
      const sent = sentServerClicks(context.state);
      const previous = context.state.get(OFFERS.name);
      const reports = [
        refreshSheet(
          context,
          OFFERS,
          items.map(offer => ({
            sources: [withServerClick(offer, sent)],
            facts: {...offerFacts(offer), ...watchedFacts(offer)},
          })),
        ),
        refreshSheet(
          context,
          BUDGETS,
          items.map(offer => ({
            sources: budgetRows(offer),
            facts: offerFacts(offer),
          })),
        ),
      ];
      context.watch?.check(context, previous, items);
      return reports;
    },
  }),
};

/** Runs refreshers under the document lock: fetch all (together), then write all. */
export function runRefresh(
  platform: Platform,
  job: string,
  refreshers: readonly Refresher[],
  /** The sheet to show when the run made new sheets (else the last one made is shown). */
  shows?: string,
): JobSummary {
  return withJob(platform, job, {}, run => {
    const {connected, workbook} = run;
    const fetching: FetchContext = {
      client: connected.client,
      main: connected.mainClient,
      workbook,
    };
    // All listings in the same two phases; the sidebar's bar follows their sum.
    const listed = listEach(
      refreshers.map(r => r.listing(fetching)),
      (fetched, total) => platform.progress.report(job, fetched, total),
    );
    const pulled = refreshers.map((r, i) => r.pulled(listed[i], fetching));
    const context: RefreshContext = {
      workbook,
      state: run.book,
      account: connected.account,
      connection: {
        fingerprint: connected.fingerprint,
        label: connected.connectionLabel,
      },
      now: new Date(platform.clock.now()),
      watch: new OfferWatch(platform),
    };
    let reports: SheetReport[];
    try {
      reports = pulled.flatMap(p => p.write(context));
      if (shows) workbook.showInstead(shows);
    } finally {
      // A sheet refusing its layout stops the job: the ones written before keep their state.
      run.save();
    }
    return context.watch!.summarize(
      run.summary(refreshFacts(refreshers, pulled, reports, run.account)),
    );
  });
}

function refreshFacts(
  refreshers: readonly Refresher[],
  pulled: readonly Pulled[],
  reports: SheetReport[],
  account: string,
): JobFacts {
  const sum = (pick: (c: MergeCounts) => number) =>
    reports.reduce((n, r) => n + pick(r.counts), 0);
  const edited = sum(c => c.edited);
  const conflict = sum(c => c.conflict);
  const invalid = sum(c => c.invalid);
  const problems: RowProblem[] = reports
    .flatMap(r => r.notes.map(n => ({sheet: r.sheet, ...n})))
    .slice(0, MAX_PROBLEMS);
  const listed = refreshers
    .map((r, i) => counted(pulled[i].records, r.what))
    .join(', ');
  const changes = reports
    .filter(r => r.counts.added + r.counts.removed > 0)
    .map(r => `${r.sheet}: ${r.counts.added} new, ${r.counts.removed} removed`);
  const kept = [
    edited > 0 ? `${edited} kept with unpushed edits` : '',
    conflict > 0
      ? `${conflict} in CONFLICT (changed here and on the server)`
      : '',
    invalid > 0 ? `${counted(invalid, 'row')} INVALID` : '',
  ].filter(Boolean);
  const details = [...changes, ...kept].join('; ');
  return {
    sheet: reports[0]?.sheet ?? '',
    ok: pulled.reduce((n, p) => n + p.records, 0),
    invalid,
    error: 0,
    skipped: edited + conflict,
    message: `Refreshed ${listed} (${account})${details ? `: ${details}` : ''}.`,
    problems,
    requests: pulled.reduce((n, p) => n + p.requests, 0),
    edited,
    conflict,
  };
}

export function refreshCampaigns(platform: Platform): JobSummary {
  return runRefresh(platform, 'refreshCampaigns', [campaignsRefresher]);
}

/** Fills Offers and Budgets from one offers listing. */
export function refreshOffers(platform: Platform): JobSummary {
  return runRefresh(platform, 'refreshOffers', [offersRefresher], OFFERS.name);
}
