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
 *
 * Acting as every account, each refresher's listing goes out once per account (signed by it),
 * all of them in the same two phases; an account any of whose lists fails is left out of the
 * write, its rows exactly as they were, and the summary names it with the error.
 */
import type {ApiClient} from '../../api/client';
import {MAX_LIMIT, campaignsListing, offersListing} from '../../api/operations';
import {ListResult, Listing, listEach} from '../../api/paging';
import type {Offer} from '../../api/types';
import type {Platform, Workbook} from '../../platform/ports';
import {
  MergeCounts,
  MergeResult,
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
import {fieldChanges} from '../../sheets/history-fields';
import {HistoryChange, HistoryOutcome, timeOf} from '../../sheets/history';
import {readOnlyPrint} from '../../sheets/read-only';
import {columnOf, sameContent} from '../../sheets/rows';
import type {SheetState} from '../../sheets/pulled';
import {StateBook} from '../../state/book';
import {type Outbox, writeKey} from '../../state/outbox';
import {
  Contents,
  Formula,
  Table,
  openTable,
  sheetRow,
} from '../../sheets/table';
import type {RowWrites} from '../row-writes';
import {
  ACCOUNT,
  accountOfCell,
  keyParts,
  recordKey,
} from '../../sheets/accounts';
import {subAccountNamesInSheet} from '../../sheets/sub-account-names';
import {Noun, counted, noun} from '../../text/wording';
import {COMPARED, watchedFacts} from './alerts';
import {
  ServerChanges,
  serverChangeMessage,
  serverChanges,
  serverChangesSaid,
} from './server-changes';
import {
  refreshedAt,
  refreshedNow,
  scheduledWrites,
} from './server-changes-memory';
import {textOf} from '../../rules/values';
import {accountLabel} from '../connect';
import {AccountsFound, accountsToActFor} from '../accounts';
import type {ChangeLog} from '../change-log';
import {EVERY_ACCOUNT} from '../settings-store';
import {ConfigError} from '../../api/errors';
import {
  PACE_MEMO,
  otherSchedules,
  RefreshCost,
  quotaProblem,
  refreshPlan,
} from './refresh-cost';
import {JobFacts, RunOptions, withJob} from '../kernel';
import {OfferWatch, alertsEmail} from './offer-watch';
import {SettingsStore} from '../settings-store';
import {
  sentServerClicks,
  withServerClick,
} from '../../state/server-click-memory';
import {AccountLine, JobSummary, MAX_PROBLEMS, RowProblem} from '../run';

/** Where a refresher writes: the spreadsheet, the state sheet, who pulled, and when. */
export interface RefreshContext {
  workbook: Workbook;
  state: StateBook;
  /** The requests out (state/outbox.ts): a push's writes in flight, settled by what is listed. */
  outbox: Outbox;
  /** The accounts whose lists answered ('' for the main account): their rows are replaced. */
  accounts: readonly string[];
  /** The connection's fingerprint and label (connect.ts): stored with what is pulled. */
  connection: {fingerprint: string; label: string};
  now: Date;
  /** The alerts a refresh of offers finds (offer-watch.ts). */
  watch?: OfferWatch;
  /** The run's History: what a push left in flight and the refresh found settled. */
  log?: ChangeLog;
  /** The job's writer of a sheet (kernel.ts Job.track), its rows stamped `now`. */
  track<S>(table: Table<S>): RowWrites<S>;
}

/** How one sheet came out of a refresh. */
export interface SheetReport {
  sheet: string;
  counts: MergeCounts;
  notes: RowNote[];
  /**
   * Fields found changed outside Offer Desk (History rows), records not compared, and
   * whether the sheet's last refresh could not be read at all (nothing compared).
   */
  seen?: {changes: number; unreadable: number; unread?: true};
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
  /** Signs as the account listed. */
  client: ApiClient;
  /** Signs as the main account: sub-accounts are listed with its keys (API part 5, rule 3). */
  main: ApiClient;
  /** For reading only: nothing is written before every listing has answered. */
  workbook: Workbook;
}

/** What one account's listing answered. */
export interface AccountListed<T> extends ListResult<T> {
  /** '' for the main account. */
  account: string;
}

/** One API listing and the sheets it fills. */
export interface Refresher<T = unknown> {
  /** What it lists, for messages: noun('offer'). */
  what: Noun;
  /**
   * The main account's records whoever acts (sub-accounts): listed once, with its keys.
   * Otherwise the listing goes out for each account acted for.
   */
  mainOnly?: boolean;
  /**
   * What its cost is told from before it starts (refresh-cost.ts): the sheets it writes, the
   * first holding a record per item listed, as last pulled; and its listing's page size.
   */
  cost: {sheets: readonly string[]; pageSize: number};
  /** The listing it needs, with the client that signs it; the job fetches it. */
  listing(context: FetchContext): Listing<T>;
  /**
   * What to write, from what each account listed; writes nothing, may ask the API for more
   * (signed by the main account).
   */
  pulled(
    listed: ReadonlyArray<AccountListed<T>>,
    context: FetchContext,
  ): Pulled;
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
  const rows = records.reduce((n, r) => n + r.sources.length, 0);
  let table = openTable(context.workbook, schema, {create: true, rows})!;
  if (context.state.get(schema.name)?.storedAs === 1) reformatNumbers(table);
  const previous = sameConnection(context.state.get(schema.name), context);
  const unread = context.state.unreadable(schema.name);
  const merge = () =>
    mergeRecords({
      table,
      records,
      previous,
      accounts: context.accounts,
      label: accountLabel,
      context: context.workbook,
      now: context.now,
    });
  const first = merge();
  const printed = (m: MergeResult) =>
    withReadOnlyPrints(table, m.rows, m.state, context.workbook);
  // The pull as the state keeps it, read-only prints and all (a sheet with statuses).
  const pulled = schema.sync ? printed(first) : undefined;
  const seen = pulled
    ? beforeWriting(context, schema, previous, first, pulled)
    : undefined;
  let merged = first;
  let rowAt = writeMerged(table, merged, context);
  // A person typed into rows the writer was to overwrite (it kept their cells): the sheet as
  // it is now is merged again, so those rows say EDITED or CONFLICT like any unpushed edit.
  for (let pass = 1; rowAt.kept && pass < MERGE_PASSES; pass++) {
    table = openTable(context.workbook, schema, {create: true, rows})!;
    merged = merge();
    rowAt = writeMerged(table, merged, context);
  }
  const counts = {
    ...merged.counts,
    added: first.counts.added,
    removed: first.counts.removed,
  };
  const notes = merged.notes.map(note => ({
    ...note,
    row: sheetRow(rowAt.at[note.row - sheetRow(0)]),
  }));
  if (answers !== undefined) {
    const id = schema.columns.find(c => c.header === schema.id)!;
    const listed = context.now.toISOString().slice(0, 16).replace('T', ' ');
    table.sheet.setNotes(1, table.position.get(schema.id)! + 1, [
      [
        `${headerNote(id as Column<never>)}\n\nThe rows answer the list of ${answers}, as the ${context.accounts.map(accountLabel).join(', ')}, ${listed} UTC.`,
      ],
    ]);
  }
  // A sheet with statuses remembers its records even without editable columns: a row of
  // them is then known as its account's, not unknown.
  if (schema.sync) {
    context.state.set(schema.name, {
      ...(merged === first && pulled ? pulled : printed(merged)),
      connection: context.connection.fingerprint,
      connectionLabel: context.connection.label,
    });
    // A time that only moves when this refresh found a change (or an account's first): a
    // refresh that changed nothing writes nothing, and "since" stays true, if older.
    refreshedNow(
      context.state,
      schema.name,
      context.accounts.filter(
        a => seen?.accounts.includes(a) || !previous?.accounts.includes(a),
      ),
      context.now,
    );
    // Queued behind the sheet's writes, so both reach the document in the same round trip: a
    // run Apps Script stops before the job's end (at the next sheet's read, say) leaves no
    // sheet written beside its old state, whose rows the next push would take for edits.
    context.state.save();
  }
  return {
    sheet: schema.name,
    counts,
    notes,
    ...(seen
      ? {seen: {changes: seen.changes.length, unreadable: seen.unreadable}}
      : schema.sync && unread
        ? {seen: {changes: 0, unreadable: 0, unread: true}}
        : {}),
  };
}

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
 * compare. The state saved after the write replaces it.
 */
function beforeWriting<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  previous: SheetState | undefined,
  merged: MergeResult,
  pulled: SheetState,
): ServerChanges | undefined {
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
    if (!was) {
      records[id] = now;
      continue;
    }
    records[id] = {
      ...was,
      writing: sameContent(was.rows, now.rows) ? undefined : now.rows,
      toldFacts: seen.toldFacts.get(id),
      readOnly: was.readOnly === now.readOnly ? was.readOnly : undefined,
    };
  }
  context.state.set(schema.name, {...previous, records});
  context.state.save();
  return seen;
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

/**
 * How many times a refresh merges one sheet at most: again only after a person typed over a
 * cell it was writing, so a third pass means someone is typing fast into the rows it writes.
 * Their cells are kept whatever the passes (the writer never overwrites them).
 */
const MERGE_PASSES = 3;

/** Writes a merge through the one writer: where its rows landed, and whether typing was kept. */
function writeMerged<S>(
  table: Table<S>,
  merged: MergeResult,
  context: RefreshContext,
): {at: number[]; kept: boolean} {
  const rows = context.track(table);
  const at = rows.writer.replaceRows(merged.rows, merged.sources);
  return {at, kept: rows.flush().kept.length > 0};
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
    const account = schema.account ? accountOfCell(cell(ACCOUNT)) : '';
    if (account === undefined) continue;
    const key = recordKey(account, id);
    if (printed.has(key) || !records[key]) continue;
    printed.add(key);
    records[key] = {
      ...records[key],
      readOnly: readOnlyPrint(schema, cell),
    };
  }
  return {...state, records};
}

/** A listed record as the sheet shows it, its account aside (the listing's). */
export type ToRecord<T, S> = (item: T) => Omit<PulledRecord<S>, 'account'>;

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

export const campaignsRefresher = sheetRefresher(
  noun('campaign'),
  CAMPAIGNS,
  ({client}) => campaignsListing(client),
  MAX_LIMIT.campaigns,
  campaign => ({
    sources: [campaign],
    facts: {maintain_by: String(campaign.maintain_by ?? '')},
  }),
);

/** What a push needs to know of an offer: who maintains it, where it delivers. */
function offerFacts(offer: Offer): Record<string, string> {
  return {
    maintain_by: String(offer.maintain_by ?? ''),
    target_geo: String(offer.target_geo ?? ''),
  };
}

/** One offers listing fills both Offers and Budgets. */
export const offersRefresher: Refresher<Offer> = {
  what: noun('offer'),
  cost: {sheets: [OFFERS.name, BUDGETS.name], pageSize: MAX_LIMIT.offers},
  listing: ({client}) => offersListing(client),
  pulled: listed => ({
    records: listed.reduce((n, l) => n + l.items.length, 0),
    requests: listed.reduce((n, l) => n + l.requests, 0),
    write: context => {
      const sent = sentServerClicks(context.state);
      // The alerts are decided on what the server answered, before any sheet is written, and
      // recorded with the Offers state they compare against: a run failing after it (at
      // Budgets, say) leaves them to the next refresh, which would not find them again.
      context.watch?.check(context, context.state.get(OFFERS.name), listed);
      const offers = refreshSheet(
        context,
        OFFERS,
        pulledRecords(listed, offer => ({
          sources: [withServerClick(offer, sent)],
          // Only what a later run reads of the last pull (issue 37: the state is no copy).
          facts: {
            ...offerFacts(offer),
            ...watchedFacts(offer, COMPARED),
            bid_rate: textOf(offer.bid_rate),
          },
        })),
      );
      context.watch?.commit(context.state);
      const budgets = refreshSheet(
        context,
        BUDGETS,
        pulledRecords(listed, offer => ({
          sources: budgetRows(offer),
          // The budget guard names the offer and its currency.
          facts: {
            ...offerFacts(offer),
            currency: String(offer.currency ?? ''),
            offer_name: String(offer.offer_name ?? ''),
          },
        })),
      );
      context.watch?.write(context);
      return [offers, budgets];
    },
  }),
};

/** The precision of the round trip a refresh measures for the next one's estimate. */
const PACE_STEP_MS = 100;

/** Runs refreshers under the document lock: fetch all (together), then write all. */
export function runRefresh(
  platform: Platform,
  job: string,
  refreshers: readonly Refresher[],
  options: RunOptions = {},
  /** The sheet to show when the run made new sheets (else the last one made is shown). */
  shows?: string,
): JobSummary {
  return withJob(platform, job, {startedAt: options.startedAt}, run => {
    const {connected, workbook} = run;
    const sheetNames =
      connected.account === EVERY_ACCOUNT
        ? subAccountNamesInSheet(workbook)
        : [];
    // Told before anything is sent: a refresh that cannot fit never starts, one that fits
    // only in part refreshes the accounts that fit.
    const {cost, only, left} = refreshPlan(
      run.book,
      refreshers,
      connected.account,
      sheetNames,
    );
    const store = new SettingsStore(platform.userProperties);
    if (options.scheduled)
      checkScheduledQuota(store, platform, cost, connected.account);
    const found = fitting(
      only?.length === 1
        ? {accounts: [''], failed: [], requests: 0}
        : accountsToActFor(connected, sheetNames),
      only,
      left,
    );
    if (connected.account === EVERY_ACCOUNT)
      found.failed.push(...noLongerListed(run.book, refreshers, found));
    const fetching = (account: string): FetchContext => ({
      client: connected.clientFor(account),
      main: connected.mainClient,
      workbook,
    });
    const plan = refreshers.map(r => (r.mainOnly ? [''] : found.accounts));
    // Several accounts: one that fails is named and left as it was, the others are written.
    const isolated = found.accounts.length > 1;
    // All listings of all accounts in the same two phases; the sidebar's bar follows their sum.
    const listingFrom = platform.clock.now();
    const waitedFrom = connected.waitedMs();
    let roundTrips = 0;
    const results = listEach(
      refreshers.flatMap((r, i) =>
        plan[i].map(account => ({
          ...r.listing(fetching(account)),
          ...(isolated ? {isolated: true} : {}),
        })),
      ),
      (fetched, total) => {
        // Told once per phase of first pages and once per batch after it: its round trips.
        roundTrips++;
        platform.progress.report(job, fetched, total);
      },
    );
    // In steps of PACE_STEP_MS, so a refresh that changed nothing finds the same pace and
    // leaves the state sheet unwritten. The waits the server asked for (429 Retry-After) are
    // not its pace: one refused run priced in would refuse every later refresh, and the pace
    // would never be measured again.
    const pace =
      (platform.clock.now() -
        listingFrom -
        (connected.waitedMs() - waitedFrom)) /
      roundTrips;
    run.book.setMemo(PACE_MEMO, {
      roundTripMs: Math.ceil(pace / PACE_STEP_MS) * PACE_STEP_MS,
    });
    const listed = refreshers.map((_, i) => {
      const from = plan.slice(0, i).reduce((n, p) => n + p.length, 0);
      return plan[i].map((account, k) => ({account, ...results[from + k]}));
    });
    const failed = accountFailures(found.failed, listed.flat());
    const answered = (list: Array<AccountListed<unknown>>) =>
      list.filter(l => !failed.has(l.account));
    const pulled = refreshers.map((r, i) =>
      r.pulled(answered(listed[i]), fetching('')),
    );
    const context: RefreshContext = {
      workbook,
      state: run.book,
      outbox: run.outbox,
      accounts: found.accounts.filter(a => !failed.has(a)),
      connection: {
        fingerprint: connected.fingerprint,
        label: connected.connectionLabel,
      },
      now: new Date(platform.clock.now()),
      watch: new OfferWatch(platform),
      log: run.log,
      track: table => run.track(table, () => context.now.getTime()),
    };
    let reports: SheetReport[];
    try {
      // Each refresher replaces the rows of the accounts it listed (the main account's alone for
      // sub-accounts), of those whose lists all answered.
      reports = pulled.flatMap((p, i) =>
        p.write({
          ...context,
          accounts: plan[i].filter(a => !failed.has(a)),
        }),
      );
      if (shows) workbook.showInstead(shows);
    } finally {
      // A sheet refusing its layout stops the job: the ones written before keep their state.
      run.save();
    }
    // A scheduled run emails the alerts not told yet and the count of fields changed on the
    // server; a person reads any other's summary.
    const seen = reports.reduce((n, r) => n + (r.seen?.changes ?? 0), 0);
    const summary = context.watch!.summarize(
      run.summary(
        refreshFacts(
          refreshers,
          pulled,
          reports,
          connected.account === EVERY_ACCOUNT
            ? everyAccount(found.accounts.length - 1)
            : run.account,
          failed,
        ),
      ),
      run.book,
      options.scheduled
        ? (lines, problem) => alertsEmail(platform, store, lines, problem, seen)
        : undefined,
      seen,
    );
    const named = [...new Set([...found.accounts, ...failed.keys()])];
    return named.length > 1
      ? {...summary, accounts: accountLines(named, listed, failed)}
      : summary;
  });
}

/**
 * The sub-accounts whose records the last pull of these sheets holds, that neither the
 * listing nor the Sub-accounts sheet names now, nor failed already: deleted, or no longer the
 * main account's. Named, so their rows carried as they were are never taken for refreshed.
 */
function noLongerListed(
  book: StateBook,
  refreshers: readonly Refresher[],
  found: AccountsFound,
): AccountsFound['failed'] {
  const named = new Set([
    ...found.accounts,
    ...found.failed.map(f => f.account),
  ]);
  const held = new Set(
    refreshers.flatMap(r =>
      Object.keys(book.get(r.cost.sheets[0])?.records ?? {}).map(
        key => keyParts(key).account,
      ),
    ),
  );
  return [...held]
    .filter(account => !named.has(account))
    .map(account => ({
      account,
      message:
        'no longer listed: deleted, or no longer a sub-account of the main account; its rows are as the last refresh left them',
    }));
}

/**
 * The accounts found, but for those a refresh trimmed to fit one run (refreshPlan) leaves out:
 * named among the failed, each with why, so their rows are carried as they were.
 */
function fitting(
  found: AccountsFound,
  only: readonly string[] | undefined,
  left: ReadonlyMap<string, string>,
): AccountsFound {
  if (!only) return found;
  const out = found.accounts.filter(a => !only.includes(a));
  const why = [...left.values()][0];
  return {
    ...found,
    accounts: found.accounts.filter(a => only.includes(a)),
    failed: [
      ...found.failed,
      ...[...new Set([...left.keys(), ...out])]
        .filter(a => a !== '' && !found.failed.some(f => f.account === a))
        .map(account => ({account, message: left.get(account) ?? why})),
    ],
  };
}

/** One line per account acted for: the records it listed, or why it was left out. */
function accountLines(
  accounts: readonly string[],
  listed: ReadonlyArray<ReadonlyArray<AccountListed<unknown>>>,
  failed: ReadonlyMap<string, string>,
): AccountLine[] {
  return accounts.map(account => {
    const error = failed.get(account);
    return {
      account: accountLabel(account),
      records: error
        ? 0
        : listed
            .flat()
            .filter(l => l.account === account)
            .reduce((n, l) => n + l.items.length, 0),
      ...(error !== undefined ? {error} : {}),
    };
  });
}

/** Who a refresh as every account acted for, as its summary says it. */
function everyAccount(subAccounts: number): string {
  return subAccounts === 0
    ? 'every account: the main account only, no sub-account was listed or named in Sub-accounts'
    : `every account: the main account and ${counted(subAccounts, 'sub-account')}`;
}

/**
 * A scheduled run whose schedule would spend more UrlFetch calls a day than the quota, beside
 * the person's other schedules (the accounts grew since it was saved, or another spreadsheet's
 * did), does not start, and says what to change. One that runs records what it is expected to
 * make, for the checks of the others.
 */
function checkScheduledQuota(
  store: SettingsStore,
  platform: Platform,
  cost: RefreshCost,
  acting: string,
): void {
  const documentId = platform.documentId();
  const schedule = store.schedule(documentId);
  if (!schedule) return;
  const problem = quotaProblem(
    cost,
    acting,
    schedule.hours,
    otherSchedules(store.schedules(), documentId),
  );
  if (problem) {
    throw new ConfigError(`nothing was sent and no sheet changed. ${problem}`);
  }
  const name = platform.workbook().name();
  if (schedule.requests !== cost.requests || schedule.name !== name)
    store.setSchedule(documentId, {...schedule, requests: cost.requests, name});
}

/**
 * The accounts left out of a refresh, each with why: its keys could not be had, or one of its
 * lists failed (the first failure said).
 */
function accountFailures(
  keyless: ReadonlyArray<{account: string; message: string}>,
  listed: ReadonlyArray<AccountListed<unknown>>,
): Map<string, string> {
  const failed = new Map(keyless.map(f => [f.account, f.message]));
  for (const l of listed) {
    if (l.failed && !failed.has(l.account))
      failed.set(l.account, l.failed.message);
  }
  return failed;
}

function refreshFacts(
  refreshers: readonly Refresher[],
  pulled: readonly Pulled[],
  reports: SheetReport[],
  account: string,
  failed: ReadonlyMap<string, string>,
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
  const failures = [...failed].map(
    ([name, why]) => `${accountLabel(name)} (${why})`,
  );
  const seen = serverChangesSaid(
    reports.reduce((n, r) => n + (r.seen?.changes ?? 0), 0),
    reports.reduce((n, r) => n + (r.seen?.unreadable ?? 0), 0),
    reports.filter(r => r.seen?.unread).map(r => r.sheet),
  );
  return {
    sheet: reports[0]?.sheet ?? '',
    ok: pulled.reduce((n, p) => n + p.records, 0),
    invalid,
    error: failed.size,
    skipped: edited + conflict,
    message: `Refreshed ${listed} (${account})${details ? `: ${details}` : ''}.${seen}${failures.length > 0 ? ` Not refreshed, rows left as they were: ${failures.join('; ')}.` : ''}`,
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
export function refreshOffers(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runRefresh(
    platform,
    'refreshOffers',
    [offersRefresher],
    options,
    OFFERS.name,
  );
}
