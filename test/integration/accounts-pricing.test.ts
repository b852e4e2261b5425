/**
 * Issue 33, pricing learns and forgets: a refresh slowed by the server's refusals (429 with
 * Retry-After) does not price every later refresh as slow; a refresh that would not fit refreshes
 * less (the accounts that fit) and names the others; only the accounts acted for now are priced.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {MAIN_ACCOUNT_CELL} from '../../src/sheets/accounts';
import {
  AGENCY_SUB_ACCOUNTS,
  signedRequests,
  subAccountNames,
} from '../support/accounts';
import {offerDesk, recordsOf, sheetOf} from '../support/offer-desk';

describe('the pace of a refresh', () => {
  it('a run slowed by three 429s (Retry-After 90) is not the pace of the next: a refresh of 3 offers runs', () => {
    const {rt, emulator} = offerDesk({offers: 3});
    rt.call('refreshOffers');
    emulator.faults.add({kind: 'rateLimit', retryAfterSeconds: 90, count: 3});
    expect(rt.call('refreshOffers')).toMatchObject({error: 0});
    emulator.clearRequests();

    expect(rt.call('refreshOffers')).toMatchObject({ok: 3, error: 0});
    expect(emulator.requests.length).toBeGreaterThan(0);
  });

  it('one answer of 280 s refuses no later refresh of one account: it runs, and measures the pace again', () => {
    const {rt, emulator} = offerDesk({offers: 3});
    rt.call('refreshOffers');
    emulator.faults.configure({latencyMs: 280_000});
    rt.call('refreshOffers');
    emulator.faults.configure({latencyMs: 0});
    emulator.clearRequests();

    expect(rt.call('refreshOffers')).toMatchObject({ok: 3, error: 0});
    expect(emulator.requests).toHaveLength(1);
  });
});

/** The account cells of Offers, each once. */
const accountsShown = (rt: Runtime) =>
  [...new Set(recordsOf(rt, 'Offers').map(r => String(r.account)))].sort();

describe('a refresh of every account past one execution', () => {
  function agencyAt150s() {
    const desk = offerDesk({
      subAccounts: AGENCY_SUB_ACCOUNTS,
      listsSubAccounts: true,
    });
    const subs = subAccountNames(desk.emulator);
    desk.rt.call('setActingAccount', '*');
    desk.rt.call('refreshOffers');
    // The server now answers in 150 s: one account's refresh (one round trip) still fits and
    // measures it; every account's needs two (the keys, then the lists).
    desk.emulator.faults.configure({latencyMs: 150_000});
    desk.rt.call('setActingAccount', subs[0]);
    desk.rt.call('refreshOffers');
    desk.rt.call('setActingAccount', '*');
    return {...desk, subs};
  }

  it('refreshes the accounts that fit (the main account), names each one left out, and carries its rows', () => {
    const {rt, emulator, subs} = agencyAt150s();
    const before = recordsOf(rt, 'Offers').filter(
      r => r.account !== MAIN_ACCOUNT_CELL,
    );
    emulator.clearRequests();

    const summary = rt.call('refreshOffers') as {
      message: string;
      error: number;
    };

    expect(signedRequests(emulator).map(r => [r.op, r.signer])).toEqual([
      ['GET offers', DEMO_ACCOUNTS.main.name],
    ]);
    expect(summary.error).toBe(subs.length);
    for (const sub of subs)
      expect(summary.message).toContain(
        `sub-account ${sub} (with it, refreshing every account (15 accounts) would take about 300.4 s at the last measured pace, more than one run gives a job: act as it to refresh it, or keep each group of accounts in a workbook of its own)`,
      );
    expect(
      recordsOf(rt, 'Offers').filter(r => r.account !== MAIN_ACCOUNT_CELL),
    ).toEqual(before);
    expect(accountsShown(rt)).toEqual([MAIN_ACCOUNT_CELL, ...subs].sort());
  });

  it('prices the accounts of the Sub-accounts sheet as it stands, not every account ever pulled', () => {
    const {rt, emulator, subs} = agencyAt150s();
    rt.call('refreshSubAccounts');
    // Trimmed to two sub-accounts.
    const sheet = sheetOf(rt, 'Sub-accounts');
    const kept = recordsOf(rt, 'Sub-accounts')
      .map((r, i) => ({name: String(r.sub_adv_user_name), row: i + 2}))
      .filter(r => r.name === subs[0] || r.name === subs[1]);
    expect(kept).toHaveLength(2);
    for (let row = sheet.getLastRow(); row >= 2; row--)
      if (!kept.some(k => k.row === row)) sheet.deleteRow(row);
    emulator.faults.configure({latencyMs: 150_000});

    const summary = rt.call('refreshOffers') as {message: string};

    expect(summary.message).toContain(
      `sub-account ${subs[1]} (with it, refreshing every account (3 accounts) would take about`,
    );
  });
});
