import {computeToken, DEMO_ACCOUNTS, signHeaders} from '../../local/emulator';
import {api, call, setup, SUB_A, T0_MS} from './helpers';

const NOW = T0_MS / 1000;
const {main} = DEMO_ACCOUNTS;

describe('authentication', () => {
  const {emulator} = setup();
  const withHeaders = (headers: Record<string, string>) =>
    call(emulator, 'GET', api('campaign'), {as: null, headers});

  it('matches the official token test vector (lowercase hex)', () => {
    expect(computeToken('ce4f7c2b8edb173e2533d7a169080504', '1471256697')).toBe(
      '378d387c2b61462cf4bc62b3949111f3',
    );
  });

  it('refuses missing headers with 10001, naming each', () => {
    const reply = withHeaders({'access-key': main.accessKey});
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      code: 10001,
      msg: 'missing authentication header: token, timestamp',
      data: {
        token: 'The token header is required.',
        timestamp: 'The timestamp header is required.',
      },
    });
    expect(withHeaders({}).json.code).toBe(10001);
  });

  it('refuses a timestamp that is not whole seconds with 10002', () => {
    const headers = signHeaders(main.accessKey, main.apiKey, NOW);
    const reply = withHeaders({...headers, timestamp: '1767225600.5'});
    expect(reply.json.code).toBe(10002);
    expect(reply.json.msg).toBe('invalid timestamp');
  });

  it('reads header names in any case', () => {
    const headers = signHeaders(main.accessKey, main.apiKey, NOW);
    const shouted = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name.toUpperCase(),
        value,
      ]),
    );
    expect(withHeaders(shouted).json.code).toBe(200);
  });

  it('refuses an unknown access key with 10004', () => {
    const reply = withHeaders(signHeaders('no-such-key', main.apiKey, NOW));
    expect(reply.json).toMatchObject({code: 10004, msg: 'invalid access-key'});
  });

  it('refuses a wrong or uppercase token with 10005', () => {
    const good = signHeaders(main.accessKey, main.apiKey, NOW);
    expect(withHeaders(good).json.code).toBe(200);
    const wrong = signHeaders(main.accessKey, 'another-api-key', NOW);
    expect(withHeaders(wrong).json).toMatchObject({
      code: 10005,
      msg: 'invalid token',
    });
    const upper = {...good, token: good.token.toUpperCase()};
    expect(withHeaders(upper).json.code).toBe(10005);
  });

  it('accepts 599 s of skew either way and refuses 600 s with 10003', () => {
    for (const skew of [-599, 599]) {
      const headers = signHeaders(main.accessKey, main.apiKey, NOW + skew);
      expect(withHeaders(headers).json.code).toBe(200);
    }
    for (const skew of [-600, 600]) {
      const reply = withHeaders(
        signHeaders(main.accessKey, main.apiKey, NOW + skew),
      );
      expect(reply.json.code).toBe(10003);
      expect(reply.json.msg).toBe('timestamp expired');
      expect(reply.json.data.timestamp).toContain('less than 600 seconds');
    }
  });

  it('measures skew against the skewed emulator clock', () => {
    const {emulator: skewed} = setup({faults: {clockSkewSeconds: 700}});
    const headers = signHeaders(main.accessKey, main.apiKey, NOW);
    const reply = call(skewed, 'GET', api('campaign'), {as: null, headers});
    expect(reply.json.code).toBe(10003);
  });

  it('lets a sub-account sign with its own keys', () => {
    const reply = call(emulator, 'GET', api('campaign'), {as: SUB_A});
    expect(reply.json.code).toBe(200);
    expect(reply.json.data.total).toBe(6);
  });

  it('answers unknown paths 404 and wrong methods 405 before authentication', () => {
    const missing = call(emulator, 'GET', api('nothing'), {as: null});
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe(404);
    const wrong = call(emulator, 'DELETE', api('offers'), {as: null});
    expect(wrong.status).toBe(405);
    expect(wrong.json.data).toEqual({allowed: 'GET'});
  });
});
