/**
 * Every account in one workbook (issue 25, DESIGN 4.4) on the built add-on, against an agency
 * of the emulator: the main account and 14 sub-accounts. A refresh as every account signs each
 * list with its own account and costs the round trips of one account; a push signs each row
 * with its owner's keys whatever account acts; one account failing leaves its rows as they
 * were and names it, the others done.
 */
import {DEMO_ACCOUNTS, Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {MAIN_ACCOUNT_CELL} from '../../src/sheets/accounts';
import {
  AGENCY_SUB_ACCOUNTS,
  editableOffer,
  signedRequests,
  subAccountNames,
} from '../support/accounts';
import {
  offerDesk,
  recordsOf,
  sheetOf,
  typeInto,
  valuesOf,
} from '../support/offer-desk';

const MAIN = DEMO_ACCOUNTS.main.name;

function agency() {
  const desk = offerDesk({
    subAccounts: AGENCY_SUB_ACCOUNTS,
    listsSubAccounts: true,
  });
  const subs = subAccountNames(desk.emulator);
  return {...desk, subs, accounts: [MAIN, ...subs]};
}

/** The UrlFetch round trips (fetch and fetchAll calls) `run` makes. */
function roundTrips(rt: Runtime, run: () => unknown): number {
  const count = () => {
    const c = rt.meter.snapshot().counts;
    return (c['UrlFetchApp.fetch'] ?? 0) + (c['UrlFetchApp.fetchAll'] ?? 0);
  };
  const before = count();
  run();
  return count() - before;
}

const cellOfAccount = (name: string) =>
  name === MAIN ? MAIN_ACCOUNT_CELL : name;

/** Offer ids by the account cell of their Offers row. */
function offersByAccount(rt: Runtime): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of recordsOf(rt, 'Offers')) {
    const list = out.get(String(r.account)) ?? [];
    list.push(Number(r.offer_id));
    out.set(String(r.account), list);
  }
  return out;
}

function expectEveryAccountShown(
  rt: Runtime,
  emulator: Emulator,
  accounts: string[],
) {
  const shown = offersByAccount(rt);
  for (const name of accounts) {
    expect(shown.get(cellOfAccount(name))).toEqual([
      ...emulator.account(name).offers.keys(),
    ]);
  }
}

const puts = (emulator: Emulator, since: number) =>
  signedRequests(emulator, since).filter(r => r.op.startsWith('PUT'));

describe('refresh as every account', () => {
  it("reads the user's properties in one call a job, every account's keys among them, once more after it, and sees another execution's change at the next job", () => {
    const {rt, accounts} = agency();
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const reads = () =>
      rt.meter.snapshot().counts['PropertiesService.reads'] ?? 0;
    const before = reads();

    expect(rt.call('refreshOffers')).toMatchObject({error: 0});

    // The second once the lock is released: what the job records for the sidebar (the order
    // of spreadsheets used) builds on what other executions wrote while it ran.
    expect(reads() - before).toBe(2);
    expect(accounts.length).toBeGreaterThan(12);
    // Another execution (the sidebar's picker) changes the acting account: the next job reads it.
    rt.call('setActingAccount', '');
    expect(rt.call('refreshOffers')).toMatchObject({account: 'main account'});
  });

  it('lists every account, each list signed by its account and the sub-account keys by the main account, in two round trips', () => {
    const {rt, emulator, accounts} = agency();
    expect(accounts).toHaveLength(AGENCY_SUB_ACCOUNTS + 3);
    rt.call('setActingAccount', '*');
    emulator.clearRequests();

    const trips = roundTrips(rt, () =>
      expect(rt.call('refreshOffers')).toMatchObject({
        account: 'every account',
        error: 0,
      }),
    );

    expect(trips).toBe(2);
    const signed = signedRequests(emulator);
    expect(signed[0]).toMatchObject({op: 'GET sub_adv_account', signer: MAIN});
    expect(signed.slice(1).map(r => [r.op, r.signer, r.query.page])).toEqual(
      accounts.map(name => ['GET offers', name, '1']),
    );
    expectEveryAccountShown(rt, emulator, accounts);
    const budgets = recordsOf(rt, 'Budgets');
    for (const r of budgets) {
      const owner = accounts.find(a => cellOfAccount(a) === r.account)!;
      expect(emulator.account(owner).offers.has(Number(r.offer_id))).toBe(true);
    }
  });

  it('as one account afterwards, replaces only its rows; the others stay exactly as they were', () => {
    const {rt, emulator, subs} = agency();
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const one = subs[3];
    const others = () => valuesOf(rt, 'Offers').filter(row => row[0] !== one);
    const before = others();
    const [id] = emulator.account(one).offers.keys();
    emulator.updateOffer(id, {offer_name: 'renamed_on_server'});

    rt.call('setActingAccount', one);
    emulator.clearRequests();
    rt.call('refreshOffers');

    expect(signedRequests(emulator).map(r => [r.op, r.signer])).toEqual([
      ['GET offers', one],
    ]);
    expect(others()).toEqual(before);
    expect(
      recordsOf(rt, 'Offers').find(r => r.account === one && r.offer_id === id),
    ).toMatchObject({offer_name: 'renamed_on_server'});
  });

  it('one account refused (its keys) or failing (5xx): its rows stay as they were and the summary names it; the others are refreshed', () => {
    const {rt, emulator, subs, accounts} = agency();
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const [refused, broken] = [subs[1], subs[6]];
    const rowsOf = (name: string) =>
      valuesOf(rt, 'Offers').filter(row => row[0] === name);
    const kept = [rowsOf(refused), rowsOf(broken)];
    for (const name of [...accounts])
      for (const id of emulator.account(name).offers.keys())
        emulator.updateOffer(id, {offer_name: `changed_${id}`});
    emulator.faults.add({
      kind: 'busy',
      code: 10004,
      msg: 'access-key is invalid',
      account: refused,
    });
    emulator.faults.add({kind: 'error', status: 503, account: broken});

    const summary = rt.call('refreshOffers') as {
      message: string;
      error: number;
      accounts: unknown[];
    };

    expect(summary.error).toBe(2);
    // The sidebar's line per account: the records each listed, or why it was left out.
    expect(summary.accounts).toHaveLength(accounts.length);
    expect(summary.accounts).toContainEqual({
      account: 'main account',
      records: emulator.account(MAIN).offers.size,
    });
    expect(summary.accounts).toContainEqual({
      account: `sub-account ${broken}`,
      records: 0,
      error: expect.stringMatching(/503/),
    });
    expect(summary.accounts).toContainEqual({
      account: `sub-account ${refused}`,
      records: 0,
      error: expect.stringMatching(/access-key is invalid/),
    });
    expect(summary.message).toContain('Not refreshed, rows left as they were:');
    expect(summary.message).toContain(`sub-account ${refused} (`);
    expect(summary.message).toContain(`sub-account ${broken} (`);
    expect([rowsOf(refused), rowsOf(broken)]).toEqual(kept);
    for (const name of accounts.filter(a => a !== refused && a !== broken)) {
      for (const r of recordsOf(rt, 'Offers').filter(
        x => x.account === cellOfAccount(name),
      ))
        expect(r.offer_name).toBe(`changed_${String(r.offer_id)}`);
    }
  });
});

describe('push across accounts', () => {
  it('signs each PUT with the keys of the account that owns the row, whatever account acts, and a revert puts every account back', () => {
    const {rt, emulator, subs} = agency();
    const owners = [MAIN, subs[0], subs[9]];
    const ids = owners.map(name => editableOffer(emulator, name));
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const edits = owners.map((name, k) => ({
      name,
      id: ids[k],
      row: recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === ids[k]) + 2,
    }));
    for (const {row} of edits) typeInto(rt, 'Budgets', row, 'daily_cap', '321');

    rt.call('setActingAccount', subs[4]);
    const since = emulator.requests.at(-1)!.seq;
    const pushed = rt.call('pushBudgets') as {ok: number; changeId: string};

    expect(pushed.ok).toBe(3);
    const sent = puts(emulator, since);
    expect(sent.map(r => r.signer).sort()).toEqual([...owners].sort());
    for (const {name, id} of edits) {
      expect(emulator.account(name).offers.get(id)!.budget[0]).toMatchObject({
        daily_cap: '321',
      });
    }
    const history = valuesOf(rt, 'History');
    const at = (h: string) => history[0].indexOf(h);
    expect(
      history
        .slice(1)
        .map(r => [r[at('account')], r[at('record')]])
        .sort(),
    ).toEqual(edits.map(e => [cellOfAccount(e.name), String(e.id)]).sort());

    rt.call('setActingAccount', '');
    expect(rt.call('revertChange', pushed.changeId)).toMatchObject({edited: 3});
    const again = emulator.requests.at(-1)!.seq;
    expect(rt.call('pushBudgets')).toMatchObject({ok: 3});
    const back = puts(emulator, again);
    expect(back.map(r => r.signer).sort()).toEqual([...owners].sort());
    for (const {name, id} of edits) {
      expect(
        emulator.account(name).offers.get(id)!.budget[0].daily_cap,
      ).not.toBe('321');
    }
  });

  it("one account's keys refused during a push: its row ERROR naming why, nothing applied there, the other accounts pushed", () => {
    const {rt, emulator, subs} = agency();
    const [ok, refused] = [subs[2], subs[5]];
    for (const name of [ok, refused]) editableOffer(emulator, name);
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const rowOf = (name: string) => {
      const [id] = emulator.account(name).offers.keys();
      return {
        id,
        row: recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2,
      };
    };
    const a = rowOf(ok);
    const b = rowOf(refused);
    typeInto(rt, 'Budgets', a.row, 'daily_cap', '444');
    typeInto(rt, 'Budgets', b.row, 'daily_cap', '444');
    emulator.faults.add({
      kind: 'busy',
      code: 10004,
      msg: 'access-key is invalid',
      account: refused,
      method: 'PUT',
    });
    const since = emulator.requests.at(-1)!.seq;

    rt.call('pushBudgets');

    expect(puts(emulator, since).map(r => r.signer)).toEqual(
      expect.arrayContaining([ok, refused]),
    );
    const rows = recordsOf(rt, 'Budgets');
    expect(rows[a.row - 2]).toMatchObject({sync_status: 'OK'});
    expect(rows[b.row - 2]).toMatchObject({
      sync_status: 'ERROR',
      sync_message:
        'PUT offer/budget: code 10004 access-key is invalid: the next push sends it again.',
    });
    expect(
      emulator.account(refused).offers.get(b.id)!.budget[0].daily_cap,
    ).toBe('100');
    expect(emulator.account(ok).offers.get(a.id)!.budget[0].daily_cap).toBe(
      '444',
    );
  });
});

describe("a pulled row's account cell", () => {
  it('typed over with another account: the row is refused with the reason, nothing is signed with the other keys', () => {
    const {rt, emulator, subs} = agency();
    const id = editableOffer(emulator, MAIN);
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    const row = recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
    typeInto(rt, 'Budgets', row, 'account', subs[0]);
    typeInto(rt, 'Budgets', row, 'daily_cap', '777');
    const since = emulator.requests.at(-1)!.seq;

    expect(rt.call('pushBudgets')).toMatchObject({ok: 0, invalid: 1});

    expect(puts(emulator, since)).toEqual([]);
    expect(recordsOf(rt, 'Budgets')[row - 2]).toMatchObject({
      sync_status: 'INVALID',
      sync_message: `account ${subs[0]}: offer_id ${id} is the main account's record, as last refreshed; a row's account cannot be changed (its requests are signed with its owner's keys). Type (main account) back in account. Nothing was sent.`,
    });
  });
});

describe('the one writer across accounts', () => {
  it('Budgets sorted by offer_id while a push of three accounts is out: each status lands on its own account and offer', () => {
    const {rt, emulator, subs} = agency();
    const owners = [MAIN, subs[3], subs[8]];
    const ids = owners.map(name => editableOffer(emulator, name));
    rt.call('setActingAccount', '*');
    rt.call('refreshOffers');
    for (const id of ids) {
      const row =
        recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
      typeInto(rt, 'Budgets', row, 'daily_cap', '222');
    }
    rt.collaborator.duringFetch(1, (_, c) =>
      c.sortRows('Budgets', {column: 'offer_id', ascending: false}),
    );

    expect(rt.call('pushBudgets')).toMatchObject({ok: 3, error: 0});

    const rows = recordsOf(rt, 'Budgets');
    const numbers = rows.map(r => Number(r.offer_id));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    owners.forEach((name, k) => {
      expect(rows.find(r => r.offer_id === ids[k])).toMatchObject({
        account: cellOfAccount(name),
        daily_cap: 222,
        sync_status: 'OK',
        sync_message: `Pushed the budget of offer ${ids[k]} (1 group).`,
      });
    });
    expect(rows.filter(r => r.sync_status === 'OK')).toHaveLength(3);
  });
});

describe('showing one account', () => {
  it("filters every record sheet to that account's rows with Sheets' filter, sends nothing, and shows all again", () => {
    const {rt, emulator, subs} = agency();
    rt.call('setActingAccount', '*');
    rt.call('refreshAll');
    const one = subs[2];
    const since = emulator.requests.at(-1)!.seq;
    const hidden = (sheet: string) => {
      const s = sheetOf(rt, sheet);
      return recordsOf(rt, sheet).flatMap((r, k) =>
        s.isRowHiddenByFilter(k + 2) ? [] : [r.account],
      );
    };

    const shown = rt.call('showAccount', one) as {sheets: string[]};

    expect(shown.sheets).toEqual(
      expect.arrayContaining(['Campaigns', 'Offers', 'Budgets', 'Creatives']),
    );
    for (const sheet of ['Campaigns', 'Offers', 'Budgets']) {
      const visible = hidden(sheet);
      expect(visible.length).toBeGreaterThan(0);
      expect(new Set(visible)).toEqual(new Set([one]));
    }
    expect(signedRequests(emulator, since)).toEqual([]);

    rt.call('showAccount', '*');
    expect(hidden('Offers')).toHaveLength(recordsOf(rt, 'Offers').length);
  });
});
