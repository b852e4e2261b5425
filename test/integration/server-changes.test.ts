/**
 * Issue 35 (DESIGN 4.7): a refresh records in History the fields changed on the server outside
 * Offer Desk, one row per field (job `changed on the server`, outcome SEEN), and never what
 * Offer Desk wrote itself. The built dist/Code.js in the local runtime against the emulator.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {EXCEEDED_TIME, type Runtime} from '../../local/runtime';
import {budgetsPulled, capChangedOnServer} from '../support/history';
import {
  normalisedTrackingEdit,
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
} from '../support/offer-desk';

const HOUR_S = 3600;
const SUB = DEMO_ACCOUNTS.subA.name;
const SERVER = 'changed on the server';

const nowS = (rt: Runtime) => Math.floor(rt.clock.now() / 1000);

/** History's rows of changes found on the server: what a user reads of each. */
const seen = (rt: Runtime) =>
  rt.spreadsheet.getSheetByName('History')
    ? recordsOf(rt, 'History')
        .filter(r => r.job === SERVER)
        .map(r => [
          r.account,
          r.sheet,
          r.record,
          r.field,
          r.before,
          r.after,
          r.outcome,
        ])
    : [];

const refresh = (rt: Runtime) =>
  rt.call('refreshOffers') as {message: string; changeId?: string};

describe('History of the changes made outside Offer Desk', () => {
  it('a cap and a bid changed on the server: one row per field, with before and after; the summary counts them', () => {
    const {rt, emulator, ids} = budgetsPulled(2);
    const bid = String(emulator.offerView(ids[1])!.bid_rate);
    capChangedOnServer(emulator, ids[0], '150');
    emulator.updateOffer(ids[1], {bid_rate: 2.25});
    const summary = refresh(rt);
    expect(seen(rt)).toEqual([
      [
        '(main account)',
        'Offers',
        String(ids[1]),
        'bid_rate',
        bid,
        '2.25',
        'SEEN',
      ],
      [
        '(main account)',
        'Budgets',
        String(ids[0]),
        'daily_cap [ALL]',
        '100',
        '150',
        'SEEN',
      ],
    ]);
    expect(summary.message).toContain(
      ' 2 fields changed on the server, see History.',
    );
    const [row] = recordsOf(rt, 'History').filter(r => r.job === SERVER);
    expect(row.message).toMatch(
      /^Changed on the server since the refresh of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, by no write of Offer Desk\.$/,
    );
    // Told once: the next refresh finds nothing new.
    expect(refresh(rt).message).not.toContain('changed on the server');
    expect(seen(rt)).toHaveLength(2);
  });

  it("Offer Desk's own writes between two refreshes are no server change: a push, a revert and a scheduled change", () => {
    const {rt, emulator, ids, cap} = budgetsPulled(3);
    cap(ids[0], '150');
    const pushed = rt.call('pushBudgets') as {changeId: string};
    cap(ids[1], '170');
    rt.call('pushBudgets');
    rt.call('revertChange', pushed.changeId);
    rt.call('pushBudgets');
    cap(ids[2], '190');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.clock.advance(2 * HOUR_S * 1000 + 60_000);
    expect(rt.call('applyScheduledChanges')).toMatchObject({ok: 1});
    // Beside them, one change by someone else: the only row.
    emulator.updateOffer(ids[2], {bid_rate: 9.5});
    expect(refresh(rt).message).toContain(
      ' 1 field changed on the server, see History.',
    );
    expect(seen(rt).map(r => [r[2], r[3], r[5]])).toEqual([
      [String(ids[2]), 'bid_rate', '9.5'],
    ]);
    expect(
      recordsOf(rt, 'Budgets').map(r => [r.offer_id, r.daily_cap]),
    ).toEqual([
      [ids[0], 100],
      [ids[1], 170],
      [ids[2], 190],
    ]);
  });

  it('a scheduled change explains what its store says it sent, not a value typed over in the Scheduled sheet', () => {
    const {rt, emulator, ids, cap} = budgetsPulled(1);
    cap(ids[0], '190');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * HOUR_S});
    rt.call('setRefreshSchedule', 0);
    rt.clock.advance(2 * HOUR_S * 1000 + 60_000);
    expect(rt.call('applyScheduledChanges')).toMatchObject({ok: 1});
    // Someone sets the cap to 250 on the server, and someone types 250 over the row's after.
    capChangedOnServer(emulator, ids[0], '250');
    typeInto(rt, 'Scheduled', 2, 'after', '250');

    refresh(rt);

    expect(seen(rt).map(r => [r[2], r[3], r[4], r[5]])).toEqual([
      [String(ids[0]), 'daily_cap [ALL]', '100', '250'],
    ]);
  });

  it('a click_url the server keeps in its own form (scheme and host in lower case) is the link sent: no row', () => {
    const {rt, emulator, id} = normalisedTrackingEdit();
    expect(rt.call('pushTracking')).toMatchObject({ok: 1});
    expect(emulator.offerView(id)!.click_url).toBe(
      'https://track.example.com/c?Id=7',
    );
    refresh(rt);
    expect(seen(rt)).toEqual([]);
    // Another path is another link: told.
    emulator.updateOffer(id, {click_url: 'https://track.example.com/c?Id=8'});
    refresh(rt);
    expect(seen(rt)).toEqual([
      [
        '(main account)',
        'Offers',
        String(id),
        'click_url',
        'https://track.example.com/c?Id=7',
        'https://track.example.com/c?Id=8',
        'SEEN',
      ],
    ]);
  });

  it('a budget group added on the server: a row for each of its cells', () => {
    const {rt, emulator, ids} = budgetsPulled(1);
    emulator.updateOffer(ids[0], {
      target_geo: 'US,CA',
      budget: [
        {
          target_geo: 'ALL',
          total_budget: '1000',
          daily_cap_type: 'BUDGET',
          daily_cap: '100',
        },
        {
          target_geo: 'CA',
          total_budget: '300',
          daily_cap_type: 'BUDGET',
          daily_cap: '30',
        },
      ],
    });
    refresh(rt);
    const id = String(ids[0]);
    expect(seen(rt)).toEqual([
      ['(main account)', 'Offers', id, 'target_geo', 'US', 'US,CA', 'SEEN'],
      ['(main account)', 'Budgets', id, 'country_code [CA]', '', 'CA', 'SEEN'],
      [
        '(main account)',
        'Budgets',
        id,
        'daily_cap_type [CA]',
        '',
        'BUDGET',
        'SEEN',
      ],
      ['(main account)', 'Budgets', id, 'daily_cap [CA]', '', '30', 'SEEN'],
      ['(main account)', 'Budgets', id, 'total_budget [CA]', '', '300', 'SEEN'],
    ]);
  });

  it("every account: a sub-account's change is named with its account; its first refresh and a refresh of one account tell nothing of the others", () => {
    const {rt, emulator} = offerDesk({offers: 2, listsSubAccounts: true});
    const main = [...emulator.account('demo_adv').offers.keys()];
    const sub = [...emulator.account(SUB).offers.keys()];
    // The main account's first refresh, then every account's: the sub-accounts' first.
    refresh(rt);
    emulator.updateOffer(main[0], {bid_rate: 3.5});
    rt.call('setActingAccount', '*');
    refresh(rt);
    expect(seen(rt).map(r => [r[0], r[2], r[3], r[5]])).toEqual([
      ['(main account)', String(main[0]), 'bid_rate', '3.5'],
    ]);

    emulator.updateOffer(sub[0], {bid_rate: 4.5});
    emulator.updateOffer(main[1], {bid_rate: 5.5});
    rt.call('setActingAccount', SUB);
    refresh(rt);
    expect(
      seen(rt)
        .slice(1)
        .map(r => [r[0], r[2], r[3], r[5]]),
    ).toEqual([[SUB, String(sub[0]), 'bid_rate', '4.5']]);
    // The main account's change waits for the main account's refresh.
    rt.call('setActingAccount', '');
    refresh(rt);
    expect(
      seen(rt)
        .slice(2)
        .map(r => [r[0], r[2], r[3], r[5]]),
    ).toEqual([['(main account)', String(main[1]), 'bid_rate', '5.5']]);
  });

  it('the first refresh writes none; the second tells what changed since the first', () => {
    const {rt, emulator} = offerDesk({offers: 3});
    const [id] = emulator.account('demo_adv').offers.keys();
    emulator.updateOffer(id, {bid_rate: 6.5});
    const summary = refresh(rt);
    expect(rt.spreadsheet.getSheetByName('History')).toBeNull();
    expect(summary.message).not.toContain('changed on the server');
    emulator.updateOffer(id, {bid_rate: 7.5});
    refresh(rt);
    expect(seen(rt)).toEqual([
      [
        '(main account)',
        'Offers',
        String(id),
        'bid_rate',
        '6.5',
        '7.5',
        'SEEN',
      ],
    ]);
  });

  it("a scheduled refresh's email carries the count", () => {
    const {rt, emulator, ids} = budgetsPulled(2);
    rt.call('setRefreshSchedule', 1, {job: 'refreshOffers'});
    capChangedOnServer(emulator, ids[0], '150');
    capChangedOnServer(emulator, ids[1], '160');
    rt.runDueTriggers(rt.clock.now() + HOUR_S * 1000);
    expect(seen(rt)).toHaveLength(2);
    expect(rt.outbox.sent).toHaveLength(1);
    const [mail] = rt.outbox.sent;
    expect(mail.subject).toBe(
      'Offer Desk: 2 fields changed on the server in "Offer Desk"',
    );
    expect(mail.body).toContain(
      'found 2 fields changed on the server since the last refresh, by no write of Offer Desk',
    );
    expect(
      (rt.call('getSchedule') as {lastRun?: {email?: string}}).lastRun?.email,
    ).toBe(`Emailed 2 fields changed on the server to ${mail.to}.`);
  });

  it('the sidebar lists them under their own heading, per account, and revert never offers them', () => {
    const {rt, emulator, ids} = budgetsPulled(1);
    capChangedOnServer(emulator, ids[0], '150');
    const {changeId} = refresh(rt);
    const view = rt.call('listChanges') as {
      runs: Array<{
        job: string;
        account: string;
        revertible: boolean;
        server?: {since: string};
        lines: string[];
      }>;
    };
    expect(view.runs).toEqual([
      expect.objectContaining({
        job: SERVER,
        account: 'main account',
        revertible: false,
        server: {
          since: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        },
        lines: [`Budgets ${ids[0]} daily_cap [ALL]: 100 → 150`],
      }),
    ]);
    expect(() => rt.call('revertChange', changeId)).toThrow(
      /records fields changed on the server outside Offer Desk/,
    );
  });

  it('a refresh stopped after writing them does not write them again when run again', () => {
    const {rt, emulator} = offerDesk({offers: 2});
    const [id] = emulator.account('demo_adv').offers.keys();
    emulator.updateOffer(id, {tracking_method: 'APPSFLYER'});
    refresh(rt);
    emulator.updateOffer(id, {
      bid_rate: 7.5,
      status: 'STOPPED',
      click_url: 'https://t.example.test/elsewhere',
    });
    // Apps Script stops the run as the writer reads the Offers sheet: History is written, the
    // state after the sheet is not.
    const stop = () => rt.clock.advance(7 * 60_000);
    rt.collaborator.afterRead('Offers', () =>
      rt.collaborator.afterRead('Offers', () =>
        rt.collaborator.afterRead('Offers', stop),
      ),
    );
    expect(() => refresh(rt)).toThrow(EXCEEDED_TIME);
    const told = seen(rt).map(r => r[3]);
    expect(told.sort()).toEqual(['bid_rate', 'click_url', 'status']);
    refresh(rt);
    expect(seen(rt)).toHaveLength(3);
  });

  it('a last refresh that cannot be read writes none, and the summary says so once', () => {
    const {rt, emulator, ids} = budgetsPulled(2);
    capChangedOnServer(emulator, ids[0], '150');
    emulator.updateOffer(ids[1], {bid_rate: 8.5});
    // A person damages the Offers section of the hidden state sheet.
    const state = sheetOf(rt, 'Offer Desk state');
    const headers = state
      .getRange(1, 1, 1, state.getLastColumn())
      .getValues()[0];
    state.getRange(2, headers.indexOf('Offers') + 1).setValue('j{damaged');
    const summary = refresh(rt);
    expect(summary.message).toContain(
      ' 1 field changed on the server, see History. The last refresh of Offers could not be read from the state sheet: nothing there was compared for changes on the server this time.',
    );
    expect(seen(rt).map(r => [r[1], r[3]])).toEqual([
      ['Budgets', 'daily_cap [ALL]'],
    ]);
    emulator.updateOffer(ids[1], {bid_rate: 9.5});
    const again = refresh(rt);
    expect(again.message).not.toContain('could not be read');
    expect(
      seen(rt)
        .slice(1)
        .map(r => [r[1], r[3], r[4], r[5]]),
    ).toEqual([['Offers', 'bid_rate', '8.5', '9.5']]);
  });

  it("campaigns: a field changed on the server is told; Offer Desk's own push, typed with spaces it trims, is not", () => {
    const {rt, emulator} = offerDesk({campaigns: 3});
    const campaign = [...emulator.account('demo_adv').campaigns.values()].find(
      c => c.maintain_by === 'ADV' && c.promotion_type === 'APP',
    )!;
    const id = campaign.campaign_id;
    rt.call('refreshCampaigns');
    const row =
      recordsOf(rt, 'Campaigns').findIndex(r => r.campaign_id === id) + 2;
    typeInto(rt, 'Campaigns', row, 'description', '  Two lines\nof text  ');
    typeInto(rt, 'Campaigns', row, 'app_size', '12.50');
    expect(rt.call('pushCampaigns')).toMatchObject({ok: 1});
    rt.call('refreshCampaigns');
    expect(seen(rt)).toEqual([]);
    emulator.updateCampaign(id, {description: 'Edited by the AM'});
    rt.call('refreshCampaigns');
    expect(seen(rt)).toEqual([
      [
        '(main account)',
        'Campaigns',
        String(id),
        'description',
        'Two lines\nof text',
        'Edited by the AM',
        'SEEN',
      ],
    ]);
  });

  it("History's size applies: a refresh that finds more changes than it keeps moves the oldest runs to the archive first", () => {
    const {rt, emulator, ids, cap} = budgetsPulled(1001);
    rt.call('setHistoryLimit', 1000);
    cap(ids[0], '150');
    rt.call('pushBudgets');
    for (const id of ids.slice(1)) capChangedOnServer(emulator, id, '120');
    const summary = refresh(rt);
    expect(summary.message).toContain(
      ' 1000 fields changed on the server, see History. History was past 1000 rows: its 1 oldest rows moved to "History archive ',
    );
    expect(seen(rt)).toHaveLength(1000);
    expect(recordsOf(rt, 'History').every(r => r.job === SERVER)).toBe(true);
  });
});
