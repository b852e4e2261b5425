import {OPERATIONS, offersListing} from '../../../src/api/operations';
import {listEach} from '../../../src/api/paging';
import {accountsToActFor} from '../../../src/jobs/accounts';
import {connect} from '../../../src/jobs/connect';
import {saveSettings, setActingAccount} from '../../../src/jobs/host/settings';
import {SettingsStore} from '../../../src/jobs/settings-store';
import type {HttpRequest} from '../../../src/platform/ports';
import {
  Answer,
  ScriptedTransport,
  fail,
  fakePlatform,
  http,
  ok,
  queryOf,
} from '../../support/fakes';
import {
  AGENCY_SUB_ACCOUNTS,
  signedRequests,
  subAccountNames,
} from '../../support/accounts';
import {emulatorPlatform} from '../../support/emulator-platform';

const SETTINGS = {
  baseUrl: 'https://api.example.test',
  accessKey: 'ak-main-0001',
  apiKey: 'fake-main-api-key-000000000000',
};

const keysOf = (name: string) => ({
  sub_adv_user_name: name,
  access_key: `ak-${name}`,
  api_key: `fake-key-${name}`,
});

interface Server {
  /** What the nameless GET answers; absent, it is refused as the emulator refuses it. */
  listing?: Array<Partial<ReturnType<typeof keysOf>>>;
  /** Names the lookup by name knows. */
  known: string[];
  /** Answers that replace the lookup of a name. */
  lookup?: Record<string, Answer>;
}

function serving({listing, known, lookup = {}}: Server) {
  return (request: HttpRequest): Answer => {
    if (!request.url.includes('/sub_adv_account'))
      return ok({page: 1, limit: 50, total: 0, list: []});
    const name = queryOf(request).sub_adv_user_name;
    if (name === undefined) {
      return listing
        ? ok({page: 1, limit: 50, total: listing.length, list: listing})
        : fail(10000, 'error', {
            sub_adv_user_name: 'The sub_adv_user_name field is required.',
          });
    }
    if (lookup[name]) return lookup[name];
    const list = known.includes(name) ? [keysOf(name)] : [];
    return ok({page: 1, limit: 10, total: list.length, list});
  };
}

function actingAs(account: string, server: Server) {
  const transport = new ScriptedTransport(serving(server));
  const platform = fakePlatform(transport);
  saveSettings(platform, SETTINGS);
  setActingAccount(platform, account);
  transport.batches.length = 0;
  return {platform, transport, connected: connect(platform)};
}

/** Each request of each batch as [name looked up or '(list)', access-key]. */
function sent(transport: ScriptedTransport) {
  return transport.batches.map(batch =>
    batch.map(r => [
      queryOf(r).sub_adv_user_name ?? '(list)',
      r.headers['access-key'],
    ]),
  );
}

describe('accountsToActFor', () => {
  it('acts for the one account acted as, sending nothing', () => {
    const main = actingAs('', {known: ['team_a']});
    expect(accountsToActFor(main.connected, ['team_a'])).toEqual({
      accounts: [''],
      failed: [],
      requests: 0,
    });
    const sub = actingAs('team_a', {known: ['team_a']});
    expect(accountsToActFor(sub.connected, ['team_b'])).toEqual({
      accounts: ['team_a'],
      failed: [],
      requests: 0,
    });
    expect(main.transport.requests).toEqual([]);
    expect(sub.transport.requests).toEqual([]);
  });

  it('asks the nameless listing and every sheet name in one fetchAll signed by the main account, and keeps the keys', () => {
    const {connected, transport, platform} = actingAs('*', {
      known: ['team_a', 'team_b', 'team_c'],
    });
    expect(
      accountsToActFor(connected, ['team_b', ' team_a ', '', 'team_b']),
    ).toEqual({accounts: ['', 'team_b', 'team_a'], failed: [], requests: 3});
    expect(sent(transport)).toEqual([
      [
        ['(list)', 'ak-main-0001'],
        ['team_b', 'ak-main-0001'],
        ['team_a', 'ak-main-0001'],
      ],
    ]);
    expect(queryOf(transport.requests[0])).toEqual({page: '1', limit: '50'});
    expect(new SettingsStore(platform.userProperties).get('team_a')).toEqual({
      accessKey: 'ak-team_a',
      apiKey: 'fake-key-team_a',
    });
    // The keys are had: each account signs at once, this run and the next, looking nothing up.
    connected.clientFor('team_a').call(OPERATIONS.listOffers);
    connect(platform).clientFor('team_b').call(OPERATIONS.listOffers);
    expect(
      transport.requests.slice(3).map(r => r.headers['access-key']),
    ).toEqual(['ak-team_a', 'ak-team_b']);
  });

  it('takes every sub-account the listing answers, in its order, then the sheet names it did not list', () => {
    const {connected, transport} = actingAs('*', {
      listing: [keysOf('zeta'), keysOf('alpha'), keysOf('team_a')],
      known: ['zeta', 'alpha', 'team_a', 'sheet_only'],
    });
    expect(accountsToActFor(connected, ['sheet_only', 'team_a'])).toEqual({
      accounts: ['', 'zeta', 'alpha', 'team_a', 'sheet_only'],
      failed: [],
      requests: 3,
    });
    expect(transport.batches).toHaveLength(1);
    expect(connected.store.get('zeta')).toEqual({
      accessKey: 'ak-zeta',
      apiKey: 'fake-key-zeta',
    });
  });

  it('looks up by name, in a second round trip, only the names listed without keys and not kept', () => {
    const {connected, transport} = actingAs('*', {
      listing: [
        {sub_adv_user_name: 'bare_1'},
        {sub_adv_user_name: 'kept_1'},
        {sub_adv_user_name: 'team_a'},
        {sub_adv_user_name: 'bare_2', access_key: 'ak-bare_2', api_key: ''},
      ],
      known: ['bare_1', 'kept_1', 'team_a', 'bare_2'],
    });
    connected.store.put('kept_1', {accessKey: 'ak-kept', apiKey: 'fake-kept'});
    expect(accountsToActFor(connected, ['team_a'])).toEqual({
      accounts: ['', 'bare_1', 'kept_1', 'team_a', 'bare_2'],
      failed: [],
      requests: 4,
    });
    expect(sent(transport)).toEqual([
      [
        ['(list)', 'ak-main-0001'],
        ['team_a', 'ak-main-0001'],
      ],
      [
        ['bare_1', 'ak-main-0001'],
        ['bare_2', 'ak-main-0001'],
      ],
    ]);
    expect(connected.store.get('kept_1')).toEqual({
      accessKey: 'ak-kept',
      apiKey: 'fake-kept',
    });
    expect(connected.store.get('bare_2')?.apiKey).toBe('fake-key-bare_2');
  });

  it('names each sub-account whose keys could not be had, and acts for the others', () => {
    const {connected, transport} = actingAs('*', {
      known: ['team_a', 'team_c', 'keyless'],
      lookup: {
        team_c: http(503),
        keyless: ok({
          page: 1,
          limit: 10,
          total: 1,
          list: [{sub_adv_user_name: 'keyless'}],
        }),
      },
    });
    const found = accountsToActFor(connected, [
      'team_a',
      'gone',
      'team_c',
      'keyless',
    ]);
    expect(found).toEqual({
      accounts: ['', 'team_a'],
      failed: [
        {
          account: 'gone',
          message: 'The main account has no sub-account named "gone".',
        },
        {
          account: 'team_c',
          message:
            'The keys of sub-account team_c could not be looked up (GET sub_adv_account: HTTP 503 unexpected answer, an HTML page: busy).',
        },
        {
          account: 'keyless',
          message:
            'The lookup of sub-account keyless answered no access_key and api_key.',
        },
      ],
      requests: 5,
    });
    // The 503 was retried alone, as every read is.
    expect(transport.batches.map(b => b.length)).toEqual([5, 1, 1, 1]);
    expect(connected.store.get('gone')).toBeUndefined();
  });

  it('takes a listed sub-account whose lookup failed, and a sheet name the listing did not answer', () => {
    const {connected} = actingAs('*', {
      listing: [keysOf('team_a')],
      known: ['team_a', 'team_b'],
      lookup: {team_a: fail(10500, 'system busy')},
    });
    expect(accountsToActFor(connected, ['team_a', 'team_b'])).toMatchObject({
      accounts: ['', 'team_a', 'team_b'],
      failed: [],
    });
  });

  it('lets kept keys serve where a lookup failed, never where the sub-account is gone', () => {
    const {connected} = actingAs('*', {
      known: ['team_busy'],
      lookup: {team_busy: fail(10500, 'system busy')},
    });
    const kept = {accessKey: 'ak-kept', apiKey: 'fake-kept'};
    connected.store.put('team_busy', kept);
    connected.store.put('team_gone', kept);
    expect(accountsToActFor(connected, ['team_busy', 'team_gone'])).toEqual({
      accounts: ['', 'team_busy'],
      failed: [
        {
          account: 'team_gone',
          message: 'The main account has no sub-account named "team_gone".',
        },
      ],
      requests: 3,
    });
    expect(connected.store.get('team_busy')).toEqual(kept);
  });

  it("fails as a whole when the main account's keys are refused", () => {
    const {platform} = actingAs('*', {known: ['team_a']});
    const refused = fakePlatform(
      new ScriptedTransport(() => fail(10004, 'invalid access-key')),
      {userProperties: platform.userProperties},
    );
    expect(() => accountsToActFor(connect(refused), ['team_a'])).toThrow(
      'GET sub_adv_account: code 10004 invalid access-key',
    );
  });
});

describe('accountsToActFor, an agency of 14 sub-accounts on the emulator', () => {
  function agency(listsSubAccounts: boolean | 'names' = false) {
    const world = emulatorPlatform({
      subAccounts: AGENCY_SUB_ACCOUNTS,
      listsSubAccounts,
    });
    setActingAccount(world.platform, '*');
    const batches = jest.spyOn(world.transport, 'sendAll');
    return {...world, batches, connected: connect(world.platform)};
  }

  it('gets every key in one round trip signed by the main account where the listing is refused (rule 15), then each account lists its own offers', () => {
    const {emulator, connected, batches} = agency();
    const names = subAccountNames(emulator);
    expect(names).toHaveLength(14);
    const found = accountsToActFor(connected, names);
    expect(found).toEqual({accounts: ['', ...names], failed: [], requests: 15});
    expect(batches).toHaveBeenCalledTimes(1);
    expect(signedRequests(emulator)).toEqual([
      {
        op: 'GET sub_adv_account',
        signer: 'demo_adv',
        query: {page: '1', limit: '50'},
      },
      ...names.map(name => ({
        op: 'GET sub_adv_account',
        signer: 'demo_adv',
        query: {sub_adv_user_name: name, page: '1', limit: '50'},
      })),
    ]);
    const since = emulator.requests.at(-1)!.seq;
    const lists = listEach(
      found.accounts.map(account =>
        offersListing(connected.clientFor(account)),
      ),
    );
    expect(batches).toHaveBeenCalledTimes(2);
    expect(signedRequests(emulator, since).map(r => r.signer)).toEqual([
      'demo_adv',
      ...names,
    ]);
    found.accounts.forEach((account, i) =>
      expect(lists[i].items.map(o => o.offer_id)).toEqual([
        ...emulator.account(account || 'demo_adv').offers.keys(),
      ]),
    );
  });

  it('takes every account from the listing alone where the server lists them with keys', () => {
    const {emulator, connected, batches} = agency(true);
    expect(accountsToActFor(connected, [])).toEqual({
      accounts: ['', ...subAccountNames(emulator)],
      failed: [],
      requests: 1,
    });
    expect(batches).toHaveBeenCalledTimes(1);
    expect(connected.store.get('agency_sub_12')).toEqual({
      accessKey: 'agency-sub-12-access-key',
      apiKey: emulator.account('agency_sub_12').api_key,
    });
  });

  it('looks the names up in a second round trip where the listing gives no keys', () => {
    const {emulator, connected, batches} = agency('names');
    const names = subAccountNames(emulator);
    expect(accountsToActFor(connected, names.slice(0, 2))).toEqual({
      accounts: ['', ...names],
      failed: [],
      requests: 15,
    });
    expect(batches.mock.calls.map(([requests]) => requests.length)).toEqual([
      3, 12,
    ]);
  });
});
