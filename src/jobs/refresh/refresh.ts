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
 *
 * This module runs refreshers (runRefresh) and holds the jobs of Campaigns and of Offers. What
 * a refresher is: refresher.ts (sheet-refresher.ts for one sheet from one listing,
 * offers-refresher.ts for Offers and Budgets); one sheet written: refresh-sheet.ts, what is
 * settled before it refresh-settle.ts; the accounts written or left out: refresh-accounts.ts;
 * the summary: refresh-summary.ts.
 */
import {MAX_LIMIT, campaignsListing} from '../../api/operations';
import {ListProgress, ListResult, listEach} from '../../api/paging';
import type {Platform} from '../../platform/ports';
import {CAMPAIGNS} from '../../sheets/schemas/campaigns';
import {OFFERS} from '../../sheets/schemas/offers';
import {subAccountNamesInSheet} from '../../sheets/sub-account-names';
import {noun} from '../../text/wording';
import {accountsToActFor} from '../accounts';
import {EVERY_ACCOUNT} from '../settings-store';
import {ConfigError} from '../../api/errors';
import {
  PACE_MEMO,
  otherSchedules,
  RefreshCost,
  quotaProblem,
  refreshPlan,
} from './refresh-cost';
import {RunOptions, withJob} from '../kernel';
import {OfferWatch, alertsEmail} from './offer-watch';
import {SettingsStore} from '../settings-store';
import type {JobSummary} from '../run';
import {offersRefresher} from './offers-refresher';
import {accountFailures, fitting, noLongerListed} from './refresh-accounts';
import {
  AccountCount,
  accountLines,
  everyAccount,
  refreshFacts,
} from './refresh-summary';
import type {
  FetchContext,
  Pulled,
  RefreshContext,
  Refresher,
  SheetReport,
} from './refresher';
import type {Connected} from '../connect';
import type {StateBook} from '../../state/book';
import {sheetRefresher} from './sheet-refresher';
import {afterRefresh, takesTurns, turnsKey} from './refresh-turns';
import {rememberTurns} from '../../state/refresh-turns-memo';

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
  return withJob(platform, job, {within: options.within}, run => {
    const {connected, workbook} = run;
    const sheetNames =
      connected.account === EVERY_ACCOUNT
        ? subAccountNamesInSheet(workbook)
        : [];
    // Told before anything is sent, against the time the execution has left: a refresh that
    // cannot fit never starts, one that fits only in part refreshes the accounts that fit.
    const {cost, only, left, order} = refreshPlan(
      run.book,
      refreshers,
      connected.account,
      sheetNames,
      {ms: run.budget.leftMs(), after: options.after},
    );
    // The main account's own lists (its sub-accounts) wait for its turn, as its other lists do.
    const running =
      only && !only.includes('')
        ? refreshers.filter(r => !r.mainOnly)
        : refreshers;
    const store = new SettingsStore(platform.userProperties);
    if (options.scheduled)
      checkScheduledQuota(store, platform, cost, connected.account);
    const found = fitting(
      only?.length === 1 && only[0] === ''
        ? {accounts: [''], failed: [], requests: 0}
        : accountsToActFor(connected, sheetNames),
      only,
      left,
    );
    if (connected.account === EVERY_ACCOUNT)
      found.failed.push(...noLongerListed(run.book, running, found));
    const fetching = (account: string): FetchContext => ({
      account,
      client: connected.clientFor(account),
      main: connected.mainClient,
      workbook,
      state: run.book,
    });
    const plan = running.map(r => (r.mainOnly ? [''] : found.accounts));
    const {pulled, failed, counts} = listAll(
      {
        platform,
        job,
        connected,
        book: run.book,
        // Several accounts: one that fails is named and left as it was, the others are written.
        isolated: found.accounts.length > 1,
      },
      running.map((r, i) => ({refresher: r, accounts: plan[i]})),
      found.failed,
      fetching,
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
      release: rows => run.release(rows),
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
      if (takesTurns(connected.account, refreshers))
        rememberTurns(
          run.book,
          turnsKey(refreshers),
          afterRefresh(order, context.accounts),
        );
    } finally {
      // A sheet refusing its layout stops the job: the ones written before keep their state.
      run.save();
    }
    // A scheduled run emails the alerts not told yet and the count of fields changed on the
    // server; a person reads any other's summary.
    const seen = reports.reduce((n, r) => n + (r.seen?.changes ?? 0), 0);
    // Those a trimmed refresh left out are acted for too: the summary names each as failed.
    const subAccounts = [...found.accounts, ...left.keys()].filter(
      a => a !== '',
    ).length;
    const summary = context.watch!.summarize(
      run.summary(
        refreshFacts(
          running,
          pulled,
          reports,
          connected.account === EVERY_ACCOUNT
            ? everyAccount(subAccounts)
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
      ? {...summary, accounts: accountLines(named, counts, failed)}
      : summary;
  });
}

/**
 * Every listing of every account, fetched in the same two phases (the sidebar's bar follows
 * their sum), made into what each refresher writes: the accounts any of whose lists failed
 * left out (`failed`, with `keyless`), and how many records each account listed (`counts`).
 * The listed items are kept by no one here once this returns, only by what the refreshers
 * made of them (issue 37).
 */
function listAll(
  where: {
    platform: Platform;
    job: string;
    connected: Connected;
    book: StateBook;
    isolated: boolean;
  },
  plan: ReadonlyArray<{refresher: Refresher; accounts: readonly string[]}>,
  keyless: ReadonlyArray<{account: string; message: string}>,
  fetching: (account: string) => FetchContext,
): {
  pulled: Pulled[];
  failed: Map<string, string>;
  counts: AccountCount[];
} {
  const {platform, job, connected, isolated} = where;
  const listingFrom = platform.clock.now();
  const waitedFrom = connected.waitedMs();
  let roundTrips = 0;
  const results = listEvery(plan, fetching, isolated, (fetched, total) => {
    // Told once per phase of first pages and once per batch after it: its round trips.
    roundTrips++;
    platform.progress.report(job, fetched, total);
  });
  // In steps of PACE_STEP_MS, so a refresh that changed nothing finds the same pace and
  // leaves the state sheet unwritten. The waits the server asked for (429 Retry-After) are
  // not its pace: one refused run priced in would refuse every later refresh, and the pace
  // would never be measured again.
  const pace =
    (platform.clock.now() - listingFrom - (connected.waitedMs() - waitedFrom)) /
    roundTrips;
  where.book.setMemo(PACE_MEMO, {
    roundTripMs: Math.ceil(pace / PACE_STEP_MS) * PACE_STEP_MS,
  });
  let from = 0;
  const listed = plan.map(({accounts}) =>
    accounts.map(account => ({account, ...results[from++]})),
  );
  const failed = accountFailures(keyless, listed.flat());
  const pulled = plan.map(({refresher}, i) =>
    refresher.pulled(
      listed[i].filter(l => !failed.has(l.account)),
      fetching(''),
    ),
  );
  const counts = listed
    .flat()
    .map(l => ({account: l.account, records: l.items.length}));
  return {pulled, failed, counts};
}

/**
 * Every refresher's listing for each of its accounts, fetched together. The listings are made
 * and dropped in this frame: what one holds for its pages alone (a keep's pool) goes when the
 * listing has answered.
 */
function listEvery(
  plan: ReadonlyArray<{refresher: Refresher; accounts: readonly string[]}>,
  fetching: (account: string) => FetchContext,
  isolated: boolean,
  onProgress: ListProgress,
): Array<ListResult<unknown>> {
  return listEach(
    plan.flatMap(({refresher, accounts}) =>
      accounts.map(account => ({
        ...refresher.listing(fetching(account)),
        ...(isolated ? {isolated: true} : {}),
      })),
    ),
    onProgress,
  );
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

export function refreshCampaigns(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runRefresh(
    platform,
    'refreshCampaigns',
    [campaignsRefresher],
    options,
  );
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
