/**
 * The pull jobs (DESIGN 3, issue 4): list records from the API, then write each sheet once.
 *
 * Everything is fetched before anything is written: an API failure (a 5xx after retries,
 * refused keys) throws before the first cell changes, so every sheet stays exactly as it was
 * and the error says why. Writing goes through the sheets framework: the merge keeps unpushed
 * edits (EDITED / CONFLICT) and the user's own columns, and the state sheet remembers what was
 * pulled.
 *
 * A refresher pairs one API listing with the sheets it fills; refresh-all.ts lists what
 * refreshAll runs.
 */
import type {ApiClient} from '../api/client';
import type {ListProgress, ListResult} from '../api/paging';
import {listCampaigns, listOffers} from '../api/operations';
import type {Offer} from '../api/types';
import type {Platform, Workbook} from '../platform/ports';
import {
  MergeCounts,
  PulledRecord,
  RowNote,
  mergeRecords,
} from '../sheets/merge';
import type {SheetSchema} from '../sheets/schema';
import {BUDGETS, budgetRows} from '../sheets/schemas/budgets';
import {CAMPAIGNS} from '../sheets/schemas/campaigns';
import {OFFERS} from '../sheets/schemas/offers';
import {StateBook} from '../sheets/state';
import {openTable, writeTable} from '../sheets/table';
import {accountLabel, connect} from './connect';
import {
  JobSummary,
  MAX_PROBLEMS,
  RowProblem,
  TimeBudget,
  withDocumentLock,
} from './run';

/** Where a refresher writes: the spreadsheet, the state sheet, who pulled, and when. */
export interface RefreshContext {
  workbook: Workbook;
  state: StateBook;
  /** '' for the main account. */
  account: string;
  now: Date;
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

/** What else a listing may need besides the acting account's client. */
export interface FetchContext {
  /** Signs as the main account: sub-accounts are listed with its keys (API part 5, rule 3). */
  main: ApiClient;
  /** For reading only: nothing is written before every listing has answered. */
  workbook: Workbook;
  /** Where a listing says how far it has got, for the sidebar's progress bar. */
  progress: ListProgress;
}

/** One API listing and the sheets it fills. */
export interface Refresher {
  /** What it lists, for messages: 'offers'. */
  what: string;
  /** Lists from the API; writes nothing, throws when the API fails. */
  fetch(client: ApiClient, context: FetchContext): Pulled;
}

/**
 * Merges `records` into the sheet of `schema` (created when missing) and writes it once,
 * remembering what was pulled for the next refresh and push.
 */
export function refreshSheet<S>(
  context: RefreshContext,
  schema: SheetSchema<S>,
  records: ReadonlyArray<PulledRecord<S>>,
): SheetReport {
  const table = openTable(context.workbook, schema, {
    create: true,
    rows: records.reduce((n, r) => n + r.sources.length, 0),
  })!;
  const merged = mergeRecords({
    table,
    records,
    previous: context.state.get(schema.name),
    account: context.account,
    context: context.workbook,
    now: context.now,
  });
  writeTable(table, merged.rows);
  if (schema.columns.some(c => c.editable)) {
    context.state.set(schema.name, merged.state);
  }
  return {sheet: schema.name, counts: merged.counts, notes: merged.notes};
}

/**
 * A refresher that fills one sheet from one listing: `list` fetches (and may report progress),
 * `toRecord` maps each listed item to the rows it takes.
 */
export function sheetRefresher<T, S>(
  what: string,
  schema: SheetSchema<S>,
  list: (
    client: ApiClient,
    context: FetchContext,
  ) => Pick<ListResult<T>, 'items' | 'requests'>,
  toRecord: (item: T) => PulledRecord<S>,
): Refresher {
  return {
    what,
    fetch(client, context) {
      const {items, requests} = list(client, context);
      return {
        records: items.length,
        requests,
        write: refresh => [refreshSheet(refresh, schema, items.map(toRecord))],
      };
    },
  };
}

export const campaignsRefresher = sheetRefresher(
  'campaigns',
  CAMPAIGNS,
  (client, {progress}) => listCampaigns(client, {}, progress),
  campaign => ({
    sources: [campaign],
    facts: {maintain_by: String(campaign.maintain_by ?? '')},
  }),
);

/** What a push needs to know of an offer: who maintains it and where it delivers. */
function offerFacts(offer: Offer): Record<string, string> {
  return {
    maintain_by: String(offer.maintain_by ?? ''),
    target_geo: String(offer.target_geo ?? ''),
  };
}

/** One offers listing fills both Offers and Budgets. */
export const offersRefresher: Refresher = {
  what: 'offers',
  fetch(client, {progress}) {
    const {items, requests} = listOffers(client, {}, progress);
    return {
      records: items.length,
      requests,
      write: context => [
        refreshSheet(
          context,
          OFFERS,
          items.map(offer => ({sources: [offer], facts: offerFacts(offer)})),
        ),
        refreshSheet(
          context,
          BUDGETS,
          items.map(offer => ({
            sources: budgetRows(offer),
            facts: offerFacts(offer),
          })),
        ),
      ],
    };
  },
};

/** Runs refreshers under the document lock: fetch all, then write all. */
export function runRefresh(
  platform: Platform,
  job: string,
  refreshers: readonly Refresher[],
): JobSummary {
  return withDocumentLock(platform, () => {
    const budget = new TimeBudget(() => platform.clock.now());
    const connected = connect(platform, budget.retryDeadline);
    const workbook = platform.workbook();
    const progress = (fetched: number, total: number) =>
      platform.progress.report(job, fetched, total);
    const pulled = refreshers.map(r =>
      r.fetch(connected.client, {
        main: connected.mainClient,
        workbook,
        progress,
      }),
    );
    const context: RefreshContext = {
      workbook,
      state: StateBook.open(workbook),
      account: connected.account,
      now: new Date(platform.clock.now()),
    };
    const reports = pulled.flatMap(p => p.write(context));
    context.state.save();
    return refreshSummary(
      job,
      accountLabel(connected.account),
      refreshers,
      pulled,
      reports,
    );
  });
}

function refreshSummary(
  job: string,
  account: string,
  refreshers: readonly Refresher[],
  pulled: readonly Pulled[],
  reports: SheetReport[],
): JobSummary {
  const sum = (pick: (c: MergeCounts) => number) =>
    reports.reduce((n, r) => n + pick(r.counts), 0);
  const edited = sum(c => c.edited);
  const conflict = sum(c => c.conflict);
  const invalid = sum(c => c.invalid);
  const problems: RowProblem[] = reports
    .flatMap(r => r.notes.map(n => ({sheet: r.sheet, ...n})))
    .slice(0, MAX_PROBLEMS);
  const listed = refreshers
    .map((r, i) => `${pulled[i].records} ${r.what}`)
    .join(', ');
  const changes = reports
    .filter(r => r.counts.added + r.counts.removed > 0)
    .map(r => `${r.sheet}: ${r.counts.added} new, ${r.counts.removed} removed`);
  const kept = [
    edited > 0 ? `${edited} kept with unpushed edits` : '',
    conflict > 0
      ? `${conflict} in CONFLICT (changed here and on the server)`
      : '',
    invalid > 0 ? `${invalid} rows INVALID` : '',
  ].filter(Boolean);
  const details = [...changes, ...kept].join('; ');
  return {
    job,
    account,
    ok: pulled.reduce((n, p) => n + p.records, 0),
    invalid,
    error: 0,
    skipped: edited + conflict,
    remaining: 0,
    dryRun: false,
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
  return runRefresh(platform, 'refreshOffers', [offersRefresher]);
}
