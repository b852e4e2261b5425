/**
 * A scheduled run is one execution of two jobs (src/index.ts): the due scheduled changes, then
 * the refresh, under one document lock and over one state book. The built dist/Code.js in the
 * local runtime against the emulator.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {
  editCap,
  editable,
  signedRequests,
  threeAccounts,
} from '../support/accounts';
import {budgetsPulled, capSent} from '../support/history';
import {offerDesk, recordsOf} from '../support/offer-desk';

const HOUR_MS = 3600_000;
const STATE_SHEET = 'Offer Desk state';

const nowS = (rt: Runtime) => Math.floor(rt.clock.now() / 1000);

/** Runs the due triggers up to `n` hours from now; answers their errors. */
const hours = (rt: Runtime, n: number) =>
  rt.runDueTriggers(rt.clock.now() + n * HOUR_MS).map(r => r.error);

/** Counts the add-on's reads of `sheet`'s values from now on. */
function readsOf(rt: Runtime, sheet: string): {n: number} {
  const reads = {n: 0};
  const count = () => {
    reads.n++;
    rt.collaborator.afterRead(sheet, count);
  };
  rt.collaborator.afterRead(sheet, count);
  return reads;
}

describe('a scheduled run with changes due', () => {
  it('sends them and refreshes under one document lock, reading the state sheet as often as a refresh alone', () => {
    const {rt, emulator, ids, cap, budget} = budgetsPulled(5);
    ids.forEach((id, k) => cap(id, String(150 + k)));
    rt.call('pushBudgets', {at: nowS(rt) + 2 * 3600});
    // The first hourly run finds nothing due.
    expect(hours(rt, 1)).toEqual([undefined]);
    const since = emulator.requests.length;

    rt.meter.reset();
    const stateReads = readsOf(rt, STATE_SHEET);
    expect(hours(rt, 1)).toEqual([undefined]);
    const inRun = stateReads.n;
    const {counts} = rt.snapshot();
    // Taken once and held across both jobs: no push can run between them.
    expect([counts['Lock.tryLock'], counts['Lock.releaseLock']]).toEqual([
      1, 1,
    ]);
    expect(
      emulator.requests
        .slice(since)
        .filter(r => r.method === 'PUT')
        .map(r => r.body),
    ).toEqual(ids.map((id, k) => capSent(id, 150 + k)));
    expect(recordsOf(rt, 'Scheduled').map(r => r.status)).toEqual(
      Array(5).fill('OK'),
    );
    // The refresh after the changes shows what they made live.
    expect(ids.map(id => budget(id).daily_cap)).toEqual([
      150, 151, 152, 153, 154,
    ]);
    expect(
      (rt.call('getSchedule') as {lastRun: unknown}).lastRun,
    ).toMatchObject({
      outcome: 'ok',
      message: expect.stringMatching(
        /^Refresh everything: Scheduled changes: 5 fields sent\. See the Scheduled sheet\. Refreshed /,
      ),
    });

    // The state book is read once, when the changes open it; the refresh reads what they left.
    stateReads.n = 0;
    rt.call('refreshAll');
    expect(stateReads.n).toBeGreaterThan(0);
    expect(inRun).toBe(stateReads.n);
  });
});

/** The last execution's length, in ms. */
const lastRunMs = (rt: Runtime) => {
  const run = rt.executions.at(-1)!;
  return run.endMs! - run.startMs;
};

describe('a scheduled run whose changes took part of its time', () => {
  it('refreshes the accounts that fit the time left, names the others, and the next run refreshes them', () => {
    const {rt, emulator, ids} = threeAccounts();
    const [main, subA, subB] = [
      DEMO_ACCOUNTS.main.name,
      DEMO_ACCOUNTS.subA.name,
      DEMO_ACCOUNTS.subB.name,
    ];
    editCap(rt, ids[main], '150');
    rt.call('pushBudgets', {at: nowS(rt) + 2 * 3600});
    // Every read answers in 100 s, a PUT in 65 s. Every account's refresh (the keys, then the
    // lists) fits a run of its own at 200 s; the main account's alone takes 100 s.
    emulator.faults.configure({
      rules: [
        {kind: 'slow', method: 'GET', latencyMs: 100_000},
        {kind: 'slow', method: 'PUT', latencyMs: 65_000},
      ],
    });
    rt.call('refreshAll');
    expect(hours(rt, 1)).toEqual([undefined]);
    const since = emulator.requests.at(-1)!.seq;
    emulator.updateOffer(ids[subA], {offer_name: 'Renamed on the server'});

    // The changes (their read, then their PUT) take 165 s: about 105 s are left.
    expect(hours(rt, 1)).toEqual([undefined]);

    expect(lastRunMs(rt)).toBeLessThan(4.5 * 60 * 1000);
    expect(signedRequests(emulator, since).map(r => [r.op, r.signer])).toEqual([
      ['GET offers', main],
      ['PUT offer/budget', main],
      ['GET campaign', main],
      ['GET offers', main],
      ['GET creatives/source', main],
      ['GET sub_adv_account', main],
    ]);
    const why =
      'the scheduled changes left 103.2 s of this run, and with it, refreshing every account (3 accounts) would take about 200.3 s at the last measured pace: the next run takes it before the accounts this one refreshed';
    expect(
      (rt.call('getSchedule') as {lastRun: unknown}).lastRun,
    ).toMatchObject({
      outcome: 'attention',
      message: `Refresh everything: Scheduled changes: 1 field sent. See the Scheduled sheet. Refreshed 5 campaigns, 20 offers, 4 creative materials, 2 sub-accounts (every account: the main account and 2 sub-accounts). Not refreshed, rows left as they were: sub-account ${subA} (${why}); sub-account ${subB} (${why}).`,
    });
    const title = (id: number) =>
      recordsOf(rt, 'Offers').find(r => r.offer_id === id)!.offer_name;
    expect(title(ids[subA])).not.toBe('Renamed on the server');

    const next = emulator.requests.at(-1)!.seq;
    expect(hours(rt, 1)).toEqual([undefined]);
    expect(
      signedRequests(emulator, next)
        .filter(r => r.op === 'GET offers')
        .map(r => r.signer),
    ).toEqual([main, subA, subB]);
    expect(title(ids[subA])).toBe('Renamed on the server');
  });
});

describe('a scheduled run of one account whose changes took its time', () => {
  it.each([
    [
      '140 s: the changes end 280 s into the run, past 4.5 minutes',
      140_000,
      'the scheduled changes took the time of this run, and the next run refreshes.',
    ],
    [
      '120 s: the refresh fits a run of its own, not the 28 s the changes leave',
      120_000,
      'the scheduled changes left 28.3 s of this run, and refreshing the main account would take about 120.1 s at the last measured pace; the next run refreshes.',
    ],
  ])(
    'does not start the refresh, each exchange taking %s; the next run refreshes',
    (_, latencyMs, why) => {
      const {rt, emulator, ids, cap, budget} = budgetsPulled(5);
      ids.forEach((id, k) => cap(id, String(150 + k)));
      rt.call('pushBudgets', {at: nowS(rt) + 2 * 3600});
      emulator.faults.configure({latencyMs});
      // The refresh before measures the pace.
      rt.call('refreshOffers');
      expect(hours(rt, 1)).toEqual([undefined]);
      const since = emulator.requests.length;

      expect(hours(rt, 1)).toEqual([undefined]);

      expect(lastRunMs(rt)).toBeLessThan(5 * 60 * 1000);
      expect(
        emulator.requests.slice(since).map(r => `${r.method} ${r.path}`),
      ).toEqual([
        'GET /api/open/v3/offers',
        ...Array(5).fill('PUT /api/open/v3/offer/budget'),
      ]);
      expect(
        (rt.call('getSchedule') as {lastRun: unknown}).lastRun,
      ).toMatchObject({
        outcome: 'ok',
        message: `Refresh everything: Scheduled changes: 5 fields sent. See the Scheduled sheet. The refresh did not start: ${why}`,
      });
      // Budgets shows what was last pulled until a refresh shows what the changes made live.
      expect(budget(ids[0]).daily_cap).toBe(100);

      expect(hours(rt, 1)).toEqual([undefined]);
      expect(ids.map(id => budget(id).daily_cap)).toEqual([
        150, 151, 152, 153, 154,
      ]);
    },
  );
});

describe('scheduled runs that are every one trimmed', () => {
  it('take the accounts in turn, those left out before those refreshed: three runs refresh every account', () => {
    // 101 pages of offers for the main account, 3 for each sub-account. At 50 s an answer
    // every account takes 4 round trips (the keys, the first pages, then 102 other pages in two
    // batches); the main account alone 2, the sub-accounts without it 3.
    const {rt, emulator} = offerDesk({
      offers: 5050,
      otherOffers: 100,
      listsSubAccounts: true,
    });
    const [main, subA, subB] = [
      DEMO_ACCOUNTS.main.name,
      DEMO_ACCOUNTS.subA.name,
      DEMO_ACCOUNTS.subB.name,
    ];
    const first = (name: string) =>
      [...emulator.account(name).offers.keys()][0];
    const ids = [...emulator.account(main).offers.keys()].slice(0, 3);
    for (const id of ids) editable(emulator, id);
    rt.call('setActingAccount', '*');
    emulator.faults.configure({
      rules: [
        {kind: 'slow', method: 'GET', latencyMs: 50_000},
        {kind: 'slow', method: 'PUT', latencyMs: 40_000},
      ],
    });
    // Every account fits a run of its own (about 205 s): it measures the pace.
    expect(rt.call('refreshAll')).toMatchObject({error: 0});
    // A change due in each of the next three hourly runs: each takes 90 s of it (a read, a
    // PUT) and leaves 178 s, time for 3 round trips.
    ids.forEach((id, k) => {
      editCap(rt, id, String(150 + k));
      rt.call('pushBudgets', {at: nowS(rt) + (k + 0.5) * 3600});
    });
    const accounts = [main, subA, subB];
    /**
     * One hourly run, each account's first offer renamed on the server before it: whose lists
     * the refresh sent, whose rows show the new name, the rows of Offers (those left out are
     * carried), what it said.
     */
    const run = (n: number) => {
      const renamed = (name: string) => `${name} before run ${n}`;
      for (const name of accounts)
        emulator.updateOffer(first(name), {offer_name: renamed(name)});
      const since = emulator.requests.at(-1)!.seq;
      expect(hours(rt, 1)).toEqual([undefined]);
      expect(lastRunMs(rt)).toBeLessThan(4.5 * 60 * 1000);
      const offers = recordsOf(rt, 'Offers');
      return {
        // Only the refresh lists campaigns: the changes read offers.
        listed: signedRequests(emulator, since)
          .filter(r => r.op === 'GET campaign')
          .map(r => r.signer),
        shown: accounts.filter(name =>
          offers.some(
            r => r.offer_id === first(name) && r.offer_name === renamed(name),
          ),
        ),
        rows: offers.length,
        said: (rt.call('getSchedule') as {lastRun: {message: string}}).lastRun
          .message,
      };
    };
    const why = (left: string, all: string) =>
      `the scheduled changes left ${left} s of this run, and with it, refreshing every account (3 accounts) would take about ${all} s at the last measured pace: the next run takes it before the accounts this one refreshed`;
    const sent =
      'Refresh everything: Scheduled changes: 1 field sent. See the Scheduled sheet.';
    const mainOnly = (left: string, all: string) =>
      `${sent} Refreshed 5 campaigns, 5050 offers, 4 creative materials, 2 sub-accounts (every account: the main account and 2 sub-accounts). Not refreshed, rows left as they were: sub-account ${subA} (${why(left, all)}); sub-account ${subB} (${why(left, all)}).`;

    // In the order given, the main account first: it alone fits.
    expect(run(1)).toEqual({
      listed: [main],
      shown: [main],
      rows: 5250,
      said: mainOnly('178.2', '208.5'),
    });
    // Those it left out go first, and fit together; the main account's turn (its sub-accounts
    // list too) comes after theirs.
    expect(run(2)).toEqual({
      listed: [subA, subB],
      shown: [subA, subB],
      rows: 5250,
      said: `${sent} Refreshed 2 campaigns, 200 offers, 2 creative materials (every account: the main account and 2 sub-accounts). Not refreshed, rows left as they were: main account (${why('178.4', '208.5')}).`,
    });
    expect(run(3)).toEqual({
      listed: [main],
      shown: [main],
      rows: 5250,
      said: mainOnly('178.4', '207.7'),
    });
  });
});
