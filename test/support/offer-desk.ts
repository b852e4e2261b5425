/**
 * The built add-on (dist/Code.js) in the local Apps Script runtime, connected to the Open API
 * emulator, for integration tests; and readers and a typist for its sheets that work as a
 * person looking at the spreadsheet would (outside any execution). A person editing while a job
 * runs is `rt.collaborator` (local/runtime/README.md); `rowOf` finds where a record sits after.
 */
import {
  createEmulator,
  DEMO_ACCOUNTS,
  Emulator,
  EmulatorOptions,
} from '../../local/emulator';
import {
  createRuntime,
  DEFAULT_START_MS,
  EXCEEDED_TIME,
  Runtime,
  RuntimeOptions,
  typeIntoCell,
} from '../../local/runtime';
import type {FakeSheet} from '../../local/runtime';
import type {OfferPatch} from '../../local/emulator';

export const EMULATOR_URL = 'https://api.emulator.test';

export interface OfferDesk {
  rt: Runtime;
  emulator: Emulator;
}

/** A runtime and an in-process emulator sharing the virtual clock, settings saved. */
export function offerDesk(
  options: EmulatorOptions = {},
  runtime: RuntimeOptions = {},
): OfferDesk {
  const clock = {now: () => DEFAULT_START_MS};
  const emulator = createEmulator({
    offers: 30,
    campaigns: 5,
    materials: 4,
    ...options,
    now: () => clock.now(),
  });
  const rt = createRuntime({fetch: emulator.handle, ...runtime});
  clock.now = () => rt.clock.now();
  rt.call('saveSettings', {
    baseUrl: EMULATOR_URL,
    accessKey: DEMO_ACCOUNTS.main.accessKey,
    apiKey: DEMO_ACCOUNTS.main.apiKey,
  });
  return {rt, emulator};
}

/**
 * 20 scheduled refreshes of the test's user in other spreadsheets: all the triggers Google
 * allows one person, so the next one Offer Desk asks for is refused.
 */
export function triggersUsedUp(rt: Runtime, user = 'user@example.com'): void {
  for (let n = 0; n < 20; n++) {
    rt.triggers.records.push({
      id: `other-${n}`,
      handler: 'scheduledRefresh',
      eventType: 'CLOCK',
      user,
      documentId: `sheet-${n}`,
      everyMs: 3600_000,
      nextRunMs: Infinity,
      timeZone: 'Etc/UTC',
    });
  }
}

export function sheetOf(rt: Runtime, name: string): FakeSheet {
  const sheet = rt.spreadsheet.getSheetByName(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  return sheet;
}

/** Dates as epoch ms: the runtime's Dates belong to another realm than the test's. */
function plain(value: unknown): unknown {
  return Object.prototype.toString.call(value) === '[object Date]'
    ? new Date((value as Date).getTime())
    : value;
}

/** Every cell value of the sheet's used range, headers included. */
export function valuesOf(rt: Runtime, name: string): unknown[][] {
  const values = sheetOf(rt, name).getDataRange().getValues() as unknown[][];
  return values.map(row => row.map(plain));
}

/** Everything a user could see of the used range: values, formulas, formats, backgrounds. */
export function snapshotOf(rt: Runtime, name: string) {
  const range = sheetOf(rt, name).getDataRange();
  return {
    values: range.getValues(),
    formulas: range.getFormulas(),
    formats: range.getNumberFormats(),
    backgrounds: range.getBackgrounds(),
  };
}

/** The formulas of a sheet's used range: none where text like "=SUM(A1)" stayed text. */
export function formulasOf(rt: Runtime, name: string): string[] {
  return (sheetOf(rt, name).getDataRange().getFormulas() as string[][])
    .flat()
    .filter(f => f !== '');
}

/** Data rows as objects by header. */
export function recordsOf(
  rt: Runtime,
  name: string,
): Array<Record<string, unknown>> {
  const [headers, ...rows] = valuesOf(rt, name);
  return rows.map(row =>
    Object.fromEntries(headers.map((h, i) => [String(h), row[i]])),
  );
}

/**
 * The sheet row (1-based) whose cell under `header` holds `value`, wherever sorts, inserts and
 * deletes moved it; throws unless exactly one row does.
 */
export function rowOf(
  rt: Runtime,
  name: string,
  header: string,
  value: unknown,
): number {
  const [headers, ...rows] = valuesOf(rt, name);
  const at = headers.indexOf(header);
  if (at < 0) throw new Error(`no column "${header}" in ${name}`);
  const found = rows.flatMap((row, i) => (row[at] === value ? [i + 2] : []));
  if (found.length !== 1)
    throw new Error(
      `${found.length} rows of ${name} hold ${header} ${String(value)}, not 1`,
    );
  return found[0];
}

export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Types `text` into the cell of sheet row `row` (1-based) under `header`, as a person would. */
export function typeInto(
  rt: Runtime,
  name: string,
  row: number,
  header: string,
  text: string,
): void {
  const headers = valuesOf(rt, name)[0].map(String);
  let at = headers.indexOf(header);
  if (at < 0) at = headers.length;
  const sheet = sheetOf(rt, name);
  // A person adds the column (or the row) first when the sheet has none to spare.
  if (at + 1 > sheet.getMaxColumns())
    sheet.insertColumnsAfter(sheet.getMaxColumns(), 1);
  if (row > sheet.getMaxRows())
    sheet.insertRowsAfter(sheet.getMaxRows(), row - sheet.getMaxRows());
  typeIntoCell(sheet, `${columnLetter(at)}${row}`, text);
}

/**
 * A New Offers row for a valid CPI offer with tracking, as a user would type it; `fields`
 * overrides or adds cells.
 */
export function cpiOfferRow(
  campaignId: number | string,
  name: string,
  fields: Record<string, string> = {},
): Record<string, string> {
  return {
    campaign_id: String(campaignId),
    offer_name: name,
    promote_timezone: '8',
    start_time: '2026-09-21 10:00',
    target_geo: 'US,GB',
    billing_type: 'CPI',
    bid_rate: '1.5',
    target_ad_type: 'REWARDED_VIDEO,INTERSTITIAL_VIDEO',
    tracking_method: 'APPSFLYER',
    click_url: `https://track.example.com/click?o=${name}`,
    support_server_click: 'NO',
    ...fields,
  };
}

/** Types `rows` below the headers, from sheet row `first`, one cell at a time. */
export function typeRows(
  rt: Runtime,
  sheet: string,
  rows: Array<Record<string, string>>,
  first = 2,
): void {
  rows.forEach((row, i) => {
    for (const [header, text] of Object.entries(row))
      typeInto(rt, sheet, first + i, header, text);
  });
}

/**
 * The create sheets made (New Offers, Creative Sets), then New Offers rows typed for a
 * deliverable campaign (`fields` of each by name), each with one creative set of the first
 * listed material; the requests log cleared.
 */
export function newOffersTyped(
  offers: Record<string, Record<string, string>>,
  accountOffers = 3,
  runtime: RuntimeOptions = {},
) {
  const desk = offerDesk({offers: accountOffers}, runtime);
  const {rt, emulator} = desk;
  rt.call('refreshCreatives');
  rt.call('createOffers');
  const campaign = deliverableCampaign(emulator);
  const md5 = [...emulator.account('demo_adv').materials.keys()][0];
  const names = Object.keys(offers);
  typeRows(
    rt,
    'New Offers',
    names.map(name => cpiOfferRow(campaign, name, offers[name])),
  );
  typeRows(
    rt,
    'Creative Sets',
    names.map(offer_name => ({
      offer_name,
      creative_set_name: 'main',
      geos: 'ALL',
      ad_outputs: '111',
      creatives: md5,
    })),
  );
  emulator.clearRequests();
  return desk;
}

/** A campaign of `account` that new offers may be created in (running, ADV, APP). */
export function deliverableCampaign(
  emulator: Emulator,
  account = 'demo_adv',
): number {
  return [...emulator.account(account).campaigns.values()].find(
    c =>
      c.status === 'RUNNING' &&
      c.maintain_by === 'ADV' &&
      c.promotion_type === 'APP',
  )!.campaign_id;
}

/**
 * Three ADV offers tracked with APPSFLYER (and `patch(k)` of the k-th), Offers refreshed, the
 * requests log cleared; `offerRow` is an offer's sheet row, `offer` reads it.
 */
export function offersPulled(patch: (k: number) => OfferPatch = () => ({})) {
  const {rt, emulator} = offerDesk({offers: 3});
  const ids = [...emulator.account('demo_adv').offers.keys()];
  for (const [k, id] of ids.entries())
    emulator.updateOffer(id, {
      maintain_by: 'ADV',
      tracking_method: 'APPSFLYER',
      ...patch(k),
    });
  rt.call('refreshOffers');
  emulator.clearRequests();
  const offerRow = (id: number) =>
    recordsOf(rt, 'Offers').findIndex(r => r.offer_id === id) + 2;
  const offer = (id: number) =>
    recordsOf(rt, 'Offers').find(r => r.offer_id === id)!;
  return {rt, emulator, ids, offerRow, offer};
}

/**
 * One editable offer on a server that keeps click_url in its own form (the emulator's
 * `normalisesClickUrl`), refreshed, with a tracking edit typed in its Offers row: a click_url
 * in mixed case, which the server will hold lower-cased, and support_server_click NO.
 */
export function normalisedTrackingEdit() {
  const desk = offerDesk({offers: 1, normalisesClickUrl: true});
  const [id] = [...desk.emulator.account('demo_adv').offers.keys()];
  desk.emulator.updateOffer(id, {
    maintain_by: 'ADV',
    tracking_method: 'APPSFLYER',
  });
  desk.rt.call('refreshOffers');
  typeInto(desk.rt, 'Offers', 2, 'support_server_click', 'NO');
  typeInto(
    desk.rt,
    'Offers',
    2,
    'click_url',
    'https://Track.Example.com/c?Id=7',
  );
  return {...desk, id};
}

/**
 * Runs createOffers so that its creates are served but the run is killed (Apps Script's time
 * limit) before their answers are recorded: the next run must find them by name.
 */
export function createKilledBeforeAnswers(
  rt: Runtime,
  emulator: Emulator,
): void {
  emulator.faults.configure({
    rules: [
      {
        kind: 'slow',
        method: 'POST',
        path: '/api/open/v3/offer',
        latencyMs: 400_000,
      },
    ],
  });
  try {
    expect(() => rt.call('createOffers')).toThrow(EXCEEDED_TIME);
  } finally {
    emulator.faults.clear();
  }
}

/** A memo of the hidden state sheet (src/state/book.ts), as the add-on stored it. */
export function memoOf(rt: Runtime, name: string): unknown {
  const grid = valuesOf(rt, 'Offer Desk state');
  const column = grid[0].indexOf(name);
  if (column < 0) return undefined;
  const text = grid
    .slice(1)
    .map(row => row[column])
    .filter((cell): cell is string => typeof cell === 'string' && cell !== '')
    .map(cell => cell.slice(1))
    .join('');
  return (JSON.parse(text) as {memo: unknown}).memo;
}
