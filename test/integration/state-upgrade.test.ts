/**
 * Issue 19, "state keyed by field name and versioned", and issue 20's second editor: what the
 * last release (or another editor's keys) wrote is read right, and no untouched row is sent.
 * Release 1's bundle (test/fixtures/release-1, built from commit 60a8735) pulls first; the
 * built dist/Code.js is then loaded over it in the same runtime, as Apps Script serves the new
 * version of an add-on to a spreadsheet the old one filled.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  EMULATOR_URL,
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
} from '../support/offer-desk';

const RELEASE_1 = join(__dirname, '..', 'fixtures', 'release-1');
const DIST = join(__dirname, '..', '..', 'dist', 'Code.js');
const PUSHES = ['pushBudgets', 'pushTracking', 'pushCampaigns'];

/** Release 1 pulled everything; then the new release is loaded over it. */
function upgradedFromRelease1() {
  const desk = offerDesk({}, {distDir: RELEASE_1});
  desk.rt.call('refreshAll');
  desk.rt.load(readFileSync(DIST, 'utf8'), 'Code.js');
  desk.emulator.clearRequests();
  return desk;
}

function writes(emulator: Emulator): string[] {
  return emulator.requests
    .filter(r => r.method !== 'GET')
    .map(r => `${r.method} ${r.path}`);
}

function firstAdvBudgetRow(rt: Runtime): {row: number; offer: number} {
  const rows = recordsOf(rt, 'Budgets');
  const offers = recordsOf(rt, 'Offers');
  const k = rows.findIndex(
    r =>
      r.daily_cap !== '' &&
      offers.find(o => o.offer_id === r.offer_id)?.maintain_by === 'ADV',
  );
  return {row: k + 2, offer: Number(rows[k].offer_id)};
}

/**
 * The state section of `sheet`, its chunks joined and parsed, changed by `edit` and written
 * back into its first cell (sections this small fit one), the cells below it cleared.
 */
function editState(
  rt: Runtime,
  sheet: string,
  edit: (stored: {
    fields: string[];
    /** By column since version 4 (src/state/columns.ts): a column per field. */
    records: {cells: unknown[]};
  }) => void,
): void {
  const state = sheetOf(rt, 'Offer Desk state');
  const header = state.getRange(1, 1, 1, state.getLastColumn()).getValues()[0];
  const column = header.indexOf(sheet) + 1;
  const cells = state
    .getRange(2, column, state.getLastRow() - 1, 1)
    .getValues()
    .map(row => String(row[0]));
  const end = cells.findIndex(c => !c.startsWith('j'));
  const chunks = end < 0 ? cells : cells.slice(0, end);
  const stored = JSON.parse(chunks.map(c => c.slice(1)).join(''));
  edit(stored);
  state.getRange(2, column, chunks.length, 1).clearContent();
  state.getRange(2, column).setValue(`j${JSON.stringify(stored)}`);
}

describe('state written by release 1, read by this release', () => {
  it('sends nothing for untouched rows, then exactly the one edit', () => {
    const {rt, emulator} = upgradedFromRelease1();
    for (const job of PUSHES) {
      expect(rt.call(job)).toMatchObject({
        ok: 0,
        invalid: 0,
        error: 0,
        requests: 0,
      });
    }
    expect(emulator.requests).toEqual([]);

    const {row, offer} = firstAdvBudgetRow(rt);
    typeInto(rt, 'Budgets', row, 'daily_cap', '777');
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, requests: 1});
    expect(writes(emulator)).toEqual(['PUT /api/open/v3/offer/budget']);
    expect((emulator.requests[0].body as {offer_id: number}).offer_id).toBe(
      offer,
    );
  });

  it('a refresh after the upgrade keeps every row unedited and rewrites the state as version 2', () => {
    const {rt, emulator} = upgradedFromRelease1();
    expect(rt.call('refreshAll')).toMatchObject({error: 0, invalid: 0});
    const budgets = recordsOf(rt, 'Budgets');
    expect(budgets.filter(r => r.sync_status !== '')).toEqual([]);
    editState(rt, 'Budgets', stored => {
      expect(stored.fields).toEqual([
        'country_code',
        'daily_cap_type',
        'daily_cap',
        'total_budget',
      ]);
    });
    emulator.clearRequests();
    expect(rt.call('pushBudgets')).toMatchObject({requests: 0});
  });

  it("the first refresh gives release 1's number columns today's format: a time zone shows -5, not -5.", () => {
    const {rt} = upgradedFromRelease1();
    const offers = sheetOf(rt, 'Offers');
    const header = offers
      .getRange(1, 1, 1, offers.getLastColumn())
      .getValues()[0];
    const zone = offers.getRange(
      2,
      header.indexOf('promote_timezone') + 1,
      offers.getLastRow() - 1,
      1,
    );
    const whole = () =>
      zone
        .getDisplayValues()
        .map(r => r[0])
        .filter(v => /^-?\d+\.?$/.test(v));
    expect(whole().some(v => v.endsWith('.'))).toBe(true);
    rt.call('refreshAll');
    expect(whole().length).toBeGreaterThan(0);
    expect(whole().filter(v => v.endsWith('.'))).toEqual([]);
  });
});

describe('state written by a release with another order of editable columns', () => {
  it('reads each text by its field name: nothing untouched is sent', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshAll');
    // As a release whose Budgets columns were in the reverse order would have written it.
    editState(rt, 'Budgets', stored => {
      stored.fields.reverse();
      stored.records.cells.reverse();
    });
    emulator.clearRequests();
    const summary = rt.call('pushBudgets', {dryRun: true}) as {
      wouldSend: unknown[];
    };
    expect(summary.wouldSend).toEqual([]);
    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, requests: 0});
    expect(emulator.requests).toEqual([]);
  });

  it('a field the stored pull did not record: the push asks for one refresh first, sending nothing', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshAll');
    editState(rt, 'Offers', stored => {
      const at = stored.fields.indexOf('click_url');
      stored.fields.splice(at, 1);
      stored.records.cells.splice(at, 1);
    });
    emulator.clearRequests();
    expect(() => rt.call('pushTracking')).toThrow(
      'Offers was last refreshed by an earlier version of Offer Desk, which did not record click_url: run "Refresh offers and budgets" once (your unpushed edits are kept), then push. Nothing was sent.',
    );
    expect(emulator.requests).toEqual([]);
    rt.call('refreshOffers');
    expect(recordsOf(rt, 'Offers').filter(r => r.sync_status !== '')).toEqual(
      [],
    );
    emulator.clearRequests();
    expect(rt.call('pushTracking')).toMatchObject({requests: 0});
  });
});

describe('a second editor connected with other keys', () => {
  it('cannot push rows the first editor pulled: nothing is sent, both connections are named', () => {
    const {rt, emulator} = offerDesk(
      {},
      {users: ['ana@example.com', 'bo@example.com']},
    );
    rt.call('refreshOffers');
    const {row} = firstAdvBudgetRow(rt);
    typeInto(rt, 'Budgets', row, 'daily_cap', '777');
    rt.setUser('bo@example.com');
    rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.subA.accessKey,
      apiKey: DEMO_ACCOUNTS.subA.apiKey,
    });
    emulator.clearRequests();
    const mine = `api.emulator.test, access key …${DEMO_ACCOUNTS.main.accessKey.slice(-4)}`;
    const theirs = `api.emulator.test, access key …${DEMO_ACCOUNTS.subA.accessKey.slice(-4)}`;
    expect(() => rt.call('pushBudgets')).toThrow(
      `Budgets was refreshed with other keys (${mine}), but you are connected with ${theirs}: nothing was sent. Connect with those keys to push what was edited under them, or run "Refresh offers and budgets" with yours first.`,
    );
    expect(emulator.requests).toEqual([]);
    rt.setUser('ana@example.com');
    expect(rt.call('pushBudgets')).toMatchObject({ok: 1, requests: 1});
  });

  it('a push over a last pull that cannot be read says so, not that the sheet was never refreshed, and sends nothing', () => {
    const {rt, emulator} = offerDesk({offers: 3});
    rt.call('refreshOffers');
    const {row} = firstAdvBudgetRow(rt);
    typeInto(rt, 'Budgets', row, 'daily_cap', '777');
    // A person types over the Budgets section of the hidden state sheet.
    const state = sheetOf(rt, 'Offer Desk state');
    const headers = state
      .getRange(1, 1, 1, state.getLastColumn())
      .getValues()[0];
    state.getRange(2, headers.indexOf('Budgets') + 1).setValue('j{damaged');
    emulator.clearRequests();
    expect(() => rt.call('pushBudgets')).toThrow(
      'What Offer Desk last pulled into Budgets could not be read from its hidden state sheet (changed by hand, or written by a later version of Offer Desk), so your edits cannot be told from the server\'s values: nothing was sent. Run "Refresh offers and budgets", then check your edits and push.',
    );
    expect(emulator.requests).toEqual([]);
  });
});
