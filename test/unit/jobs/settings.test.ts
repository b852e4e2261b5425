import {
  getSettings,
  saveSettings,
  setActingAccount,
} from '../../../src/jobs/host/settings';
import {OPERATIONS} from '../../../src/api/operations';
import {MemoryWorkbook} from '../../support/workbook';
import {connect} from '../../../src/jobs/connect';
import {
  ScriptedTransport,
  fail,
  fakePlatform,
  ok,
  queryOf,
} from '../../support/fakes';

const SETTINGS = {
  baseUrl: 'https://api.example.test/',
  accessKey: 'ak-main-0001',
  apiKey: 'fake-main-api-key-000000000000',
};

function subAccountServer() {
  return new ScriptedTransport(request => {
    if (request.url.includes('/sub_adv_account')) {
      const name = queryOf(request).sub_adv_user_name;
      return ok({
        list:
          name === 'team_a'
            ? [
                {
                  sub_adv_user_name: 'team_a',
                  access_key: 'ak-team-a',
                  api_key: 'fake-team-a-key-0000',
                },
              ]
            : [],
      });
    }
    return request.headers['access-key'] === 'ak-team-a'
      ? ok({page: 1, limit: 50, total: 0, list: []})
      : fail(10003, 'invalid token');
  });
}

describe('settings', () => {
  it('stores the connection in user properties and never shows the api key', () => {
    const platform = fakePlatform(subAccountServer());
    const view = saveSettings(platform, SETTINGS);
    expect(view).toEqual({
      baseUrl: 'https://api.example.test',
      uploadBaseUrl: 'https://api.example.test',
      accessKey: 'ak-main-0001',
      hasApiKey: true,
      actingAccount: '',
      refreshEveryHours: 0,
      supportServerClick: '',
      historyLimit: 50000,
      guard: {holding: true, factor: 3, cutFactor: 3, ceilings: {}},
      alerts: {hours: 6, emailsPerDay: 10},
    });
    expect(JSON.stringify(view)).not.toContain(SETTINGS.apiKey);
    expect(platform.userProperties.get('offerDesk.apiKey')).toBe(
      SETTINGS.apiKey,
    );
  });

  it('keeps the stored api key when the sidebar omits it', () => {
    const platform = fakePlatform(subAccountServer());
    saveSettings(platform, SETTINGS);
    saveSettings(platform, {
      baseUrl: 'https://api2.example.test',
      uploadBaseUrl: 'https://up.example.test',
      accessKey: 'ak-main-0001',
    });
    expect(platform.userProperties.get('offerDesk.apiKey')).toBe(
      SETTINGS.apiKey,
    );
    expect(getSettings(platform).uploadBaseUrl).toBe('https://up.example.test');
  });

  it('refuses bad settings field by field and stores nothing', () => {
    const platform = fakePlatform(subAccountServer());
    expect(() =>
      saveSettings(platform, {
        baseUrl: 'http://api.example.test',
        accessKey: ' ',
        uploadBaseUrl: 'ftp://x',
      }),
    ).toThrow(
      'Settings not saved: baseUrl must start with https:// (plain http is refused: keys would travel unencrypted); uploadBaseUrl must start with https:// (plain http is refused: keys would travel unencrypted); accessKey is required; apiKey is required.',
    );
    expect(platform.userProperties.keys()).toEqual([]);
  });

  it('accepts plain http only on loopback, for local development', () => {
    const platform = fakePlatform(subAccountServer());
    expect(
      saveSettings(platform, {...SETTINGS, baseUrl: 'http://127.0.0.1:8123'})
        .baseUrl,
    ).toBe('http://127.0.0.1:8123');
  });

  it('acts as a sub-account signed with the keys the main account looked up, kept per user', () => {
    const transport = subAccountServer();
    const platform = fakePlatform(transport);
    saveSettings(platform, SETTINGS);
    expect(setActingAccount(platform, 'team_a').actingAccount).toBe('team_a');
    const lookup = transport.requests[0];
    expect(lookup.headers['access-key']).toBe('ak-main-0001');
    const {client, account} = connect(platform);
    expect(account).toBe('team_a');
    client.call({
      name: 'GET offers',
      method: 'get',
      path: '/api/open/v3/offers',
      kind: 'read',
      messageField: 'msg',
    });
    expect(transport.requests.map(r => r.headers['access-key'])).toEqual([
      'ak-main-0001',
      'ak-team-a',
    ]);
  });

  it('refuses an unknown sub-account name and stays on the current account', () => {
    const workbook = new MemoryWorkbook();
    const platform = fakePlatform(subAccountServer(), {
      workbook: () => workbook,
    });
    saveSettings(platform, SETTINGS);
    expect(() => setActingAccount(platform, 'nobody')).toThrow(
      'The main account has no sub-account named "nobody".',
    );
    expect(getSettings(platform).actingAccount).toBe('');
  });

  it('drops kept sub-account keys the API refuses and looks them up again', () => {
    const transport = subAccountServer();
    const platform = fakePlatform(transport);
    saveSettings(platform, SETTINGS);
    setActingAccount(platform, 'team_a');
    platform.userProperties.set(
      'offerDesk.subAccount.team_a',
      JSON.stringify({accessKey: 'ak-stale', apiKey: 'fake-stale-key'}),
    );
    const {client} = connect(platform);
    client.call({
      name: 'GET offers',
      method: 'get',
      path: '/api/open/v3/offers',
      kind: 'read',
      messageField: 'msg',
    });
    expect(
      transport.requests.slice(1).map(r => r.headers['access-key']),
    ).toEqual(['ak-stale', 'ak-main-0001', 'ak-team-a']);
    expect(
      JSON.parse(platform.userProperties.get('offerDesk.subAccount.team_a')!)
        .accessKey,
    ).toBe('ak-team-a');
  });

  it('acts as every account without a request, and signs nothing as "*"', () => {
    const transport = subAccountServer();
    const platform = fakePlatform(transport);
    saveSettings(platform, SETTINGS);
    expect(setActingAccount(platform, ' * ').actingAccount).toBe('*');
    expect(getSettings(platform).actingAccount).toBe('*');
    expect(transport.requests).toEqual([]);
    const connected = connect(platform);
    expect(connected.account).toBe('*');
    expect(connected.client).toBe(connected.mainClient);
    expect(() => connected.clientFor('*')).toThrow(
      /every account signs nothing/,
    );
    expect(setActingAccount(platform, '').actingAccount).toBe('');
  });

  it('refuses every account before the connection is saved', () => {
    const platform = fakePlatform(subAccountServer());
    expect(() => setActingAccount(platform, '*')).toThrow(/not connected yet/);
    expect(getSettings(platform).actingAccount).toBe('');
  });

  it('gives one client per account, each signing with its own keys looked up once', () => {
    const transport = subAccountServer();
    const platform = fakePlatform(transport);
    saveSettings(platform, SETTINGS);
    setActingAccount(platform, '*');
    const {clientFor, mainClient} = connect(platform);
    expect(clientFor('')).toBe(mainClient);
    expect(clientFor('team_a')).toBe(clientFor('team_a'));
    clientFor('team_a').call(OPERATIONS.listOffers);
    clientFor('team_a').call(OPERATIONS.listOffers);
    expect(transport.requests.map(r => r.headers['access-key'])).toEqual([
      'ak-main-0001',
      'ak-team-a',
      'ak-team-a',
    ]);
    expect(queryOf(transport.requests[0])).toEqual({
      sub_adv_user_name: 'team_a',
    });
  });

  it('forgets sub-account keys when the main account changes', () => {
    const platform = fakePlatform(subAccountServer());
    saveSettings(platform, SETTINGS);
    setActingAccount(platform, 'team_a');
    saveSettings(platform, {...SETTINGS, accessKey: 'ak-other'});
    expect(
      platform.userProperties.get('offerDesk.subAccount.team_a'),
    ).toBeNull();
  });

  it('tells the user how to connect when nothing is saved', () => {
    expect(() => connect(fakePlatform(subAccountServer()))).toThrow(
      /not connected yet/,
    );
  });

  it('saves the budget guard and alert settings, and refuses what it cannot read', () => {
    const platform = fakePlatform(subAccountServer());
    const view = saveSettings(platform, {
      ...SETTINGS,
      guard: {
        holding: false,
        factor: '4',
        cutFactor: '5',
        ceilings: 'USD 1000, EUR 800',
      },
      alerts: {hours: '12', emailsPerDay: 0},
    });
    expect(view.guard).toEqual({
      holding: false,
      factor: 4,
      cutFactor: 5,
      ceilings: {USD: 1000, EUR: 800},
    });
    expect(view.alerts).toEqual({hours: 12, emailsPerDay: 0});
    expect(() =>
      saveSettings(platform, {
        ...SETTINGS,
        guard: {factor: 'big'},
        alerts: {hours: 0},
      }),
    ).toThrow(
      'Settings not saved: guard factor must be a number from 1.1 to 1000 (hold a raise to more than this many times the value on the server), not "big"; alert hours must be a whole number from 1 to 168 (hours after which a click URL not passed or an offer still PENDING is an alert), not "0".',
    );
    expect(getSettings(platform).guard.factor).toBe(4);
  });
});
