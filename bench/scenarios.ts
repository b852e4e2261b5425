/**
 * The bench scenarios (issue 9): each sets up an account and a spreadsheet, runs one entry
 * point of the built add-on as a user would (again while it reports rows left), checks that
 * the job really did the work, and measures it against its lower bound (model.ts).
 */
import type {Emulator} from '../local/emulator';
import {CHARS_WRITTEN, type Runtime} from '../local/runtime';
import {
  BenchDesk,
  BenchOptions,
  MATERIALS,
  Runs,
  benchDesk,
  runUntilDone,
  total,
} from './desk';
import {MaterialFolder, materialFolder} from './materials';
import {
  Bound,
  Listing,
  Needs,
  Phase,
  SheetTouch,
  everyAccountPhases,
  listingPhases,
  lowerBound,
} from './model';
import type {MethodCost} from './probe';
import {cpiOfferRow} from '../test/support/offer-desk';
import {MAIN_ACCOUNT_CELL} from '../src/sheets/accounts';
import {STATE_SHEET} from '../src/state/book';
import {
  appendRows,
  recordsOf,
  sheetTouches,
  snapshotSheets,
  typeCells,
} from './sheets';

export interface ScenarioResult {
  name: string;
  /** What it does, with its sizes. */
  title: string;
  entry: string;
  runs: number;
  /** Simulated time of the longest single execution. */
  longestRunMs: number;
  requests: number;
  /** UrlFetchApp.fetchAll calls. */
  batches: number;
  /** UrlFetchApp.fetch calls (single requests). */
  fetches: number;
  sheetCalls: number;
  /** Spreadsheet calls that waited for the document, and sendings of queued writes. */
  sheetRoundTrips: number;
  cellsWritten: number;
  cellsRead: number;
  /** Characters the values written carried (runtime CHARS_WRITTEN), to every sheet. */
  charsWritten: number;
  /** Of those, to the hidden state sheet. */
  stateCharsWritten: number;
  simulatedMs: number;
  needs: Needs;
  bound: Bound;
  ratio: number;
  cpuMs: number;
  emulatorCpuMs: number;
  peakHeapBytes: number;
  /** The add-on's own thread's largest heap in use (probe.ts). */
  addonPeakHeapBytes: number;
  /** Requests the emulator and the runtime's Drive API served, by `METHOD path`. */
  operations: Record<string, number>;
  costs: MethodCost[];
  /** The job's own last message. */
  outcome: string;
}

export interface PullSizes {
  offers: number;
  campaigns: number;
}
export interface PushSizes extends PullSizes {
  edits: number;
}
export interface ScheduledSizes extends PushSizes {
  /** Budget changes scheduled earlier, due when the trigger fires: applied first. */
  due: number;
}
export interface CreateSizes {
  offers: number;
  materialsPerOffer: number;
}
export interface UploadSizes {
  files: number;
}

/** What refreshAll fills, and from which listings (page sizes: API 4.3, 4.6, 4.9). */
const REFRESH_SHEETS = [
  'Campaigns',
  'Offers',
  'Budgets',
  'Creatives',
  'Sub-accounts',
];
const OFFERS_PAGE = 50;
const CAMPAIGNS_PAGE = 50;
const MATERIALS_PAGE = 200;
/** The add-on asks 50 sub-accounts a page (the document gives no size for 4.11). */
const SUB_ACCOUNTS_PAGE = 50;

const CREATE_SHEETS = ['New Offers', 'Creative Sets', 'Creatives', 'History'];

/**
 * Checks that the run's writes are in the History sheet: `rows` rows, one block per run (the
 * change ids, in sheet order, each in one stretch).
 */
function expectHistory(rt: Runtime, rows: number, runs: number): void {
  const ids = rt.spreadsheet.sheet('History')
    ? recordsOf(rt, 'History').map(r => r.cells.change_id)
    : [];
  const blocks = ids.filter((id, i) => id !== ids[i - 1]).length;
  expect(
    ids.length === rows && blocks === runs && new Set(ids).size === runs,
    `History holds ${ids.length} rows in ${blocks} blocks, ${rows} rows in ${runs} blocks wanted`,
  );
}

const count = (n: number) => n.toLocaleString('en-US');

function refreshListings(emulator: Emulator, sizes: PullSizes): Listing[] {
  const subAccounts = emulator
    .state()
    .accounts.filter(a => a.parent === 'demo_adv').length;
  return [
    {what: 'campaigns', records: sizes.campaigns, pageSize: CAMPAIGNS_PAGE},
    {what: 'offers', records: sizes.offers, pageSize: OFFERS_PAGE},
    {what: 'materials', records: MATERIALS, pageSize: MATERIALS_PAGE},
    {what: 'sub-accounts', records: subAccounts, pageSize: SUB_ACCOUNTS_PAGE},
  ];
}

interface Act {
  runs: number;
  outcome: string;
}

interface Measure {
  name: string;
  title: string;
  entry: string;
  /** Sheets whose reads and writes the bound counts. */
  sheets: readonly string[];
  act(): Act;
  needs(touches: SheetTouch[]): Needs;
}

/** Material files read from Drive: every file's metadata, then every file's bytes. */
function drivePhases(files: number): Phase[] {
  return [
    {what: 'Drive metadata', requests: files},
    {what: 'Drive file reads', requests: files},
  ];
}

/** A Drive REST request of the runtime's log, as the operations table names it. */
function driveOperation(url: string): string {
  return /[?&]alt=media(&|$)/.test(url)
    ? 'GET drive/v3/files/{id}?alt=media'
    : 'GET drive/v3/files/{id}?fields';
}

/** Runs `m.act` on the desk as one measured phase and prices it against its bound. */
function measure(desk: BenchDesk, m: Measure): ScenarioResult {
  const {rt, emulator, probe} = desk;
  const before = snapshotSheets(rt, m.sheets);
  const firstExecution = rt.executions.length;
  emulator.clearRequests();
  const driveBefore = rt.drive.requests.length;
  probe.begin();
  const act = m.act();
  const measured = probe.end();
  const needs = m.needs(sheetTouches(before, snapshotSheets(rt, m.sheets)));
  const bound = lowerBound(needs);
  const counts = measured.snapshot.counts;
  const operations: Record<string, number> = {};
  const keys = [
    ...emulator.requests.map(r => `${r.method} ${r.path}`),
    ...rt.drive.requests.slice(driveBefore).map(r => driveOperation(r.url)),
  ];
  for (const key of keys) operations[key] = (operations[key] ?? 0) + 1;
  const simulatedMs = measured.snapshot.elapsedMs;
  return {
    name: m.name,
    title: m.title,
    entry: m.entry,
    runs: act.runs,
    longestRunMs: Math.max(
      0,
      ...rt.executions
        .slice(firstExecution)
        .map(e => (e.endMs ?? e.startMs) - e.startMs),
    ),
    requests: counts['UrlFetchApp.requests'] ?? 0,
    batches: counts['UrlFetchApp.fetchAll'] ?? 0,
    fetches: counts['UrlFetchApp.fetch'] ?? 0,
    sheetCalls: counts['SpreadsheetApp'] ?? 0,
    sheetRoundTrips: counts['SpreadsheetApp.roundTrips'] ?? 0,
    cellsWritten: counts['SpreadsheetApp.cellsWritten'] ?? 0,
    cellsRead: counts['SpreadsheetApp.cellsRead'] ?? 0,
    charsWritten: counts[CHARS_WRITTEN] ?? 0,
    stateCharsWritten: counts[`${CHARS_WRITTEN} ${STATE_SHEET}`] ?? 0,
    simulatedMs,
    needs,
    bound,
    ratio: simulatedMs / bound.ms,
    cpuMs: measured.cpuMs,
    emulatorCpuMs: measured.emulatorCpuMs,
    peakHeapBytes: measured.peakHeapBytes,
    addonPeakHeapBytes: measured.addonPeakHeapBytes,
    operations,
    costs: measured.costs,
    outcome: act.outcome,
  };
}

/** A job that did not do the work measures nothing worth reporting. */
function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

function lastMessage(runs: Runs): string {
  return runs.summaries[runs.summaries.length - 1].message;
}

function dataRows(rt: Runtime, sheet: string): number {
  return Math.max(0, (rt.spreadsheet.sheet(sheet)?.lastRow() ?? 0) - 1);
}

function refreshNeeds(emulator: Emulator, sizes: PullSizes) {
  return (touches: SheetTouch[]): Needs => ({
    phases: listingPhases(refreshListings(emulator, sizes)),
    sheets: touches,
  });
}

/** Pull N offers (Offers and Budgets), C campaigns and the rest of refreshAll into new sheets. */
export function pullScenario(
  sizes: PullSizes,
  options: BenchOptions = {},
  name = 'pull',
): ScenarioResult {
  const desk = benchDesk(
    {offers: sizes.offers, campaigns: sizes.campaigns},
    options,
  );
  const {rt, emulator} = desk;
  return measure(desk, {
    name,
    title: `pull ${count(sizes.offers)} offers + budgets, ${count(sizes.campaigns)} campaigns`,
    entry: 'refreshAll',
    sheets: REFRESH_SHEETS,
    act() {
      const runs = runUntilDone(rt, 'refreshAll');
      expect(
        dataRows(rt, 'Offers') === sizes.offers &&
          dataRows(rt, 'Campaigns') === sizes.campaigns,
        `refreshAll left ${dataRows(rt, 'Offers')} Offers rows and ${dataRows(rt, 'Campaigns')} Campaigns rows, not ${sizes.offers} and ${sizes.campaigns}: ${lastMessage(runs)}`,
      );
      return {runs: runs.runs, outcome: lastMessage(runs)};
    },
    needs: refreshNeeds(emulator, sizes),
  });
}

/**
 * A large account (issue 20): the pull of 50,000 offers, which must end in one execution
 * within the job's time budget, every Spreadsheet call bounded (src/platform/blocks.ts) and
 * the spreadsheet within its 10 million cells (the runtime enforces both the cell limit and
 * the execution's 6 minutes).
 */
export function largePullScenario(
  sizes: PullSizes,
  options: BenchOptions = {},
): ScenarioResult {
  return pullScenario(sizes, options, 'large pull');
}

/** The first Budgets row of each offer the user may edit (maintain_by ADV), in sheet order. */
function editableBudgetRows(
  desk: BenchDesk,
): Array<{row: number; cells: Record<string, unknown>}> {
  const seen = new Set<unknown>();
  return recordsOf(desk.rt, 'Budgets').filter(({cells}) => {
    const id = cells.offer_id;
    if (seen.has(id)) return false;
    seen.add(id);
    return desk.emulator.store.offer(Number(id))?.maintain_by === 'ADV';
  });
}

/**
 * Changes the daily_cap of `edits` of `rows`, as a person types; answers the rows and what
 * was typed.
 */
function typeBudgets(
  desk: BenchDesk,
  rows: ReadonlyArray<{row: number; cells: Record<string, unknown>}>,
  edits: number,
): Array<{row: number; text: string}> {
  expect(
    rows.length >= edits,
    `only ${rows.length} offers maintained by ADV to edit, ${edits} wanted`,
  );
  const typed = rows.slice(0, edits).map(({row, cells}) => ({
    row,
    header: 'daily_cap',
    // Valid for either daily_cap_type (a whole number of at least 50), and a change the
    // budget guard lets through both ways (issue 36 holds a cut below a third): a push that
    // asks also reads the sheet again after the question, a cost of its own, not this one's.
    text:
      typeof cells.daily_cap === 'number'
        ? String(cells.daily_cap + 1)
        : cells.daily_cap === 120
          ? '121'
          : '120',
  }));
  typeCells(desk.rt, 'Budgets', typed);
  return typed;
}

/** Changes the daily_cap of the first Budgets row of `edits` offers the user may edit. */
function editBudgets(
  desk: BenchDesk,
  edits: number,
): Array<{row: number; text: string}> {
  return typeBudgets(desk, editableBudgetRows(desk), edits);
}

/** Push budget changes of M offers, edited in Budgets after a pull of N offers. */
export function pushScenario(
  sizes: PushSizes,
  options: BenchOptions = {},
): ScenarioResult {
  const desk = benchDesk(
    {offers: sizes.offers, campaigns: sizes.campaigns},
    options,
  );
  const {rt} = desk;
  rt.run('refreshOffers');
  const edited = editBudgets(desk, sizes.edits);
  const reads = Math.ceil(withOtherGroups(desk, edited).length / READ_BACK_IDS);
  return measure(
    desk,
    budgetPush(
      desk,
      'push',
      `push budgets of ${count(sizes.edits)} offers (of ${count(sizes.offers)})`,
      sizes.edits,
      reads,
    ),
  );
}

/**
 * pushBudgets of `edits` typed budgets, which must send exactly one update each and `reads`
 * list requests first, refuse none, and leave one History row per edit.
 */
function budgetPush(
  desk: BenchDesk,
  name: string,
  title: string,
  edits: number,
  reads: number,
): Measure {
  const {rt} = desk;
  return {
    name,
    title,
    entry: 'pushBudgets',
    sheets: ['Budgets', 'History'],
    act() {
      const runs = runUntilDone(rt, 'pushBudgets');
      const sent = total(runs, s => s.requests ?? 0);
      const refused = total(runs, s => s.invalid + s.error);
      expect(
        sent === edits + reads && refused === 0,
        `pushBudgets sent ${sent} requests (${edits} budgets edited, ${reads} reads first) and refused ${refused} rows: ${lastMessage(runs)}`,
      );
      // One daily_cap field changed per offer.
      expectHistory(rt, edits, runs.runs);
      return {runs: runs.runs, outcome: lastMessage(runs)};
    },
    needs: touches => ({
      phases: [
        {
          what: 'reads of offers whose other groups go out as pulled',
          requests: reads,
        },
        {what: 'budget updates', requests: edits},
      ],
      sheets: touches,
    }),
  };
}

/** Offers one read-back list request asks for: the offers list's largest limit (API 4.3). */
const READ_BACK_IDS = 50;

/**
 * The edited Budgets rows of an offer with other groups: its push sends them as pulled, so it
 * reads the offer first (push-delivery.ts current).
 */
function withOtherGroups<E extends {row: number}>(
  desk: BenchDesk,
  edited: readonly E[],
): E[] {
  const records = recordsOf(desk.rt, 'Budgets');
  const groups = new Map<unknown, number>();
  for (const {cells} of records)
    groups.set(cells.offer_id, (groups.get(cells.offer_id) ?? 0) + 1);
  const at = new Map(records.map(r => [r.row, r.cells.offer_id]));
  return edited.filter(e => (groups.get(at.get(e.row)) ?? 0) > 1);
}

function deliverableCampaign(emulator: Emulator): number {
  const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
    c =>
      c.status === 'RUNNING' &&
      c.maintain_by === 'ADV' &&
      c.promotion_type === 'APP',
  );
  if (!campaign) throw new Error('the seed has no deliverable APP campaign');
  return campaign.campaign_id;
}

const offerName = (i: number) => `bench_offer_${String(i).padStart(5, '0')}`;

/** Create N offers, each with one creative set of K new materials (uploaded first). */
export function createScenario(
  sizes: CreateSizes,
  options: BenchOptions = {},
): ScenarioResult {
  const names = Array.from({length: sizes.offers}, (_, i) => offerName(i + 1));
  const materialNames = names.flatMap(name =>
    Array.from({length: sizes.materialsPerOffer}, (_, k) => `${name}_m${k}`),
  );
  const folder = materialFolder(materialNames);
  try {
    const desk = deskWithMaterials(
      {offers: 300, campaigns: 30},
      options,
      folder,
      'createOffers',
    );
    const {rt, emulator} = desk;
    const campaignId = String(deliverableCampaign(emulator));
    appendRows(
      rt,
      'New Offers',
      names.map(name => cpiOfferRow(campaignId, name)),
    );
    appendRows(
      rt,
      'Creative Sets',
      names.map((name, i) => ({
        offer_name: name,
        creative_set_name: `${name}_set`,
        geos: 'ALL',
        ad_outputs: '111,121',
        creatives: materialNames
          .slice(i * sizes.materialsPerOffer, (i + 1) * sizes.materialsPerOffer)
          .join(','),
      })),
    );
    return measure(desk, {
      name: 'create',
      title: `create ${count(sizes.offers)} offers, ${count(materialNames.length)} uploads`,
      entry: 'createOffers',
      sheets: CREATE_SHEETS,
      act() {
        const runs = runUntilDone(rt, 'createOffers');
        const created = [...emulator.account('demo_adv').offers.values()]
          .map(o => o.offer_name)
          .filter(n => n.startsWith('bench_offer_')).length;
        const ok = total(runs, s => s.ok);
        expect(
          created === sizes.offers && ok === sizes.offers,
          `createOffers created ${created} offers and marked ${ok} rows OK, ${sizes.offers} wanted: ${lastMessage(runs)}`,
        );
        // Each upload, each offer, and the three tracking fields of each offer.
        expectHistory(rt, materialNames.length + sizes.offers * 4, runs.runs);
        return {runs: runs.runs, outcome: lastMessage(runs)};
      },
      needs: touches => ({
        phases: [
          ...drivePhases(materialNames.length),
          {what: 'uploads', requests: materialNames.length},
          // One creatives/source look-up fills each uploaded row's type, resolution, size.
          {
            what: 'material look-up',
            requests: Math.ceil(materialNames.length / 200),
          },
          {what: 'creates', requests: sizes.offers},
          {what: 'tracking', requests: sizes.offers},
        ],
        sheets: touches,
      }),
    });
  } finally {
    folder.remove();
  }
}

/** Saves an hourly refresh of everything: its trigger's id. */
function hourlySchedule(rt: Runtime): string {
  rt.call('setRefreshSchedule', 1);
  const trigger = rt.triggers.records.find(
    t => t.handler === 'scheduledRefresh',
  );
  if (!trigger) throw new Error('setRefreshSchedule(1) installed no trigger');
  return trigger.id;
}

/**
 * The scheduled refresh (its trigger fired) of N offers while M Budgets edits are unpushed,
 * with D budget changes scheduled earlier and due: the run applies them first (each offer read,
 * then its PUT), then refreshes.
 */
export function scheduledScenario(
  sizes: ScheduledSizes,
  options: BenchOptions = {},
): ScenarioResult {
  const desk = benchDesk(
    {offers: sizes.offers, campaigns: sizes.campaigns},
    options,
  );
  const {rt, emulator} = desk;
  rt.run('refreshAll');
  const rows = editableBudgetRows(desk);
  const due = typeBudgets(desk, rows, sizes.due);
  if (sizes.due > 0) scheduleDue(rt);
  const edited = typeBudgets(desk, rows.slice(sizes.due), sizes.edits);
  const trigger = hourlySchedule(rt);
  rt.clock.advance(DUE_AFTER_MS);
  const reads = Math.ceil(sizes.due / READ_BACK_IDS);
  return measure(desk, {
    name: 'scheduled',
    title: `scheduled refresh of ${count(sizes.offers)} offers, ${count(sizes.due)} due changes applied first, ${count(sizes.edits)} edits kept`,
    entry: 'scheduledRefresh',
    sheets: [
      ...REFRESH_SHEETS,
      ...(sizes.due > 0 ? ['Scheduled', 'History'] : []),
    ],
    act() {
      const run = rt.fireTrigger(trigger) as {
        outcome: string;
        message: string;
      };
      const budgets = new Map(
        recordsOf(rt, 'Budgets').map(r => [r.row, r.cells]),
      );
      const kept = edited.filter(
        e =>
          String(budgets.get(e.row)?.daily_cap) === e.text &&
          budgets.get(e.row)?.sync_status === 'EDITED',
      ).length;
      expect(
        kept === sizes.edits &&
          run.message.includes(`${sizes.edits} kept with unpushed edits`),
        `the scheduled refresh kept ${kept} of ${sizes.edits} edits as EDITED (${run.outcome}): ${run.message}`,
      );
      const applied = due.filter(
        e => String(budgets.get(e.row)?.daily_cap) === e.text,
      ).length;
      const puts = emulator.requests.filter(r => r.method === 'PUT').length;
      const ok = rt.spreadsheet.sheet('Scheduled')
        ? recordsOf(rt, 'Scheduled').filter(r => r.cells.status === 'OK').length
        : 0;
      expect(
        applied === sizes.due && puts === sizes.due && ok === sizes.due,
        `the scheduled run sent ${puts} PUTs for ${sizes.due} due changes, ${ok} rows OK, ${applied} shown by the refresh after: ${run.message}`,
      );
      if (sizes.due > 0) expectHistory(rt, sizes.due, 1);
      return {runs: 1, outcome: run.message};
    },
    needs: touches => ({
      phases: [
        {what: 'reads of the offers of due changes', requests: reads},
        {what: 'budget updates of due changes', requests: sizes.due},
        ...listingPhases(refreshListings(emulator, sizes)),
      ],
      sheets: touches,
    }),
  });
}

/** How long after scheduling the due changes fall due, and the trigger fires. */
const DUE_AFTER_MS = 31 * 60 * 1000;

/** Schedules the Budgets edits typed so far half an hour ahead: nothing sent now. */
function scheduleDue(rt: Runtime): void {
  const at = Math.floor(rt.clock.now() / 1000) + 30 * 60;
  const summary = rt.run('pushBudgets', {args: [{at}]}) as {message: string};
  expect(
    summary.message.startsWith('Nothing sent: '),
    `pushBudgets({at}) did not schedule: ${summary.message}`,
  );
}

/** Upload F materials: a bound past Apps Script's 6 minutes, so the job must resume. */
export function uploadScenario(
  sizes: UploadSizes,
  options: BenchOptions = {},
): ScenarioResult {
  const folder = materialFolder(
    Array.from(
      {length: sizes.files},
      (_, i) => `bench_material_${String(i).padStart(5, '0')}`,
    ),
  );
  try {
    const desk = deskWithMaterials(
      {offers: 30, campaigns: 5},
      options,
      folder,
      'uploadCreatives',
    );
    const {rt, emulator} = desk;
    return measure(desk, {
      name: 'upload',
      title: `upload ${count(sizes.files)} materials`,
      entry: 'uploadCreatives',
      sheets: ['Creatives', 'History'],
      act() {
        const runs = runUntilDone(rt, 'uploadCreatives');
        const ok = total(runs, s => s.ok);
        const stored = emulator.account('demo_adv').materials.size - MATERIALS;
        expect(
          ok === sizes.files && stored === sizes.files,
          `uploadCreatives marked ${ok} rows OK and the account got ${stored} materials, ${sizes.files} wanted: ${lastMessage(runs)}`,
        );
        expectHistory(rt, sizes.files, runs.runs);
        return {runs: runs.runs, outcome: lastMessage(runs)};
      },
      needs: touches => ({
        phases: [
          ...drivePhases(sizes.files),
          {what: 'uploads', requests: sizes.files},
          {what: 'material look-up', requests: Math.ceil(sizes.files / 200)},
        ],
        sheets: touches,
      }),
    });
  } finally {
    folder.remove();
  }
}

/**
 * A desk whose Drive holds `folder`, with one Creatives row per file. `job` runs first on
 * empty sheets: it finds nothing to do and lays the sheets out, as a user's first click does.
 */
function deskWithMaterials(
  data: {offers: number; campaigns: number},
  options: BenchOptions,
  folder: MaterialFolder,
  job: string,
): BenchDesk {
  const desk = benchDesk(data, options, {drive: folder.drive});
  desk.rt.run(job);
  appendRows(
    desk.rt,
    'Creatives',
    folder.files.map(f => ({file: f.id, creative_name: f.name})),
  );
  return desk;
}

export interface AgencySizes {
  /** Sub-accounts of the main account, the emulator's two demo ones among them. */
  subAccounts: number;
  /** Offers of every account, the main one's included. */
  offersPerAccount: number;
  /** Budgets edits pushed, spread over the sub-accounts in turn. */
  edits: number;
}

/** What an hourly scheduled refresh of the agency spends of a day's UrlFetch calls. */
export interface AgencyQuota {
  accounts: number;
  offers: number;
  /** The job the schedule runs. */
  job: string;
  /** Requests one scheduled run sent, as the emulator served them. */
  requestsPerRun: number;
  runsPerDay: number;
  callsPerDay: number;
}

export interface AgencyResults {
  results: ScenarioResult[];
  quota: AgencyQuota;
}

/** The emulator's own sub-accounts of demo_adv (demo_sub_a, demo_sub_b), before an agency's. */
const DEMO_SUB_ACCOUNTS = 2;
/** Campaigns of each agency account: one page, as the bench does not vary them. */
const AGENCY_CAMPAIGNS = 50;
/** An hourly schedule runs 24 times a day. */
const HOURLY_RUNS = 24;

/**
 * An agency (issue 25): the main account and its sub-accounts, each with the same number of
 * offers, in one workbook acting as every account. Measured on one desk, in turn: the refresh
 * of every account's offers, a push of budget edits spread over the sub-accounts, and the
 * UrlFetch calls of one run of an hourly scheduled refresh (everything), counted for a day.
 */
export function agencyScenarios(
  sizes: AgencySizes,
  options: BenchOptions = {},
): AgencyResults {
  const per = sizes.offersPerAccount;
  const desk = benchDesk(
    {
      subAccounts: sizes.subAccounts - DEMO_SUB_ACCOUNTS,
      offers: per,
      otherOffers: per,
      campaigns: AGENCY_CAMPAIGNS,
      otherCampaigns: AGENCY_CAMPAIGNS,
      listsSubAccounts: true,
    },
    options,
  );
  const {rt, emulator} = desk;
  rt.call('setActingAccount', '*');
  const accounts = sizes.subAccounts + 1;
  const offers = accounts * per;
  const keys: Listing = {
    what: 'sub-account keys',
    records: sizes.subAccounts,
    pageSize: SUB_ACCOUNTS_PAGE,
  };
  // The bound of a refresh of every account's offers: the keys, then each account's pages.
  const everyOffer = (touches: SheetTouch[]): Needs => ({
    phases: everyAccountPhases(
      keys,
      Array.from({length: accounts}, () => [
        {what: 'offers', records: per, pageSize: OFFERS_PAGE},
      ]),
    ),
    sheets: touches,
  });
  const refresh = measure(desk, {
    name: 'agency refresh',
    title: `refresh ${count(accounts)} accounts as every account, ${count(offers)} offers + budgets`,
    entry: 'refreshOffers',
    sheets: ['Offers', 'Budgets'],
    act() {
      const runs = runUntilDone(rt, 'refreshOffers');
      const owners = new Set(recordsOf(rt, 'Offers').map(r => r.cells.account));
      expect(
        runs.runs === 1 &&
          dataRows(rt, 'Offers') === offers &&
          owners.size === accounts &&
          total(runs, s => s.error) === 0,
        `refreshOffers as every account left ${dataRows(rt, 'Offers')} Offers rows of ${owners.size} accounts in ${runs.runs} runs, not ${offers} of ${accounts} in one: ${lastMessage(runs)}`,
      );
      return {runs: runs.runs, outcome: lastMessage(runs)};
    },
    needs: everyOffer,
  });
  const edited = typeBudgets(
    desk,
    takingTurns(
      editableBudgetRows(desk).filter(
        r => r.cells.account !== MAIN_ACCOUNT_CELL,
      ),
      r => r.cells.account,
    ),
    sizes.edits,
  );
  const owner = new Map(
    recordsOf(rt, 'Budgets').map(r => [r.row, r.cells.account]),
  );
  // A read-back lists one account's offers, signed by it: each account's reads are its own.
  const reads = withOtherGroups(desk, edited);
  const readRequests = [...groupBy(reads, e => owner.get(e.row)).values()]
    .map(rows => Math.ceil(rows.length / READ_BACK_IDS))
    .reduce((n, k) => n + k, 0);
  const pushed = new Set(edited.map(e => owner.get(e.row))).size;
  const push = measure(
    desk,
    budgetPush(
      desk,
      'agency push',
      `push budgets of ${count(sizes.edits)} offers across ${count(pushed)} accounts`,
      sizes.edits,
      readRequests,
    ),
  );
  const trigger = hourlySchedule(rt);
  emulator.clearRequests();
  const run = rt.fireTrigger(trigger) as {outcome: string; message: string};
  expect(
    run.outcome === 'ok',
    `the scheduled refresh of the agency ended ${run.outcome}: ${run.message}`,
  );
  const requestsPerRun = emulator.requests.length;
  // Issue 35: the server's side first, unmeasured; then the refresh that finds it all.
  changeEveryBudget(desk);
  const changed = measure(desk, {
    name: 'agency refresh, budgets changed',
    title: `refresh ${count(accounts)} accounts as every account after every budget changed on the server: ${count(offers)} offers + budgets, a History row per cap`,
    entry: 'refreshOffers',
    sheets: ['Offers', 'Budgets', 'History'],
    act() {
      const before = dataRows(rt, 'History');
      const runs = runUntilDone(rt, 'refreshOffers');
      const seen = dataRows(rt, 'History') - before;
      expect(
        runs.runs === 1 &&
          seen >= offers &&
          lastMessage(runs).includes(`${seen} fields changed on the server`),
        `refreshOffers after every budget changed wrote ${seen} History rows in ${runs.runs} runs, not one per offer at least in one: ${lastMessage(runs)}`,
      );
      return {runs: runs.runs, outcome: lastMessage(runs)};
    },
    needs: everyOffer,
  });
  return {
    results: [refresh, push, changed],
    quota: {
      accounts,
      offers,
      job: 'refreshAll',
      requestsPerRun,
      runsPerDay: HOURLY_RUNS,
      callsPerDay: requestsPerRun * HOURLY_RUNS,
    },
  };
}

/** Every offer's budget changed on the server: each group's daily_cap one more. */
function changeEveryBudget(desk: BenchDesk): void {
  for (const {cells} of recordsOf(desk.rt, 'Offers')) {
    const id = Number(cells.offer_id);
    const view = desk.emulator.offerView(id) as unknown as {
      budget: Array<Record<string, string>>;
    };
    desk.emulator.updateOffer(id, {
      budget: view.budget.map(g => ({
        ...g,
        daily_cap: String((Number(g.daily_cap) || 0) + 1),
      })) as never,
    });
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => unknown) {
  const groups = new Map<unknown, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** One item of each group in turn (the groups in order of first appearance), until none is left. */
function takingTurns<T>(items: readonly T[], key: (item: T) => unknown): T[] {
  const groups = [...groupBy(items, key).values()];
  const longest = Math.max(0, ...groups.map(g => g.length));
  return Array.from({length: longest}, (_, i) =>
    groups.flatMap(g => (i < g.length ? [g[i]] : [])),
  ).flat();
}
