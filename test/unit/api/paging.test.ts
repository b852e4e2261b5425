import {ApiClient} from '../../../src/api/client';
import {listOffers} from '../../../src/api/operations';
import {remainingPages} from '../../../src/api/paging';
import {
  FakeClock,
  ScriptedTransport,
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

function offersServer(total: number, serverLimit = 50) {
  const all = Array.from({length: total}, (_, i) => ({offer_id: i + 1}));
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

function client(respond: (r: HttpRequest) => ReturnType<typeof ok>) {
  const transport = new ScriptedTransport(respond);
  const api = new ApiClient(
    {
      baseUrl: 'https://api.example.test',
      uploadBaseUrl: 'https://api.example.test',
    },
    {
      current: () => ({accessKey: 'ak-test', apiKey: 'fake-key-0000'}),
      refresh: () => false,
    },
    {
      http: transport,
      digest: nodeDigest,
      clock: new FakeClock(),
      random: () => 0.5,
    },
  );
  return {api, transport};
}

describe('listAll', () => {
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
      const {api, transport} = client(offersServer(total));
      const result = listOffers(api, {status: ['RUNNING']});
      expect(result.items.map(o => o.offer_id)).toEqual(
        Array.from({length: total}, (_, i) => i + 1),
      );
      expect(result.requests).toBe(requests);
      expect(transport.requests).toHaveLength(requests);
      expect(transport.batches.map(b => b.length)).toEqual(batches);
      expect(queryOf(transport.requests[0])).toEqual({
        status: 'RUNNING',
        page: '1',
        limit: '50',
      });
    },
  );

  it('stops on the metadata, not on a short page', () => {
    const {api, transport} = client(request => {
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
    expect(listOffers(api).items).toHaveLength(110);
    expect(transport.requests).toHaveLength(3);
  });

  it('keeps a record once when it slid across a page boundary', () => {
    const {api} = client(request => {
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
    expect(listOffers(api).items.map(o => o.offer_id)).toEqual([1, 2, 3]);
  });

  it('tells progress after page 1 and after each fetchAll batch', () => {
    const {api} = client(offersServer(10000));
    const seen: Array<[number, number]> = [];
    listOffers(api, {}, (fetched, total) => seen.push([fetched, total]));
    expect(seen).toEqual([
      [50, 10000],
      [5050, 10000],
      [10000, 10000],
    ]);
  });

  it('fails the whole list when any page fails', () => {
    const server = offersServer(120);
    const {api} = client(request =>
      queryOf(request).page === '3' ? http(500) : server(request),
    );
    expect(() => listOffers(api)).toThrow('GET offers: HTTP 500');
  });
});
