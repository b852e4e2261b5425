import {ApiClient, CredentialSource} from '../../../src/api/client';
import {ApiError, ConfigError} from '../../../src/api/errors';
import {
  OPERATIONS,
  campaignsListing,
  materialsListing,
  offersListing,
} from '../../../src/api/operations';
import {
  Listing,
  listAllEach,
  listEach,
  remainingPages,
} from '../../../src/api/paging';
import {
  Answer,
  FakeClock,
  ScriptedTransport,
  fail,
  http,
  nodeDigest,
  ok,
  queryOf,
} from '../../support/fakes';
import type {HttpRequest} from '../../../src/platform/ports';

describe('remainingPages', () => {
  it.each([
    [0, 50, []],
    [1, 50, []],
    [50, 50, []],
    [51, 50, [2]],
    [10000, 50, Array.from({length: 199}, (_, i) => i + 2)],
  ])('total %i at %i a page', (total, size, pages) => {
    expect(remainingPages(total, size)).toEqual(pages);
  });

  it('follows the page size the server used, not the one asked for', () => {
    expect(remainingPages(45, 20)).toEqual([2, 3]);
  });
});

/** Serves `total` records of `id` field at the page size asked, capped at `serverLimit`. */
function pagesOf(total: number, id: string, serverLimit: number) {
  const all = Array.from({length: total}, (_, i) => ({[id]: i + 1}));
  return (request: HttpRequest) => {
    const q = queryOf(request);
    const page = Number(q.page);
    const limit = Math.min(Number(q.limit), serverLimit);
    return ok({
      page,
      limit,
      total,
      list: all.slice((page - 1) * limit, page * limit),
    });
  };
}

/** An account's lists, by the last part of the path. */
function accountServer(sizes: {
  offers?: number;
  campaigns?: number;
  materials?: number;
}) {
  const lists: Record<string, (r: HttpRequest) => Answer> = {
    offers: pagesOf(sizes.offers ?? 0, 'offer_id', 50),
    campaign: pagesOf(sizes.campaigns ?? 0, 'campaign_id', 50),
    source: pagesOf(sizes.materials ?? 0, 'creative_md5', 200),
  };
  return (request: HttpRequest) =>
    lists[new URL(request.url).pathname.split('/').pop()!](request);
}

const ENDPOINT = {
  baseUrl: 'https://api.example.test',
  uploadBaseUrl: 'https://api.example.test',
};

function keys(accessKey: string): CredentialSource {
  return {
    current: () => ({accessKey, apiKey: `fake-key-${accessKey}`}),
    refresh: () => false,
  };
}

/** Two clients over one transport: the acting sub-account and the main account. */
function desk(
  respond: (r: HttpRequest, n: number) => Answer,
  options: {acting?: CredentialSource; batchSize?: number} = {},
) {
  const clock = new FakeClock();
  const transport = new ScriptedTransport(respond);
  const deps = {
    http: transport,
    digest: nodeDigest,
    clock,
    random: () => 0.5,
    batchSize: options.batchSize,
  };
  const acting = new ApiClient(
    ENDPOINT,
    options.acting ?? keys('ak-sub'),
    deps,
  );
  const main = new ApiClient(ENDPOINT, keys('ak-main'), deps);
  return {acting, main, transport, clock};
}

/** A batch as [path tail, page, limit, access-key] per request. */
function shape(batch: HttpRequest[]) {
  return batch.map(r => {
    const q = queryOf(r);
    return [
      new URL(r.url).pathname.split('/').pop(),
      q.page,
      q.limit,
      r.headers['access-key'],
    ];
  });
}

describe('listEach, one listing', () => {
  it.each([
    [0, 1, [1]],
    [1, 1, [1]],
    [50, 1, [1]],
    [51, 2, [1, 1]],
    [1234, 25, [1, 24]],
    [10000, 200, [1, 100, 99]],
  ])(
    'lists %i offers in %i requests (fetchAll batches %j)',
    (total, requests, batches) => {
      const {acting, transport} = desk(accountServer({offers: total}));
      const [result] = listEach([offersListing(acting, {status: ['RUNNING']})]);
      expect(result.items.map(o => o.offer_id)).toEqual(
        Array.from({length: total}, (_, i) => i + 1),
      );
      expect(result).toMatchObject({total, requests});
      expect(transport.requests).toHaveLength(requests);
      expect(transport.batches.map(b => b.length)).toEqual(batches);
      expect(queryOf(transport.requests[0])).toEqual({
        status: 'RUNNING',
        page: '1',
        limit: '50',
      });
    },
  );

  it('asks every page the metadata names, and fails a list with a short page before the last', () => {
    const {acting, transport} = desk(request => {
      const page = Number(queryOf(request).page);
      // Page 2 is short although total says three pages.
      const size = page === 2 ? 10 : 50;
      return ok({
        page,
        limit: 50,
        total: 120,
        list: Array.from({length: size}, (_, i) => ({
          offer_id: page * 1000 + i,
        })),
      });
    });
    expect(() => listEach([offersListing(acting)])).toThrow(
      'GET offers: code 200 page 2 held 10 records where the page size is 50, and later pages held more: the list came back incomplete, so nothing was changed; run it again',
    );
    expect(transport.requests).toHaveLength(3);
  });

  it('asks the other pages at the page size the server used', () => {
    const {acting, transport} = desk(pagesOf(45, 'offer_id', 20));
    expect(listEach([offersListing(acting)])[0].items).toHaveLength(45);
    expect(transport.requests.map(r => queryOf(r).limit)).toEqual([
      '50',
      '20',
      '20',
    ]);
  });

  /** Offer 2 slid from page 1 to page 2 while the list was paged. */
  const slidAcross = () =>
    desk(request => {
      const page = Number(queryOf(request).page);
      return ok({
        page,
        limit: 2,
        total: 4,
        list:
          page === 1
            ? [{offer_id: 1}, {offer_id: 2}]
            : [{offer_id: 2}, {offer_id: 3}],
      });
    });

  it('keeps a record once when it slid across a page boundary', () => {
    const {acting} = slidAcross();
    expect(
      listEach([offersListing(acting)])[0].items.map(o => o.offer_id),
    ).toEqual([1, 2, 3]);
  });

  it('keeps what the listing keeps of each record, once, as each page is parsed', () => {
    const {acting} = slidAcross();
    const kept: number[] = [];
    const [result] = listEach([
      {
        ...offersListing(acting),
        keep: offer => {
          kept.push(offer.offer_id);
          return `offer ${offer.offer_id}`;
        },
      },
    ]);
    expect(result.items).toEqual(['offer 1', 'offer 2', 'offer 3']);
    expect(kept).toEqual([1, 2, 3]);
    expect(result.total).toBe(4);
  });

  it('tells progress after page 1 and after each fetchAll batch', () => {
    const {acting} = desk(accountServer({offers: 10000}));
    const seen: Array<[number, number]> = [];
    listEach([offersListing(acting)], (fetched, total) =>
      seen.push([fetched, total]),
    );
    expect(seen).toEqual([
      [50, 10000],
      [5050, 10000],
      [10000, 10000],
    ]);
  });

  it('fails the whole list when any page fails', () => {
    const server = accountServer({offers: 120});
    const {acting} = desk(request =>
      queryOf(request).page === '3' ? http(500) : server(request),
    );
    expect(() => listEach([offersListing(acting)])).toThrow(
      'GET offers: HTTP 500',
    );
  });

  it('fails on an answer that carries no list', () => {
    const {acting} = desk(() => ok({total: 3}));
    expect(() => listEach([offersListing(acting)])).toThrow(
      'GET offers: code 200 the answer carries no list',
    );
  });
});

describe('listEach, the listings of a refresh', () => {
  it('sends every first page in one fetchAll, then all other pages packed into shared batches', () => {
    const {acting, transport} = desk(
      accountServer({campaigns: 500, offers: 10000, materials: 60}),
    );
    const results = listEach<unknown>([
      campaignsListing(acting),
      offersListing(acting),
      materialsListing(acting),
    ]);
    expect(results.map(r => [r.items.length, r.total, r.requests])).toEqual([
      [500, 500, 10],
      [10000, 10000, 200],
      [60, 60, 1],
    ]);
    expect(transport.batches.map(b => b.length)).toEqual([3, 100, 100, 8]);
    expect(shape(transport.batches[0])).toEqual([
      ['campaign', '1', '50', 'ak-sub'],
      ['offers', '1', '50', 'ak-sub'],
      ['source', '1', '200', 'ak-sub'],
    ]);
    // Campaigns' 9 other pages and the first 91 of offers share the first batch.
    const second = shape(transport.batches[1]);
    expect(second.slice(0, 10)).toEqual([
      ...Array.from({length: 9}, (_, i) => [
        'campaign',
        String(i + 2),
        '50',
        'ak-sub',
      ]),
      ['offers', '2', '50', 'ak-sub'],
    ]);
    expect(second[99]).toEqual(['offers', '92', '50', 'ak-sub']);
    expect(shape(transport.batches[3]).pop()).toEqual([
      'offers',
      '200',
      '50',
      'ak-sub',
    ]);
  });

  it('signs each listing with its own client within one batch', () => {
    const {acting, main, transport} = desk(request =>
      request.url.includes('sub_adv_account')
        ? ok({page: 1, limit: 50, total: 0, list: []})
        : accountServer({campaigns: 60, offers: 51})(request),
    );
    const subAccounts: Listing<unknown> = {
      client: main,
      op: OPERATIONS.getSubAccount,
      query: {},
      maxLimit: 50,
      key: () => 0,
    };
    listEach<unknown>([
      campaignsListing(acting),
      offersListing(acting),
      subAccounts,
    ]);
    expect(transport.batches.map(shape)).toEqual([
      [
        ['campaign', '1', '50', 'ak-sub'],
        ['offers', '1', '50', 'ak-sub'],
        ['sub_adv_account', '1', '50', 'ak-main'],
      ],
      [
        ['campaign', '2', '50', 'ak-sub'],
        ['offers', '2', '50', 'ak-sub'],
      ],
    ]);
    const [, , sub] = transport.batches[0];
    expect(sub.headers.token).not.toBe(transport.batches[0][0].headers.token);
  });

  it('retries a transient 5xx on one first page alone, after the backoff', () => {
    const server = accountServer({campaigns: 60, offers: 120, materials: 3});
    let failed = false;
    const {acting, transport, clock} = desk(request => {
      if (request.url.includes('/offers') && !failed) {
        failed = true;
        return http(503);
      }
      return server(request);
    });
    const results = listEach<unknown>([
      campaignsListing(acting),
      offersListing(acting),
      materialsListing(acting),
    ]);
    expect(results.map(r => r.items.length)).toEqual([60, 120, 3]);
    expect(transport.batches.map(shape)).toEqual([
      [
        ['campaign', '1', '50', 'ak-sub'],
        ['offers', '1', '50', 'ak-sub'],
        ['source', '1', '200', 'ak-sub'],
      ],
      [['offers', '1', '50', 'ak-sub']],
      [
        ['campaign', '2', '50', 'ak-sub'],
        ['offers', '2', '50', 'ak-sub'],
        ['offers', '3', '50', 'ak-sub'],
      ],
    ]);
    expect(clock.sleeps).toEqual([750]);
    expect(results.map(r => r.requests)).toEqual([2, 3, 1]);
  });

  it('looks refused keys up once and sends again only the requests they signed', () => {
    let generation = 0;
    const acting: CredentialSource = {
      current: () => ({
        accessKey: `ak-sub-${generation}`,
        apiKey: 'fake-key-sub',
      }),
      refresh: () => {
        generation++;
        return true;
      },
    };
    const server = accountServer({campaigns: 3, offers: 3});
    const clients = desk(
      request =>
        request.headers['access-key'] === 'ak-sub-0'
          ? fail(10003, 'invalid token')
          : request.url.includes('sub_adv_account')
            ? ok({page: 1, limit: 50, total: 0, list: []})
            : server(request),
      {acting},
    );
    const results = listEach<unknown>([
      campaignsListing(clients.acting),
      offersListing(clients.acting),
      {
        client: clients.main,
        op: OPERATIONS.getSubAccount,
        query: {},
        maxLimit: 50,
        key: () => 0,
      },
    ]);
    expect(results.map(r => r.items.length)).toEqual([3, 3, 0]);
    expect(clients.transport.batches.map(shape)).toEqual([
      [
        ['campaign', '1', '50', 'ak-sub-0'],
        ['offers', '1', '50', 'ak-sub-0'],
        ['sub_adv_account', '1', '50', 'ak-main'],
      ],
      [
        ['campaign', '1', '50', 'ak-sub-1'],
        ['offers', '1', '50', 'ak-sub-1'],
      ],
    ]);
    expect(generation).toBe(1);
  });

  it('throws the first failure a listing does not accept, before any other page goes out', () => {
    const {acting, main, transport} = desk(request =>
      request.url.includes('/offers')
        ? fail(10003, 'invalid token')
        : accountServer({campaigns: 120})(request),
    );
    expect(() =>
      listEach<unknown>([campaignsListing(acting), offersListing(main)]),
    ).toThrow('GET offers: code 10003 invalid token');
    expect(transport.batches.map(b => b.length)).toEqual([2]);
  });

  it('counts a listing whose records it cannot tell apart as empty where it accepts the failure', () => {
    const {main} = desk(() =>
      ok({page: 1, limit: 50, total: 2, list: [{name: 'a'}, {name: 'b'}]}),
    );
    const listing = {
      client: main,
      op: OPERATIONS.getSubAccount,
      query: {},
      maxLimit: 50,
      key: (a: {sub_adv_user_name?: string}) => a.sub_adv_user_name ?? '',
    };
    expect(() => listEach([listing])).toThrow(
      'GET sub_adv_account: code 200 page 1 held a record without its id: the list cannot be matched to rows, so nothing was changed',
    );
    expect(listEach([{...listing, emptyOn: () => true}])).toEqual([
      {items: [], total: 0, requests: 1},
    ]);
  });

  it('counts a listing whose failure it accepts as empty, and pages the others', () => {
    const refusal = (e: Error) => e instanceof ApiError && e.code === 10000;
    const {acting, main, transport} = desk(request =>
      request.url.includes('sub_adv_account')
        ? fail(10000, 'error', {sub_adv_user_name: 'required'})
        : accountServer({campaigns: 120})(request),
    );
    const progress: Array<[number, number]> = [];
    const results = listEach<unknown>(
      [
        campaignsListing(acting),
        {
          client: main,
          op: OPERATIONS.getSubAccount,
          query: {},
          maxLimit: 50,
          key: () => 0,
          emptyOn: refusal,
        },
      ],
      (fetched, total) => progress.push([fetched, total]),
    );
    expect(results).toEqual([
      {items: expect.any(Array), total: 120, requests: 3},
      {items: [], total: 0, requests: 1},
    ]);
    expect(transport.batches.map(b => b.length)).toEqual([2, 2]);
    expect(progress).toEqual([
      [50, 120],
      [120, 120],
    ]);
  });

  it('stops paging a listing once a later page fails in a way it accepts', () => {
    const server = accountServer({offers: 250});
    const {acting, transport} = desk(
      request =>
        queryOf(request).page === '2' ? fail(10000, 'error') : server(request),
      {batchSize: 2},
    );
    const [result] = listEach([
      {...offersListing(acting), emptyOn: () => true},
    ]);
    expect(result).toEqual({items: [], total: 0, requests: 3});
    // Pages 4 and 5 are never asked for: the list was given up after pages 2 and 3.
    expect(transport.batches.map(b => b.map(r => queryOf(r).page))).toEqual([
      ['1'],
      ['2', '3'],
    ]);
  });

  it('refuses clients that do not share one transport', () => {
    const one = desk(accountServer({}));
    const other = desk(accountServer({}));
    expect(() =>
      listEach<unknown>([
        campaignsListing(one.acting),
        offersListing(other.acting),
      ]),
    ).toThrow('Requests of one fetchAll batch need one HttpTransport.');
    expect(one.transport.requests).toHaveLength(0);
  });
});

describe('listEach, isolated listings', () => {
  /** Campaigns and offers of the acting account, and the main account's offers. */
  function threeAccounts(
    failing: (request: HttpRequest) => Answer | undefined,
    options: {batchSize?: number} = {},
  ) {
    const server = accountServer({campaigns: 60, offers: 120});
    const clients = desk(
      request => failing(request) ?? server(request),
      options,
    );
    const listings = [
      {...campaignsListing(clients.acting), isolated: true},
      {...offersListing(clients.acting), isolated: true},
      {...offersListing(clients.main), isolated: true},
    ];
    return {...clients, listings};
  }

  const mainOffers = (request: HttpRequest) =>
    request.url.includes('/offers') &&
    request.headers['access-key'] === 'ak-main';

  it('fails a listing whose keys are refused alone, and pages the others together', () => {
    const {listings, transport} = threeAccounts(request =>
      mainOffers(request) ? fail(10004, 'invalid access-key') : undefined,
    );
    const results = listEach<unknown>(listings);
    expect(results.map(r => [r.items.length, r.total, r.requests])).toEqual([
      [60, 60, 2],
      [120, 120, 3],
      [0, 0, 1],
    ]);
    expect(results[2].failed?.message).toBe(
      'GET offers: code 10004 invalid access-key',
    );
    expect(results[0].failed).toBeUndefined();
    expect(transport.batches.map(shape)).toEqual([
      [
        ['campaign', '1', '50', 'ak-sub'],
        ['offers', '1', '50', 'ak-sub'],
        ['offers', '1', '50', 'ak-main'],
      ],
      [
        ['campaign', '2', '50', 'ak-sub'],
        ['offers', '2', '50', 'ak-sub'],
        ['offers', '3', '50', 'ak-sub'],
      ],
    ]);
  });

  it('fails a listing alone once a 5xx outlasts its retries', () => {
    const {listings, transport, clock} = threeAccounts(request =>
      mainOffers(request) ? http(503) : undefined,
    );
    const results = listEach<unknown>(listings);
    expect(results.map(r => r.items.length)).toEqual([60, 120, 0]);
    expect(results[2]).toMatchObject({total: 0, requests: 1});
    expect(results[2].failed?.message).toBe(
      'GET offers: HTTP 503 unexpected answer, an HTML page: busy',
    );
    // Four attempts of the failing page, then the others' later pages.
    expect(transport.batches.map(b => b.length)).toEqual([3, 1, 1, 1, 3]);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('fails a listing alone once a 429 outlasts its waits', () => {
    const {listings, clock} = threeAccounts(request =>
      mainOffers(request) ? http(429, {'retry-after': '5'}) : undefined,
    );
    const results = listEach<unknown>(listings);
    expect(results.map(r => r.items.length)).toEqual([60, 120, 0]);
    expect(results[2].failed?.message).toBe(
      'GET offers: HTTP 429 unexpected answer, an HTML page: busy',
    );
    expect(clock.sleeps).toHaveLength(3);
  });

  it('fails a list that came back incomplete alone, and sends it no more pages', () => {
    const {listings, transport} = threeAccounts(
      request =>
        mainOffers(request) && queryOf(request).page === '2'
          ? ok({page: 2, limit: 50, total: 120, list: [{offer_id: 51}]})
          : undefined,
      {batchSize: 3},
    );
    const results = listEach<unknown>(listings);
    expect(results.map(r => r.items.length)).toEqual([60, 120, 0]);
    expect(results[2].failed?.message).toBe(
      'GET offers: code 200 page 2 held 1 records where the page size is 50, and later pages held more: the list came back incomplete, so nothing was changed; run it again',
    );
    expect(results[2].requests).toBe(3);
    expect(transport.requests).toHaveLength(8);
  });

  it('stops asking pages of a listing that failed on a later page', () => {
    const {listings, transport} = threeAccounts(
      request =>
        mainOffers(request) && queryOf(request).page === '2'
          ? http(500)
          : undefined,
      {batchSize: 2},
    );
    const results = listEach<unknown>(listings);
    expect(results.map(r => r.items.length)).toEqual([60, 120, 0]);
    expect(results[2].failed?.message).toBe(
      'GET offers: HTTP 500 unexpected answer, an HTML page: busy',
    );
    expect(
      transport.requests.filter(r => mainOffers(r) && queryOf(r).page === '3'),
    ).toEqual([]);
  });

  it('fails alone a listing whose refused keys are looked up again and the sub-account is gone', () => {
    const gone = new ConfigError(
      'The main account has no sub-account named "team_gone": choose another account in the sidebar.',
    );
    let looked = false;
    const {main, acting, transport} = desk(
      request =>
        request.headers['access-key'] === 'ak-sub'
          ? fail(10004, 'invalid access-key')
          : accountServer({campaigns: 60})(request),
      {
        acting: {
          current: () => {
            if (looked) throw gone;
            return {accessKey: 'ak-sub', apiKey: 'fake-key-sub'};
          },
          refresh: () => (looked = true),
        },
      },
    );
    const results = listEach<unknown>([
      {...offersListing(acting), isolated: true},
      {...campaignsListing(main), isolated: true},
    ]);
    expect(results[0]).toEqual({
      items: [],
      total: 0,
      requests: 1,
      failed: gone,
    });
    expect(results[1]).toMatchObject({total: 60, requests: 2});
    expect(transport.batches.map(shape)).toEqual([
      [
        ['offers', '1', '50', 'ak-sub'],
        ['campaign', '1', '50', 'ak-main'],
      ],
      [['campaign', '2', '50', 'ak-main']],
    ]);
  });

  it('still empties a failure that emptyOn accepts, without calling it failed', () => {
    const {listings} = threeAccounts(request =>
      mainOffers(request) ? fail(10000, 'error') : undefined,
    );
    const [, , result] = listEach<unknown>([
      listings[0],
      listings[1],
      {...listings[2], emptyOn: () => true},
    ]);
    expect(result).toEqual({items: [], total: 0, requests: 1});
  });

  it('throws the failure of a listing that is not isolated, as before', () => {
    const {listings} = threeAccounts(request =>
      mainOffers(request) ? fail(10004, 'invalid access-key') : undefined,
    );
    expect(() =>
      listEach<unknown>([
        listings[0],
        listings[1],
        {...listings[2], isolated: false},
      ]),
    ).toThrow('GET offers: code 10004 invalid access-key');
  });
});

describe('listAllEach', () => {
  it('looks several names up in two round trips', () => {
    const {acting, transport} = desk(request => {
      const name = queryOf(request).offer_name;
      return pagesOf(name === 'big' ? 60 : 1, 'offer_id', 50)(request);
    });
    const results = listAllEach(
      acting,
      OPERATIONS.listOffers,
      [{offer_name: 'a'}, {offer_name: 'big'}, {offer_name: 'c'}],
      50,
      (o: {offer_id: number}) => o.offer_id,
    );
    expect(results.map(r => [r.items.length, r.requests])).toEqual([
      [1, 1],
      [60, 2],
      [1, 1],
    ]);
    expect(
      transport.batches.map(b =>
        b.map(r => [queryOf(r).offer_name, queryOf(r).page]),
      ),
    ).toEqual([
      [
        ['a', '1'],
        ['big', '1'],
        ['c', '1'],
      ],
      [['big', '2']],
    ]);
  });
});

describe('listEach, a query longer than a URL may be', () => {
  const md5 = (i: number) => i.toString(16).padStart(32, '0');

  /** Lists the materials of `md5s` that the query's creative_md5 filter names, paged. */
  function materialServer(md5s: string[], pageSize: number) {
    return (request: HttpRequest) => {
      const q = queryOf(request);
      const wanted = new Set(q.creative_md5.split(','));
      const all = md5s
        .filter(m => wanted.has(m))
        .map(m => ({creative_md5: m, creative_name: `name ${m}`}));
      const page = Number(q.page);
      return ok({
        page,
        limit: pageSize,
        total: all.length,
        list: all.slice((page - 1) * pageSize, page * pageSize),
      });
    };
  }

  it('sends 200 md5s in as many requests as keep each URL within 2,048 characters, and merges them', () => {
    const md5s = Array.from({length: 200}, (_, i) => md5(i + 1));
    const {acting, transport} = desk(materialServer(md5s, 200));
    const [result] = listEach([materialsListing(acting, {creative_md5: md5s})]);
    expect(result.items.map(m => m.creative_md5)).toEqual(md5s);
    // Each md5 takes 35 characters ("%2C" and 32 hex): 55 fit beside the rest of the URL.
    expect(
      transport.requests.map(r => queryOf(r).creative_md5.split(',').length),
    ).toEqual([55, 55, 55, 35]);
    expect(transport.batches).toHaveLength(1);
    for (const r of transport.requests)
      expect(r.url.length).toBeLessThanOrEqual(2048);
    expect(result).toMatchObject({total: 200, requests: 4});
  });

  it('pages each part on its own, every later page within the limit too', () => {
    const md5s = Array.from({length: 120}, (_, i) => md5(i + 1));
    const {acting, transport} = desk(materialServer(md5s, 20));
    const [result] = listEach([materialsListing(acting, {creative_md5: md5s})]);
    expect(result.items.map(m => m.creative_md5).sort()).toEqual(md5s);
    expect(
      transport.batches.map(b =>
        b.map(r => [
          queryOf(r).creative_md5.split(',').length,
          queryOf(r).page,
        ]),
      ),
    ).toEqual([
      [
        [55, '1'],
        [55, '1'],
        [10, '1'],
      ],
      [
        [55, '2'],
        [55, '3'],
        [55, '2'],
        [55, '3'],
      ],
    ]);
    expect(result).toMatchObject({total: 120, requests: 7});
    for (const r of transport.requests)
      expect(r.url.length).toBeLessThanOrEqual(2048);
  });
});
