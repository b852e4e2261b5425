import {api, call, MAIN, OTHER, setup, SUB_A} from './helpers';

describe('sub_adv_account', () => {
  const create = (
    emulator: ReturnType<typeof setup>['emulator'],
    json: Record<string, unknown>,
    as = MAIN,
  ) => call(emulator, 'POST', api('sub_adv_account'), {json, as}).json;
  const find = (
    emulator: ReturnType<typeof setup>['emulator'],
    name: string,
    as = MAIN,
  ) =>
    call(emulator, 'GET', api('sub_adv_account'), {
      query: {sub_adv_user_name: name},
      as,
    }).json;

  it('creates a sub-account with keys derived from the seed and the name', () => {
    const {emulator} = setup();
    const reply = create(emulator, {
      sub_adv_user_name: 'team_east',
      password: 'secret123',
    });
    expect(reply).toEqual({
      code: 200,
      msg: 'success',
      data: {
        sub_adv_user_name: 'team_east',
        access_key: expect.stringMatching(/^sub-[0-9a-f]{16}$/),
        api_key: expect.stringMatching(/^[0-9a-f]{32}$/),
        is_unlimited_credit: 'NO',
        credit: 0,
      },
    });
    const again = create(setup().emulator, {
      sub_adv_user_name: 'team_east',
      password: 'other-password',
    });
    expect(again.data).toEqual(reply.data);
    expect(
      create(setup({seed: 2}).emulator, {
        sub_adv_user_name: 'team_east',
        password: 'secret123',
      }).data.api_key,
    ).not.toBe(reply.data.api_key);
  });

  it('lets the new sub-account sign its own calls, seeing only its own records', () => {
    const {emulator} = setup();
    create(emulator, {sub_adv_user_name: 'team_west', password: 'secret123'});
    const [found] = find(emulator, 'team_west').data.list;
    expect(Object.keys(found).sort()).toEqual([
      'access_key',
      'api_key',
      'sub_adv_user_name',
    ]);
    const offers = call(emulator, 'GET', api('offers'), {as: 'team_west'}).json;
    expect(offers.data.total).toBe(0);
  });

  it('refuses a taken name, and names or passwords that break the rules', () => {
    const {emulator} = setup();
    expect(
      create(emulator, {sub_adv_user_name: SUB_A, password: 'secret123'}),
    ).toEqual({
      code: 10000,
      msg: 'error',
      data: {
        sub_adv_user_name: 'The sub_adv_user_name has already been taken.',
      },
    });
    expect(
      create(emulator, {sub_adv_user_name: 'a b', password: '123'}).data,
    ).toEqual({
      sub_adv_user_name: 'The sub_adv_user_name format is invalid.',
      password: 'The password must be between 6 and 64 characters.',
    });
  });

  it('finds the keys of its own sub-accounts only', () => {
    const {emulator} = setup();
    expect(find(emulator, SUB_A).data).toEqual({
      page: 1,
      limit: 10,
      total: 1,
      list: [
        {
          sub_adv_user_name: SUB_A,
          access_key: 'demo-sub-a-access-key',
          api_key: 'demo-sub-a-api-key-0000000000000',
        },
      ],
    });
    expect(find(emulator, 'nobody').data).toEqual({
      page: 1,
      limit: 10,
      total: 0,
      list: [],
    });
    expect(find(emulator, SUB_A, OTHER).data.list).toEqual([]);
    const missing = call(emulator, 'GET', api('sub_adv_account')).json;
    expect(missing.data).toEqual({
      sub_adv_user_name: 'The sub_adv_user_name field is required.',
    });
  });

  it('refuses sub-accounts with Permission denied', () => {
    const {emulator} = setup();
    const denied = {
      code: 10006,
      msg: 'Permission denied',
      data: {
        'access-key': 'Only an adv_user may create or query sub_adv_account.',
      },
    };
    expect(find(emulator, SUB_A, SUB_A)).toEqual(denied);
    expect(
      create(
        emulator,
        {sub_adv_user_name: 'x_team', password: 'secret123'},
        SUB_A,
      ),
    ).toEqual(denied);
  });

  it('seeds an agency: twelve more sub-accounts, each with its own keys and records, ids distinct', () => {
    const {emulator} = setup({subAccounts: 12, offers: 40, campaigns: 10});
    const agency = emulator
      .state()
      .accounts.filter(a => a.name.startsWith('agency_sub_'));
    expect(agency.map(a => a.name)).toEqual(
      Array.from(
        {length: 12},
        (_, i) => `agency_sub_${String(i + 1).padStart(2, '0')}`,
      ),
    );
    expect(agency[6]).toMatchObject({
      kind: 'sub_adv_account',
      parent: MAIN,
      access_key: 'agency-sub-07-access-key',
      api_key: 'agency-sub-07-api-key-0000000000',
      currency: 'USD',
      offers: 4,
      campaigns: 2,
    });
    expect(agency[2].currency).toBe('CNY');
    const offerIds = emulator
      .state()
      .accounts.flatMap(a => [...emulator.account(a.name).offers.keys()]);
    expect(new Set(offerIds).size).toBe(offerIds.length);
    // Each signs its own lists and sees only its own offers.
    const listed = call(emulator, 'GET', api('offers'), {
      as: 'agency_sub_07',
    }).json.data;
    expect(listed.list.map((o: {offer_id: number}) => o.offer_id)).toEqual([
      ...emulator.account('agency_sub_07').offers.keys(),
    ]);
    expect(emulator.requests.at(-1)?.account).toBe('agency_sub_07');
    // The demo accounts' records are the same with an agency as without.
    expect([...emulator.account(SUB_A).offers.keys()]).toEqual([
      ...setup({offers: 40, campaigns: 10})
        .emulator.account(SUB_A)
        .offers.keys(),
    ]);
  });

  it('lists every sub-account without a name only where listsSubAccounts says so, paged', () => {
    const {emulator} = setup({subAccounts: 12, listsSubAccounts: true});
    const page = (query: Record<string, number>, as = MAIN) =>
      call(emulator, 'GET', api('sub_adv_account'), {query, as}).json.data;
    const first = page({page: 1, limit: 10});
    expect(first).toMatchObject({page: 1, limit: 10, total: 14});
    expect(first.list[0]).toEqual({
      sub_adv_user_name: SUB_A,
      access_key: 'demo-sub-a-access-key',
      api_key: 'demo-sub-a-api-key-0000000000000',
    });
    expect(page({page: 2, limit: 10}).list).toHaveLength(4);
    expect(page({limit: 500}).limit).toBe(50);
    expect(page({}, OTHER)).toEqual({page: 1, limit: 10, total: 0, list: []});
    // A name still looks one up.
    expect(find(emulator, 'agency_sub_12').data.total).toBe(1);
    const names = setup({subAccounts: 2, listsSubAccounts: 'names'}).emulator;
    expect(
      call(names, 'GET', api('sub_adv_account'), {}).json.data.list,
    ).toEqual([
      {sub_adv_user_name: SUB_A},
      {sub_adv_user_name: 'demo_sub_b'},
      {sub_adv_user_name: 'agency_sub_01'},
      {sub_adv_user_name: 'agency_sub_02'},
    ]);
  });

  it('refuses an agency past 99 sub-accounts', () => {
    expect(() => setup({subAccounts: 100})).toThrow(
      'subAccounts is a whole number from 0 to 99',
    );
  });
});
