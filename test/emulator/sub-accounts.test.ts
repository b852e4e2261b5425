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
});
