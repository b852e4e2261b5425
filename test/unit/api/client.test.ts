import {ApiClient, CredentialSource} from '../../../src/api/client';
import {
  ApiError,
  ConfigError,
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

  it('fails a request whose URL passes 2,048 characters alone, sending the others', () => {
    const {client, transport} = clientFor(() => ok({list: []}));
    const name = 'n'.repeat(2048);
    const [long, short] = client.callAll(OPERATIONS.getSubAccount, [
      {query: {sub_adv_user_name: name}},
      {query: {sub_adv_user_name: 'adv_b'}},
    ]);
    expect(long).toEqual({
      ok: false,
      error: expect.objectContaining({
        name: 'ConfigError',
        message:
          "GET sub_adv_account: the request's URL would be 2,119 characters, over the 2,048 Apps Script allows, so it was not sent. Shorten the base URL or the values asked for.",
      }),
    });
    expect(short.ok).toBe(true);
    expect(transport.requests.map(r => r.url)).toEqual([
      'https://api.example.test/api/open/v3/sub_adv_account?sub_adv_user_name=adv_b',
    ]);
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

  it('never replays a replacement PUT whose answer was lost, a 5xx or a 200 that is no envelope: the outcome is unknown', () => {
    const answers: Answer[] = [
      'network-error',
      http(502),
      {status: 200, headers: {}, text: '<html>cut</html>'},
      // The service's own envelope under a 5xx: a gateway may still have passed it on.
      fail(10000, 'upstream', {}, 502),
      // Reads like "busy", but a timed-out service may have applied it.
      fail(10500, 'request timed out, please try again later'),
    ];
    for (const answer of answers) {
      const {client, transport} = clientFor(() => answer);
      const [outcome] = client.callAll(OPERATIONS.updateBudget, [
        {json: {offer_id: 1}},
      ]);
      expect(!outcome.ok && outcome.error).toBeInstanceOf(OutcomeUnknownError);
      expect(transport.requests).toHaveLength(1);
    }
  });

  it('re-sends a replacement PUT refused with 429 or "busy" under HTTP 200, re-signing each attempt', () => {
    const answers: Answer[] = [
      http(429),
      fail(10500, 'system busy, please try again later', {}),
      ok({}),
    ];
    const {client, transport, clock} = clientFor((_, n) => {
      clock.ms += 30000; // a slow network: the next attempt must not reuse the old timestamp
      return answers[n];
    });
    const start = clock.ms;
    client.call(OPERATIONS.updateBudget, {json: {offer_id: 1}});
    expect(transport.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([750, 1500]);
    expect(
      transport.requests.map(r => Number(r.headers.timestamp) * 1000 - start),
    ).toEqual([0, 30000, 62000]);
  });

  it('never re-sends a create refused as busy: it is not known to be unapplied', () => {
    const {client, transport} = clientFor(() =>
      fail(10500, 'system busy, please try again later', {}),
    );
    expect(() => client.call(OPERATIONS.createOffer, {json: {}})).toThrow(
      'POST offer: code 10500 system busy, please try again later',
    );
    expect(transport.requests).toHaveLength(1);
  });

  it('retries only the failed items of a batch', () => {
    const seen: number[] = [];
    const {client} = clientFor(r => {
      const id = JSON.parse(r.json!).offer_id as number;
      seen.push(id);
      return id % 2 === 0 && seen.filter(x => x === id).length === 1
        ? http(429)
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

  it.each([
    [
      'HTTP 200 with a page, not an envelope',
      {status: 200, headers: {}, text: '<html>proxy</html>'},
    ],
    ['HTTP 200 with an empty body', {status: 200, headers: {}, text: ''}],
    ['a 502 with a failure envelope', fail(10000, 'upstream', {}, 502)],
    [
      'code 10500 under HTTP 200',
      fail(10500, 'system busy, please try again later'),
    ],
    ['another code whose msg says busy', fail(10999, 'Server busy')],
  ] as const)(
    'a create answered with %s has an unknown outcome, and is not re-sent',
    (_, answer) => {
      const {client, transport} = clientFor(() => answer);
      const [outcome] = client.callAll(OPERATIONS.createOffer, [{json: {}}]);
      expect(!outcome.ok && outcome.error).toBeInstanceOf(OutcomeUnknownError);
      expect(transport.requests).toHaveLength(1);
    },
  );

  it.each([
    ['a failure envelope under HTTP 200', fail(10000, 'offer_name is exist')],
    ['a failure envelope under HTTP 400', fail(10000, 'bad request', {}, 400)],
  ] as const)(
    'a create answered with %s failed: the API refused it',
    (_, answer) => {
      const {client} = clientFor(() => answer);
      const [outcome] = client.callAll(OPERATIONS.createOffer, [{json: {}}]);
      expect(!outcome.ok && outcome.error).toBeInstanceOf(ApiError);
    },
  );

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

describe('ApiClient.callMixed: operations and accounts in one batch', () => {
  const SUB_KEYS = {
    accessKey: 'ak-sub-0002',
    apiKey: 'fake-sub-key-abcdef0123456789',
  };

  /** The acting sub-account and the main account, over one transport. */
  function twoClients(
    respond: (r: HttpRequest, n: number) => Answer,
    sub: CredentialSource = {current: () => SUB_KEYS, refresh: () => false},
  ) {
    const {client: main, clock, transport} = clientFor(respond);
    const acting = new ApiClient(
      {
        baseUrl: 'https://api.example.test/',
        uploadBaseUrl: 'https://upload.example.test',
      },
      sub,
      {http: transport, digest: nodeDigest, clock, random: () => 0.5},
    );
    return {main, acting, clock, transport};
  }

  it('signs each request with its own client in one fetchAll and answers in order', () => {
    const {main, acting, transport} = twoClients(r =>
      ok(new URL(r.url).pathname.split('/').pop()),
    );
    const outcomes = main.callMixed([
      {client: acting, op: OPERATIONS.listOffers, payload: {query: {page: 1}}},
      {client: main, op: OPERATIONS.getSubAccount, payload: {}},
      {client: acting, op: OPERATIONS.updateBudget, payload: {json: {}}},
    ]);
    expect(outcomes).toEqual([
      {ok: true, data: 'offers'},
      {ok: true, data: 'sub_adv_account'},
      {ok: true, data: 'budget'},
    ]);
    expect(
      transport.batches.map(b =>
        b.map(r => [r.method, r.headers['access-key']]),
      ),
    ).toEqual([
      [
        ['get', 'ak-sub-0002'],
        ['get', 'ak-main-0001'],
        ['put', 'ak-sub-0002'],
      ],
    ]);
  });

  it('retries each request by its own operation: a read after a 5xx, never a create', () => {
    const answers: Answer[] = [http(502), http(502), ok('read')];
    const {main, acting, transport} = twoClients((_, n) => answers[n]);
    const [read, create] = main.callMixed([
      {client: acting, op: OPERATIONS.listOffers, payload: {}},
      {client: acting, op: OPERATIONS.createOffer, payload: {json: {}}},
    ]);
    expect(read).toEqual({ok: true, data: 'read'});
    expect(!create.ok && create.error).toBeInstanceOf(OutcomeUnknownError);
    expect(transport.batches.map(b => b.map(r => r.method))).toEqual([
      ['get', 'post'],
      ['get'],
    ]);
  });

  it('after a lost connection sends the read again and leaves the create unknown', () => {
    const {main, acting, transport} = twoClients((_, n) =>
      n < 2 ? 'network-error' : ok('again'),
    );
    const [read, create] = main.callMixed([
      {client: main, op: OPERATIONS.listCampaigns, payload: {}},
      {client: acting, op: OPERATIONS.uploadMaterial, payload: {}},
    ]);
    expect(read).toEqual({ok: true, data: 'again'});
    expect(!create.ok && create.error).toBeInstanceOf(OutcomeUnknownError);
    expect(transport.batches.map(b => b.length)).toEqual([2, 1]);
  });

  it("refreshes only the refused account's keys, once, and re-sends only its requests", () => {
    let generation = 0;
    const sub: CredentialSource = {
      current: () => ({...SUB_KEYS, accessKey: `ak-sub-${generation}`}),
      refresh: () => {
        generation++;
        return true;
      },
    };
    const {main, acting, transport} = twoClients(
      r =>
        r.headers['access-key'] === 'ak-sub-0'
          ? fail(10003, 'invalid token')
          : ok(r.headers['access-key']),
      sub,
    );
    const outcomes = main.callMixed([
      {client: acting, op: OPERATIONS.listOffers, payload: {}},
      {client: main, op: OPERATIONS.getSubAccount, payload: {}},
      {client: acting, op: OPERATIONS.listCampaigns, payload: {}},
    ]);
    expect(outcomes.map(o => o.ok && o.data)).toEqual([
      'ak-sub-1',
      'ak-main-0001',
      'ak-sub-1',
    ]);
    expect(
      transport.batches.map(b => b.map(r => r.headers['access-key'])),
    ).toEqual([
      ['ak-sub-0', 'ak-main-0001', 'ak-sub-0'],
      ['ak-sub-1', 'ak-sub-1'],
    ]);
    expect(generation).toBe(1);
  });

  it('fails alone, unsent, the requests of an account whose keys cannot be had', () => {
    const gone: CredentialSource = {
      current: () => {
        throw new ConfigError(
          'The main account has no sub-account named "team_gone": choose another account in the sidebar.',
        );
      },
      refresh: () => false,
    };
    const {main, acting, transport} = twoClients(
      r => ok(r.headers['access-key']),
      gone,
    );
    const outcomes = main.callMixed([
      {client: acting, op: OPERATIONS.updateBudget, payload: {json: {}}},
      {client: main, op: OPERATIONS.updateBudget, payload: {json: {}}},
    ]);
    expect(outcomes[0]).toEqual({
      ok: false,
      error: new ConfigError(
        'The main account has no sub-account named "team_gone": choose another account in the sidebar.',
      ),
    });
    expect(outcomes[1]).toEqual({ok: true, data: 'ak-main-0001'});
    expect(
      transport.batches.map(b => b.map(r => r.headers['access-key'])),
    ).toEqual([['ak-main-0001']]);
    expect(
      main.callMixed([
        {client: acting, op: OPERATIONS.listOffers, payload: {}},
      ])[0].ok,
    ).toBe(false);
    expect(transport.batches).toHaveLength(1);
  });

  it("keeps every client's keys out of a network error", () => {
    const {main, acting, transport} = twoClients(() => 'network-error');
    transport.sendAll = requests => {
      throw new Error(
        `Exception: ${requests.map(r => `${r.headers['access-key']} ${r.headers.token}`).join(' ')} ${KEYS.apiKey} ${SUB_KEYS.apiKey}`,
      );
    };
    const [outcome] = main.callMixed([
      {client: main, op: OPERATIONS.createOffer, payload: {}},
      {client: acting, op: OPERATIONS.createOffer, payload: {}},
    ]);
    const message = !outcome.ok ? outcome.error.message : '';
    expect(message).toContain('POST offer');
    for (const secret of [
      KEYS.apiKey,
      KEYS.accessKey,
      SUB_KEYS.apiKey,
      SUB_KEYS.accessKey,
    ]) {
      expect(message).not.toContain(secret);
    }
    expect(message).not.toMatch(/[0-9a-f]{32}/);
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
