import {testConnection} from '../../../src/jobs/host/connection-test';
import {saveSettings, setActingAccount} from '../../../src/jobs/host/settings';
import {
  Answer,
  ScriptedTransport,
  fail,
  fakePlatform,
  http,
  ok,
  queryOf,
} from '../../support/fakes';

const SETTINGS = {
  baseUrl: 'https://api.example.test',
  accessKey: 'ak-main-0001',
  apiKey: 'fake-main-api-key-000000000000',
};

function connected(answer: (n: number) => Answer) {
  const transport = new ScriptedTransport((_r, n) => answer(n));
  const platform = fakePlatform(transport);
  saveSettings(platform, SETTINGS);
  return {platform, transport};
}

describe('testConnection', () => {
  it('makes one signed call for one campaign and says all three work', () => {
    const {platform, transport} = connected(() =>
      ok({page: 1, limit: 1, total: 30, list: [{campaign_id: 1}]}),
    );
    expect(testConnection(platform)).toEqual({
      ok: true,
      problem: null,
      account: 'main account',
      message:
        'Connected as the main account: URL, keys and clock all work (30 campaigns visible).',
    });
    expect(transport.requests).toHaveLength(1);
    const [request] = transport.requests;
    expect(request.url.split('?')[0]).toBe(
      'https://api.example.test/api/open/v3/campaign',
    );
    expect(queryOf(request)).toEqual({page: '1', limit: '1'});
    expect(request.headers['access-key']).toBe('ak-main-0001');
  });

  it("acting as every account, tests the main account's keys and says so", () => {
    const {platform, transport} = connected(() =>
      ok({page: 1, limit: 1, total: 30, list: [{campaign_id: 1}]}),
    );
    setActingAccount(platform, '*');
    expect(testConnection(platform)).toEqual({
      ok: true,
      problem: null,
      account: 'every account',
      message:
        'Connected as the main account, which acts for every account: URL, keys and clock all work (30 campaigns visible).',
    });
    expect(transport.requests.map(r => r.headers['access-key'])).toEqual([
      'ak-main-0001',
    ]);
  });

  it('says when the keys are refused', () => {
    const {platform} = connected(() => fail(10005, 'invalid token'));
    expect(testConnection(platform)).toEqual({
      ok: false,
      problem: 'keys',
      account: 'main account',
      message:
        'The API refused the keys (GET campaign: code 10005 invalid token): check the access key and the api key.',
    });
  });

  it('recognises a refused timestamp as a clock problem', () => {
    const {platform} = connected(() => fail(10003, 'timestamp expired'));
    expect(testConnection(platform)).toMatchObject({
      ok: false,
      problem: 'clock',
      message:
        "The API refused the request's timestamp (GET campaign: code 10003 timestamp expired): its clock and Google's differ by 600 s or more.",
    });
  });

  it("measures the skew from the server's Date header when it sends one", () => {
    const {platform} = connected(() => ({
      ...fail(401, 'unauthorized', {}, 401),
      headers: {
        date: new Date(Date.UTC(2026, 10, 21, 9, 15, 0)).toUTCString(),
      },
    }));
    expect(testConnection(platform)).toMatchObject({
      problem: 'clock',
      message:
        "The API refused the request's timestamp: the API's clock is 900 s ahead of Google's, and they may differ by less than 600 s. The API's server clock needs setting (GET campaign: code 401 (HTTP 401) unauthorized).",
    });
  });

  it('warns of a skew that is large but still accepted', () => {
    const {platform} = connected(() => ({
      ...ok({page: 1, limit: 1, total: 0, list: []}),
      headers: {date: new Date(Date.UTC(2026, 10, 21, 8, 55, 0)).toUTCString()},
    }));
    expect(testConnection(platform).message).toBe(
      "Connected as the main account: URL, keys and clock all work (0 campaigns visible). Careful: the API's clock is 300 s behind Google's; at 600 s requests are refused.",
    );
  });

  it('tells a wrong base URL by an answer that is not the API', () => {
    const {platform} = connected(() => ({
      status: 404,
      headers: {},
      text: '<html>Not Found</html>',
    }));
    expect(testConnection(platform)).toMatchObject({
      problem: 'url',
      message:
        "The base URL does not answer like the Advertising Open API (GET campaign: HTTP 404 unexpected answer, an HTML page: Not Found). It should be the API's host, without /api/open/v3.",
    });
  });

  it('tells an unreachable host, after the read was retried within seconds', () => {
    const {platform, transport} = connected(() => 'network-error');
    const check = testConnection(platform);
    expect(check).toMatchObject({ok: false, problem: 'network'});
    expect(check.message).toMatch(
      /^Could not reach the API: GET campaign: network error: .*\. Check the base URL \(host and port\) and that the server is up\.$/,
    );
    expect(platform.clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(8000);
    expect(transport.requests.length).toBeGreaterThan(1);
  });

  it('says what to do when nothing is saved yet, sending nothing', () => {
    const transport = new ScriptedTransport(() => ok({}));
    expect(testConnection(fakePlatform(transport))).toMatchObject({
      ok: false,
      problem: 'settings',
      message: expect.stringMatching(/^Offer Desk is not connected yet/),
    });
    expect(transport.requests).toEqual([]);
  });

  it('tells a server that is down, and reports any other refusal as the API gave it', () => {
    const {platform} = connected(() => http(503));
    expect(testConnection(platform)).toMatchObject({
      problem: 'server',
      message:
        "The API's server is unavailable (GET campaign: HTTP 503 unexpected answer, an HTML page: busy): try again later.",
    });
    const other = connected(() => fail(10006, 'Permission denied'));
    expect(testConnection(other.platform)).toMatchObject({
      problem: 'api',
      message:
        'The API answered with an error: GET campaign: code 10006 Permission denied',
    });
  });
});
