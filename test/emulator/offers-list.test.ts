import {api, call, MAIN, setup, SUB_A} from './helpers';

const OFFER_FIELDS = [
  'campaign_id',
  'campaign_name',
  'offer_id',
  'uuid',
  'offer_name',
  'promote_timezone',
  'start_time',
  'end_time',
  'status',
  'target_geo',
  'stage',
  'bid_type',
  'bid_rate',
  'bid_rate_by_location',
  'budget',
  'offer_stop_reason',
  'settlement_event',
  'tracking_method',
  'click_url',
  'impression_url',
  'os_version_min',
  'custom_ad_schedule',
  'network',
  'target_ad_type',
  'currency',
  'target_device',
  'click_url_status',
  'target_app',
  'maintain_by',
  'include_ta_id',
  'exclude_ta_id',
  'target_goal_window',
  'target_goal',
  'target_goal_by_geo',
];

describe('GET offers', () => {
  const {emulator} = setup();
  const list = (query: Record<string, string | number> = {}, as = MAIN) =>
    call(emulator, 'GET', api('offers'), {query, as}).json;
  const offers = [...emulator.account(MAIN).offers.values()];

  it('pages 10 by default, caps limit at 50 and tells the true total', () => {
    const first = list();
    expect(first.code).toBe(200);
    expect(first.msg).toBe('success');
    expect(first.data).toMatchObject({page: 1, limit: 10, total: 300});
    expect(first.data.list).toHaveLength(10);
    expect(list({limit: 500}).data.limit).toBe(50);
    expect(list({limit: 500}).data.list).toHaveLength(50);
    expect(list({page: 7, limit: 50}).data).toEqual({
      page: 7,
      limit: 50,
      total: 300,
      list: [],
    });
  });

  it('returns every offer once across the pages, in offer_id order', () => {
    const ids = [1, 2, 3, 4, 5, 6].flatMap(page =>
      list({page, limit: 50}).data.list.map(
        (o: {offer_id: number}) => o.offer_id,
      ),
    );
    expect(ids).toEqual(offers.map(o => o.offer_id));
  });

  it('refuses page or limit that are not positive integers', () => {
    expect(list({page: 0})).toEqual({
      code: 10000,
      msg: 'error',
      data: {page: 'The page must be at least 1.'},
    });
    expect(list({limit: 'ten'}).data).toEqual({
      limit: 'The limit must be an integer.',
    });
  });

  it('shows the fields of 2.3, optimisation targets only for their goals', () => {
    for (const record of list({limit: 50}).data.list) {
      const optional = [];
      if (['OCPI'].includes(record.bid_type)) {
        optional.push('target_agg_event');
        const offer = emulator.offerView(record.offer_id)!;
        if (offer.bid_goal === 'Target-CPE')
          optional.push('target_original_event');
      }
      expect(Object.keys(record).sort()).toEqual(
        [...OFFER_FIELDS, ...optional].sort(),
      );
      expect(typeof record.custom_ad_schedule).toBe('string');
      expect(typeof record.start_time).toBe('number');
    }
  });

  it('filters by comma-separated ids, statuses and campaigns', () => {
    const [a, b] = offers;
    const byId = list({offer_id: `${a.offer_id},${b.offer_id}`}).data;
    expect(byId.total).toBe(2);
    const byStatus = list({status: 'OVER_CAP,STOPPED', limit: 50}).data;
    expect(byStatus.total).toBe(
      offers.filter(o => ['OVER_CAP', 'STOPPED'].includes(o.status)).length,
    );
    expect(list({status: 'OVER_CAP, STOPPED', limit: 50}).data.total).toBe(
      byStatus.total,
    );
    const byCampaign = list({campaign_id: String(a.campaign_id)}).data;
    expect(byCampaign.total).toBe(
      offers.filter(o => o.campaign_id === a.campaign_id).length,
    );
    expect(list({offer_uuid: a.uuid}).data.list[0].offer_id).toBe(a.offer_id);
  });

  it('matches names fuzzily: case-insensitive substrings', () => {
    const target = offers[5];
    const part = target.offer_name.slice(2, 12).toLowerCase();
    const found = list({offer_name: part, limit: 50}).data;
    expect(found.list.map((o: {offer_id: number}) => o.offer_id)).toContain(
      target.offer_id,
    );
    const campaign = emulator.store.campaign(target.campaign_id)!;
    const byCampaign = list({
      campaign_name: campaign.campaign_name.toUpperCase(),
    });
    expect(byCampaign.data.total).toBeGreaterThan(0);
    const byPackage = list({package_name: 'com.demo.'}).data.total;
    expect(byPackage).toBeGreaterThan(0);
    expect(byPackage).toBeLessThan(300);
  });

  it('refuses malformed id lists and unknown statuses', () => {
    expect(list({offer_id: '12,abc'}).data).toEqual({
      offer_id: 'The offer_id format is invalid.',
    });
    expect(list({status: 'LIVE'}).data).toEqual({
      status: 'The status format is invalid.',
    });
  });

  it('takes parameters from a JSON body too; the body wins over the query', () => {
    const viaBody = call(emulator, 'GET', api('offers'), {
      json: {page: 2, limit: 5},
    }).json;
    expect(viaBody.data).toEqual(list({page: 2, limit: 5}).data);
    const both = call(emulator, 'GET', api('offers'), {
      query: {limit: 3},
      json: {limit: 4},
    }).json;
    expect(both.data.limit).toBe(4);
  });

  it('refuses a body that is not JSON', () => {
    const reply = call(emulator, 'GET', api('offers'), {
      body: new TextEncoder().encode('limit=5'),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(reply.json).toEqual({
      code: 10000,
      msg: 'error',
      data: {
        'content-type':
          'A request body must be sent as Content-Type application/json.',
      },
    });
  });

  it('shows each account only its own offers', () => {
    const subIds = list({limit: 50}, SUB_A).data.list.map(
      (o: {offer_id: number}) => o.offer_id,
    );
    expect(subIds).toHaveLength(30);
    expect(
      subIds.some((id: number) => emulator.account(MAIN).offers.has(id)),
    ).toBe(false);
    expect(list({offer_id: String(offers[0].offer_id)}, SUB_A).data.total).toBe(
      0,
    );
  });
});

describe('GET offers with listsServerClick (assumption 45a)', () => {
  it('shows each offer’s support_server_click, which the list otherwise leaves out', () => {
    const {emulator} = setup({offers: 2, listsServerClick: true});
    const [first] = [...emulator.account(MAIN).offers.values()];
    const record = (e: typeof emulator) =>
      call(e, 'GET', api('offers'), {
        query: {offer_id: String(first.offer_id)},
        as: MAIN,
      }).json.data.list[0];
    expect(record(emulator).support_server_click).toBe(
      first.support_server_click,
    );
    expect(record(setup({offers: 2}).emulator)).not.toHaveProperty(
      'support_server_click',
    );
  });

  it("shows it as a JSON boolean with listsServerClick: 'boolean'", () => {
    const {emulator} = setup({offers: 2, listsServerClick: 'boolean'});
    const [first, second] = [...emulator.account(MAIN).offers.values()];
    emulator.updateOffer(first.offer_id, {support_server_click: 'YES'});
    emulator.updateOffer(second.offer_id, {support_server_click: 'NO'});
    const listed = call(emulator, 'GET', api('offers'), {as: MAIN}).json.data
      .list as Array<{support_server_click: unknown}>;
    expect(listed.map(o => o.support_server_click)).toEqual([true, false]);
  });
});

describe('GET offers with listsTimesInMs (assumption 45c)', () => {
  it('lists start_time and end_time in milliseconds, 0 staying 0', () => {
    const {emulator} = setup({offers: 3, listsTimesInMs: true});
    const offers = [...emulator.account(MAIN).offers.values()];
    emulator.updateOffer(offers[0].offer_id, {end_time: 0});
    const listed = call(emulator, 'GET', api('offers'), {as: MAIN}).json.data
      .list as Array<{start_time: number; end_time: number}>;
    expect(listed.map(o => [o.start_time, o.end_time])).toEqual(
      offers.map((o, k) => [
        o.start_time * 1000,
        k === 0 ? 0 : o.end_time * 1000,
      ]),
    );
  });
});

describe('GET offers and GET campaign with clientShapes (assumption 45b)', () => {
  it('names target_geo country_code, in the offer and its budget items, and gives campaign_id as text', () => {
    const {emulator} = setup({offers: 3, clientShapes: true});
    const documented = setup({offers: 3}).emulator;
    const [first] = [...emulator.account(MAIN).offers.values()];
    const listed = (e: typeof emulator, path: string, query = {}) =>
      call(e, 'GET', api(path), {query, as: MAIN}).json.data.list[0];
    const offer = listed(emulator, 'offers', {
      campaign_id: String(first.campaign_id),
      offer_id: String(first.offer_id),
    });
    const plain = listed(documented, 'offers', {
      offer_id: String(first.offer_id),
    });

    expect(Object.keys(offer)).toEqual(
      OFFER_FIELDS.map(f => (f === 'target_geo' ? 'country_code' : f)),
    );
    expect(offer.country_code).toBe(plain.target_geo);
    expect(offer.campaign_id).toBe(String(plain.campaign_id));
    expect(offer.budget).toEqual(
      plain.budget.map(({target_geo, ...rest}: Record<string, unknown>) => ({
        country_code: target_geo,
        ...rest,
      })),
    );
    expect(offer.budget.length).toBeGreaterThan(0);
    expect(Object.keys(offer.budget[0])[0]).toBe('country_code');

    const campaign = listed(emulator, 'campaign', {
      campaign_id: String(first.campaign_id),
    });
    expect(campaign.campaign_id).toBe(String(first.campaign_id));
    expect(campaign).not.toHaveProperty('country_code');
  });
});
