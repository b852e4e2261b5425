import {ApiClient, CredentialSource} from '../../../src/api/client';
import {
  ApiError,
  NetworkError,
  OutcomeUnknownError,
} from '../../../src/api/errors';
import {OPERATIONS} from '../../../src/api/operations';
import {
  Answer,
  FakeClock,
  ScriptedTransport,
  fail,
  http,
  nodeDigest,
  ok,
} from '../../support/fakes';
import type {HttpRequest} from '../../../src/platform/ports';

const KEYS = {
  accessKey: 'ak-main-0001',
  apiKey: 'fake-api-key-1234567890abcdef',
};

function fixed(): CredentialSource {
  return {current: () => KEYS, refresh: () => false};
}

function clientFor(
  respond: (r: HttpRequest, n: number) => Answer,
  options: {
    deadlineMs?: number;
    batchSize?: number;
    credentials?: CredentialSource;
  } = {},
) {
  const clock = new FakeClock();
  const transport = new ScriptedTransport(respond);
  const client = new ApiClient(
    {
      baseUrl: 'https://api.example.test/',
      uploadBaseUrl: 'https://upload.example.test',
    },
    options.credentials ?? fixed(),
    {
      http: transport,
      digest: nodeDigest,
      clock,
      random: () => 0.5,
      batchSize: options.batchSize,
      deadlineMs: options.deadlineMs,
    },
  );
  return {client, clock, transport};
}

describe('ApiClient requests', () => {
  it('sends JSON bodies to the base URL and files to the upload host, each signed afresh', () => {
    const {client, transport, clock} = clientFor(() => ok({}));
    client.call(OPERATIONS.updateBudget, {json: {offer_id: 7, budget: []}});
    clock.ms += 5000;
    const file = {
      getName: () => 'a.png',
      getContentType: () => 'image/png',
      getBytes: () => [1],
    };
    client.call(OPERATIONS.uploadMaterial, {file});
    const [put, upload] = transport.requests;
    expect(put.method).toBe('put');
    expect(put.url).toBe('https://api.example.test/api/open/v3/offer/budget');
    expect(put.json).toBe('{"offer_id":7,"budget":[]}');
    expect(upload.url).toBe(
      'https://upload.example.test/api/open/v3/creatives/upload',
    );
    expect(upload.file).toBe(file);
    expect(
      Number(upload.headers.timestamp) - Number(put.headers.timestamp),
    ).toBe(5);
    expect(upload.headers.token).not.toBe(put.headers.token);
    expect(put.headers['access-key']).toBe('ak-main-0001');
  });

  it('puts GET parameters in the query string', () => {
    const {client, transport} = clientFor(() => ok({list: []}));
    client.call(OPERATIONS.getSubAccount, {
      query: {sub_adv_user_name: 'team a'},
    });
    expect(transport.requests[0].url).toBe(
      'https://api.example.test/api/open/v3/sub_adv_account?sub_adv_user_name=team%20a',
    );
    expect(transport.requests[0].json).toBeUndefined();
  });

  it('sends a batch in fetchAll chunks and answers in order', () => {
    const {client, transport} = clientFor(
      r => ok(JSON.parse(r.json!).offer_id),
      {batchSize: 2},
    );
    const outcomes = client.callAll<number>(
      OPERATIONS.setTracking,
      [1, 2, 3].map(offer_id => ({json: {offer_id}})),
    );
    expect(outcomes).toEqual([1, 2, 3].map(data => ({ok: true, data})));
    expect(transport.batches.map(b => b.length)).toEqual([2, 1]);
  });
});

describe('ApiClient retries', () => {
  it('retries reads on 5xx and 429, honouring Retry-After, then succeeds', () => {
    const answers: Answer[] = [
      http(503),
      fail(429, 'slow down', {}, 429, {'retry-after': '7'}),
      ok({list: []}),
    ];
    const {client, clock, transport} = clientFor((_, n) => answers[n]);
    expect(client.call(OPERATIONS.listOffers, {query: {page: 1}})).toEqual({
      list: [],
    });
    expect(transport.requests).toHaveLength(3);
    // attempt 1: ceiling 1000 ms, jitter 0.5 -> 750 ms; attempt 2: Retry-After 7 s wins.
    expect(clock.sleeps).toEqual([750, 7000]);
  });

  it('retries replacement PUTs on network errors, re-signing each attempt', () => {
    let calls = 0;
    const {client, transport, clock} = clientFor(() => {
      clock.ms += 30000; // a slow network: the second attempt must not reuse the old timestamp
      return ++calls === 1 ? 'network-error' : ok({});
    });
    const start = clock.ms;
    client.call(OPERATIONS.updateBudget, {json: {offer_id: 1}});
    expect(transport.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([750]);
    expect(
      transport.requests.map(r => Number(r.headers.timestamp) * 1000 - start),
    ).toEqual([0, 30000]);
  });

  it('retries only the failed items of a batch', () => {
    const seen: number[] = [];
    const {client} = clientFor(r => {
      const id = JSON.parse(r.json!).offer_id as number;
      seen.push(id);
      return id % 2 === 0 && seen.filter(x => x === id).length === 1
        ? http(500)
        : ok(id);
    });
    const outcomes = client.callAll(
      OPERATIONS.updateBudget,
      [1, 2, 3, 4].map(offer_id => ({json: {offer_id}})),
    );
    expect(outcomes.every(o => o.ok)).toBe(true);
    expect(seen).toEqual([1, 2, 3, 4, 2, 4]);
  });

  it('gives up after the policy allows and reports the last answer', () => {
    const {client, transport} = clientFor(() => http(502));
    expect(() => client.call(OPERATIONS.listCampaigns)).toThrow(
      'GET campaign: HTTP 502',
    );
    expect(transport.requests).toHaveLength(4);
  });

  it('never re-sends a create after a 5xx or a network error: the outcome is unknown', () => {
    const {client, transport} = clientFor(() => http(500));
    const [outcome] = client.callAll(OPERATIONS.createOffer, [
      {json: {offer_name: 'x'}},
    ]);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toBeInstanceOf(OutcomeUnknownError);
    expect(transport.requests).toHaveLength(1);

    const dropped = clientFor(() => 'network-error');
    const [lost] = dropped.client.callAll(OPERATIONS.uploadMaterial, [
      {file: undefined},
    ]);
    expect(!lost.ok && lost.error).toBeInstanceOf(OutcomeUnknownError);
    expect(dropped.transport.requests).toHaveLength(1);
  });

  it('re-sends a create refused with 429 (refused before it was applied)', () => {
    const answers: Answer[] = [http(429), ok({offer_id: 9})];
    const {client} = clientFor((_, n) => answers[n]);
    expect(client.call(OPERATIONS.createOffer, {json: {}})).toEqual({
      offer_id: 9,
    });
  });

  it('does not retry API refusals (non-200 code)', () => {
    const {client, transport} = clientFor(() =>
      fail(11423, 'budget is error!', {daily_cap: 'daily_cap is empty!'}),
    );
    expect(() => client.call(OPERATIONS.updateBudget, {json: {}})).toThrow(
      ApiError,
    );
    expect(transport.requests).toHaveLength(1);
  });

  it('does not wait past the job deadline', () => {
    const clock0 = new FakeClock().ms;
    const {client, transport, clock} = clientFor(() => http(503), {
      deadlineMs: clock0 + 500,
    });
    expect(() => client.call(OPERATIONS.listOffers)).toThrow('HTTP 503');
    expect(transport.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('reports a network failure of a read after retries as a NetworkError', () => {
    const {client} = clientFor(() => 'network-error');
    expect(() => client.call(OPERATIONS.listOffers)).toThrow(NetworkError);
  });
});

describe('ApiClient credentials', () => {
  it('looks the keys up again once when the API refuses them', () => {
    let generation = 0;
    const credentials: CredentialSource = {
      current: () => ({
        accessKey: `ak-${generation}`,
        apiKey: 'fake-api-key-1234567890',
      }),
      refresh: () => {
        generation++;
        return generation < 2;
      },
    };
    const {client, transport} = clientFor(
      r =>
        r.headers['access-key'] === 'ak-1'
          ? ok('fine')
          : fail(10003, 'invalid token'),
      {credentials},
    );
    expect(client.call(OPERATIONS.listOffers)).toBe('fine');
    expect(transport.requests.map(r => r.headers['access-key'])).toEqual([
      'ak-0',
      'ak-1',
    ]);
  });

  it('lets the refusal stand when no fresher keys exist', () => {
    const {client, transport} = clientFor(() => fail(10003, 'invalid token'));
    expect(() => client.call(OPERATIONS.listOffers)).toThrow(
      'GET offers: code 10003 invalid token',
    );
    expect(transport.requests).toHaveLength(1);
  });
});

describe('no secret in any error text', () => {
  it('keeps keys and tokens out of errors even when the platform quotes them', () => {
    const leaky = new ScriptedTransport(() => 'network-error');
    leaky.sendAll = requests => {
      const r = requests[0];
      throw new Error(
        `Exception: timeout ${r.url} token=${r.headers.token} ${KEYS.apiKey} ${KEYS.accessKey}`,
      );
    };
    const client = new ApiClient(
      {
        baseUrl: 'https://api.example.test',
        uploadBaseUrl: 'https://api.example.test',
      },
      fixed(),
      {
        http: leaky,
        digest: nodeDigest,
        clock: new FakeClock(),
        random: () => 0,
        retry: {maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1},
      },
    );
    let message = '';
    try {
      client.call(OPERATIONS.listOffers);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('GET offers: network error');
    expect(message).not.toContain(KEYS.apiKey);
    expect(message).not.toContain(KEYS.accessKey);
    expect(message).not.toMatch(/token=[0-9a-f]{32}/);
  });
});
