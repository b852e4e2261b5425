import type {Emulator} from '../../local/emulator';
import {BUSY_CODE, GARBLED_BODY} from '../../local/emulator/faults';
import {api, call, exchange, MAIN, setup, SUB_A, SUB_B, T0_MS} from './helpers';

function advOffers(emulator: Emulator, count: number) {
  return [...emulator.account(MAIN).offers.values()]
    .filter(o => o.maintain_by === 'ADV')
    .slice(0, count);
}

function putBudget(emulator: Emulator, offerId: number, dailyCap = 100) {
  return exchange(emulator, 'PUT', api('offer/budget'), {
    json: {
      offer_id: offerId,
      budget: [
        {
          country_code: 'ALL',
          daily_cap_type: 'BUDGET',
          daily_cap: dailyCap,
          total_budget: 'OPEN',
        },
      ],
    },
  });
}

const statusOf = (outcome: ReturnType<typeof exchange>) =>
  outcome.kind === 'response' ? outcome.status : 'dropped';

describe('fault injection', () => {
  it('reports added latency in the outcome (0 by default)', () => {
    const {emulator} = setup();
    expect(exchange(emulator, 'GET', api('campaign')).latencyMs).toBe(0);
    emulator.faults.configure({latencyMs: 250});
    expect(exchange(emulator, 'GET', api('campaign')).latencyMs).toBe(250);
  });

  it('answers 429 with Retry-After', () => {
    const {emulator} = setup();
    emulator.faults.add({kind: 'rateLimit', retryAfterSeconds: 7, count: 1});
    const limited = call(emulator, 'GET', api('offers'));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.text).toContain('Too Many Requests');
    expect(call(emulator, 'GET', api('offers')).status).toBe(200);
  });

  it("answers a 5xx with the rule's body: an HTML page, or nothing", () => {
    const {emulator} = setup();
    emulator.faults.add({kind: 'error', status: 504, body: '', count: 1});
    const empty = call(emulator, 'GET', api('offers'));
    expect([empty.status, empty.text]).toEqual([504, '']);
    emulator.faults.add({kind: 'error', status: 502, body: '<html>x</html>'});
    const page = call(emulator, 'GET', api('offers'));
    expect([page.status, page.text]).toEqual([502, '<html>x</html>']);
  });

  it('answers 429 without Retry-After when its seconds are null', () => {
    const {emulator} = setup();
    emulator.faults.add({kind: 'rateLimit', retryAfterSeconds: null});
    const limited = call(emulator, 'GET', api('offers'));
    expect(limited.status).toBe(429);
    expect(limited.headers).not.toHaveProperty('retry-after');
  });

  it('fails a share of requests with 5xx, the same ones for the same seed', () => {
    const pattern = () => {
      const {emulator} = setup({
        faults: {rules: [{kind: 'error', rate: 0.3, status: 502}]},
      });
      return Array.from(
        {length: 40},
        () => call(emulator, 'GET', api('campaign')).status,
      );
    };
    const first = pattern();
    expect(first).toEqual(pattern());
    expect(new Set(first)).toEqual(new Set([200, 502]));
  });

  it('fails the next N matching requests only', () => {
    const {emulator} = setup();
    emulator.faults.add({
      kind: 'error',
      method: 'GET',
      path: api('offers'),
      count: 2,
    });
    expect(call(emulator, 'GET', api('campaign')).status).toBe(200);
    expect(call(emulator, 'GET', api('offers')).status).toBe(503);
    expect(call(emulator, 'GET', api('offers')).status).toBe(503);
    expect(call(emulator, 'GET', api('offers')).status).toBe(200);
  });

  it('fails every other PUT once: half fail, and each retry passes', () => {
    const {emulator} = setup();
    emulator.faults.add({
      kind: 'error',
      method: 'PUT',
      path: '/api/open/v3/*',
      every: 2,
      once: true,
    });
    const offers = advOffers(emulator, 10);
    const first = offers.map(o =>
      statusOf(putBudget(emulator, o.offer_id, 77)),
    );
    expect(first).toEqual([503, 200, 503, 200, 503, 200, 503, 200, 503, 200]);
    const failed = offers.filter((_, i) => first[i] === 503);
    expect(
      emulator.offerView(failed[0].offer_id)!.budget[0].daily_cap,
    ).not.toBe('77');
    const retried = failed.map(o =>
      statusOf(putBudget(emulator, o.offer_id, 77)),
    );
    expect(retried).toEqual([200, 200, 200, 200, 200]);
    for (const offer of offers) {
      expect(emulator.offerView(offer.offer_id)!.budget[0].daily_cap).toBe(
        '77',
      );
    }
  });

  it('drops the connection after applying a write (outcome unknown)', () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    emulator.faults.add({kind: 'drop', count: 1});
    expect(putBudget(emulator, offer.offer_id, 88)).toEqual({
      kind: 'dropped',
      applied: true,
      latencyMs: 0,
    });
    expect(emulator.offerView(offer.offer_id)!.budget[0].daily_cap).toBe('88');
  });

  it('can drop before applying', () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    const before = emulator.offerView(offer.offer_id)!.budget;
    emulator.faults.add({kind: 'drop', applied: false, count: 1});
    expect(putBudget(emulator, offer.offer_id, 99)).toMatchObject({
      kind: 'dropped',
      applied: false,
    });
    expect(emulator.offerView(offer.offer_id)!.budget).toEqual(before);
  });

  it('answers 5xx after applying a write when asked (applied: true)', () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    emulator.faults.add({kind: 'error', status: 502, applied: true, count: 1});
    expect(statusOf(putBudget(emulator, offer.offer_id, 91))).toBe(502);
    expect(emulator.offerView(offer.offer_id)!.budget[0].daily_cap).toBe('91');
  });

  it('answers a garbled HTTP 200 after applying (default) or before', () => {
    const {emulator} = setup();
    const [a, b] = advOffers(emulator, 2);
    emulator.faults.add({kind: 'garbled', count: 1});
    const garbled = call(emulator, 'PUT', api('offer/budget'), {
      json: {
        offer_id: a.offer_id,
        budget: [
          {
            country_code: 'ALL',
            daily_cap_type: 'BUDGET',
            daily_cap: 92,
            total_budget: 'OPEN',
          },
        ],
      },
    });
    expect(garbled.status).toBe(200);
    expect(garbled.text).toBe(GARBLED_BODY);
    expect(() => JSON.parse(garbled.text)).toThrow();
    expect(emulator.offerView(a.offer_id)!.budget[0].daily_cap).toBe('92');
    const before = emulator.offerView(b.offer_id)!.budget;
    emulator.faults.add({
      kind: 'garbled',
      applied: false,
      body: '{"code":2',
      count: 1,
    });
    expect(statusOf(putBudget(emulator, b.offer_id, 93))).toBe(200);
    expect(emulator.offerView(b.offer_id)!.budget).toEqual(before);
    expect(emulator.requests.at(-1)).toMatchObject({
      status: 200,
      code: null,
      fault: 'garbled',
    });
  });

  it('refuses as busy under HTTP 200 without applying, then serves the retry', () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    const before = emulator.offerView(offer.offer_id)!.budget;
    emulator.faults.add({kind: 'busy', method: 'PUT', count: 1});
    const busy = call(emulator, 'PUT', api('offer/budget'), {
      json: {
        offer_id: offer.offer_id,
        budget: [
          {
            country_code: 'ALL',
            daily_cap_type: 'BUDGET',
            daily_cap: 94,
            total_budget: 'OPEN',
          },
        ],
      },
    });
    expect(busy.status).toBe(200);
    expect(JSON.parse(busy.text)).toEqual({
      code: BUSY_CODE,
      msg: 'system busy, please try again later',
      data: {},
    });
    expect(emulator.offerView(offer.offer_id)!.budget).toEqual(before);
    expect(emulator.requests.at(-1)).toMatchObject({
      code: BUSY_CODE,
      fault: 'busy',
    });
    expect(statusOf(putBudget(emulator, offer.offer_id, 94))).toBe(200);
    expect(emulator.offerView(offer.offer_id)!.budget[0].daily_cap).toBe('94');
  });

  it('answers a served write under another code, its data kept (recode)', () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    emulator.faults.add({kind: 'recode', code: 0, method: 'PUT', count: 1});
    const reply = putBudget(emulator, offer.offer_id, 96);
    if (reply.kind !== 'response') throw new Error('dropped');
    expect(JSON.parse(new TextDecoder().decode(reply.body))).toEqual({
      code: 0,
      msg: 'success',
      data: {},
    });
    expect(emulator.offerView(offer.offer_id)!.budget[0].daily_cap).toBe('96');
    expect(emulator.requests.at(-1)).toMatchObject({code: 0, fault: 'recode'});
    emulator.faults.add({kind: 'recode', code: '200', method: 'GET', count: 1});
    const text = call(emulator, 'GET', api('campaign')).json as {code: unknown};
    expect(text.code).toBe('200');
    expect(() => emulator.faults.add({kind: 'recode'})).toThrow(
      'a recode fault names the code it answers',
    );
  });

  it('takes named fields out of a served answer (strip): of data, of each record, or data itself', () => {
    const {emulator} = setup({offers: 3});
    emulator.faults.add({
      kind: 'strip',
      fields: ['budget', 'status'],
      method: 'GET',
    });
    const listed = call(emulator, 'GET', api('offers')).json as {
      data: {total: number; list: Array<Record<string, unknown>>};
    };
    expect(listed.data.total).toBe(3);
    for (const offer of listed.data.list) {
      expect(offer).not.toHaveProperty('budget');
      expect(offer).not.toHaveProperty('status');
      expect(offer).toHaveProperty('offer_id');
    }
    emulator.faults.configure({rules: [{kind: 'strip', fields: ['data']}]});
    expect(call(emulator, 'GET', api('campaign')).json).toEqual({
      code: 200,
      msg: 'success',
    });
    expect(() => emulator.faults.add({kind: 'strip', fields: []})).toThrow(
      'a strip fault names the fields it takes out',
    );
  });

  it('bends a list page: no total, half its records, its own page size, page 1 again, a record without id; other answers pass', () => {
    const {emulator} = setup({offers: 120});
    const page = (n: number) =>
      call(emulator, 'GET', api('offers'), {query: {page: n, limit: 50}})
        .json as {data: {page: number; limit: number; list: unknown[]}};
    emulator.faults.add({kind: 'page', path: '/api/open/v3/offers', count: 1});
    const untold = page(1).data;
    expect(untold).not.toHaveProperty('total');
    expect([untold.page, untold.limit, untold.list.length]).toEqual([
      1, 50, 50,
    ]);
    emulator.faults.configure({
      rules: [
        {kind: 'page', page: 'short', path: '/api/open/v3/offers', count: 1},
      ],
    });
    expect(page(2).data).toMatchObject({total: 120, limit: 50});
    expect(emulator.requests.at(-1)).toMatchObject({
      status: 200,
      fault: 'page',
    });
    emulator.faults.configure({rules: [{kind: 'page', page: 'short'}]});
    expect(page(2).data.list).toHaveLength(25);
    expect(statusOf(exchange(emulator, 'GET', api('campaign')))).toBe(200);
    emulator.faults.configure({rules: [{kind: 'page', page: 'noLimit'}]});
    const own = page(2).data;
    expect(own).not.toHaveProperty('limit');
    expect(own.list.map(o => (o as {offer_id: number}).offer_id)).toEqual(
      [...emulator.account(MAIN).offers.keys()].slice(20, 40),
    );
    emulator.faults.configure({rules: [{kind: 'page', page: 'zeroTotal'}]});
    expect(page(1).data).toMatchObject({total: 0});
    expect(page(1).data.list).toHaveLength(50);
    emulator.faults.configure({rules: [{kind: 'page', page: 'repeat'}]});
    expect(page(3).data.list).toEqual(page(1).data.list);
    emulator.faults.configure({rules: [{kind: 'page', page: 'noId'}]});
    const [first, second] = page(1).data.list as Array<Record<string, unknown>>;
    expect(first).not.toHaveProperty('offer_id');
    expect(first).toHaveProperty('campaign_id');
    expect(second).toHaveProperty('offer_id');
    expect(() =>
      emulator.faults.add({kind: 'page', page: 'odd' as 'short'}),
    ).toThrow('unknown page shape: odd');
  });

  it("answers slowly: the rule's latency on top of the configured one, request served", () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    emulator.faults.configure({latencyMs: 100});
    emulator.faults.add({kind: 'slow', method: 'PUT', latencyMs: 40000});
    const outcome = putBudget(emulator, offer.offer_id, 95);
    expect(outcome).toMatchObject({
      kind: 'response',
      status: 200,
      latencyMs: 40100,
    });
    expect(emulator.offerView(offer.offer_id)!.budget[0].daily_cap).toBe('95');
    expect(exchange(emulator, 'GET', api('campaign')).latencyMs).toBe(100);
  });

  it('skews the clock', () => {
    const {emulator, clock} = setup();
    emulator.faults.configure({clockSkewSeconds: -30});
    expect(emulator.nowSeconds()).toBe(clock.ms / 1000 - 30);
  });

  it('records every request with its parsed parts, signer, account, code and fault', () => {
    const {emulator} = setup();
    emulator.faults.add({kind: 'error', count: 1});
    call(emulator, 'GET', api('offers'), {query: {limit: 5}});
    call(emulator, 'GET', api('offers'), {query: {limit: 5}, json: {page: 2}});
    call(emulator, 'GET', api('offers'), {as: null});
    expect(emulator.requests).toEqual([
      {
        at: T0_MS,
        seq: 1,
        method: 'GET',
        path: '/api/open/v3/offers',
        query: {limit: '5'},
        body: null,
        account: null,
        accessKey: 'demo-access-key',
        status: 503,
        code: null,
        msg: null,
        fault: 'error',
      },
      {
        at: T0_MS,
        seq: 2,
        method: 'GET',
        path: '/api/open/v3/offers',
        query: {limit: '5'},
        body: {page: 2},
        account: MAIN,
        accessKey: 'demo-access-key',
        status: 200,
        code: 200,
        msg: 'success',
        fault: null,
      },
      {
        at: T0_MS,
        seq: 3,
        method: 'GET',
        path: '/api/open/v3/offers',
        query: {},
        body: null,
        account: null,
        accessKey: null,
        status: 200,
        code: 10001,
        msg: 'missing authentication header: access-key, token, timestamp',
        fault: null,
      },
    ]);
    emulator.clearRequests();
    expect(emulator.requests).toEqual([]);
  });

  it('fails only the requests one account signs, and logs who signed each', () => {
    const {emulator} = setup();
    emulator.faults.add({
      kind: 'busy',
      account: SUB_A,
      code: 10004,
      msg: 'invalid access-key',
    });
    const codes = [MAIN, SUB_A, SUB_B, SUB_A].map(
      as => call(emulator, 'GET', api('offers'), {as}).json.code,
    );
    expect(codes).toEqual([200, 10004, 200, 10004]);
    expect(emulator.requests.map(r => [r.accessKey, r.fault])).toEqual([
      ['demo-access-key', null],
      ['demo-sub-a-access-key', 'busy'],
      ['demo-sub-b-access-key', null],
      ['demo-sub-a-access-key', 'busy'],
    ]);
  });

  it('resets data, log and faults', () => {
    const {emulator} = setup();
    emulator.faults.add({kind: 'error'});
    emulator.updateOffer(advOffers(emulator, 1)[0].offer_id, {
      status: 'STOPPED',
    });
    emulator.reset({offers: 5});
    expect(emulator.faults.config().rules).toEqual([]);
    expect(emulator.requests).toEqual([]);
    expect(call(emulator, 'GET', api('offers')).json.data.total).toBe(5);
  });

  it('refuses malformed fault rules', () => {
    const {emulator} = setup();
    expect(() => emulator.faults.add({kind: 'error', status: 404})).toThrow(
      RangeError,
    );
    expect(() => emulator.faults.add({kind: 'error', rate: 2})).toThrow(
      RangeError,
    );
    expect(() => emulator.faults.add({kind: 'busy', code: 200})).toThrow(
      RangeError,
    );
    expect(() => emulator.faults.add({kind: 'slow'})).toThrow(RangeError);
  });
});

describe('server-side edits', () => {
  it('changes an offer as the account manager would, seen by the next list', () => {
    const {emulator} = setup();
    const [offer] = advOffers(emulator, 1);
    emulator.updateOffer(offer.offer_id, {
      offer_name: 'Renamed_By_AM',
      status: 'STOPPED',
      offer_stop_reason: 'insufficient balance',
    });
    const listed = call(emulator, 'GET', api('offers'), {
      query: {offer_name: 'renamed_by'},
    }).json.data.list;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      offer_id: offer.offer_id,
      status: 'STOPPED',
      offer_stop_reason: 'insufficient balance',
    });
    expect(() =>
      emulator.updateOffer(offer.offer_id, {uuid: 'x'} as never),
    ).toThrow('cannot patch field uuid');
  });
});
