import {DEMO_ACCOUNTS} from '../../../local/emulator';
import {createSubAccounts} from '../../../src/jobs/create/create-sub-accounts';
import {refreshSubAccounts} from '../../../src/jobs/refresh/refresh-sub-accounts';
import {SettingsStore} from '../../../src/jobs/settings-store';
import {setActingAccount} from '../../../src/jobs/host/settings';
import {SUB_ACCOUNTS} from '../../../src/sheets/schemas/sub-accounts';
import {createPlatform, fill} from './create-support';

const SUB = '/api/open/v3/sub_adv_account';

function allCells(env: ReturnType<typeof createPlatform>): string {
  return JSON.stringify(
    [...env.workbook.sheets.keys()].map(name => env.workbook.grid(name)),
  );
}

describe('createSubAccounts', () => {
  it("creates with the main account's keys, clears the password, keeps the api key in user properties only", () => {
    const env = createPlatform();
    setActingAccount(env.platform, DEMO_ACCOUNTS.subB.name);
    fill(env.workbook, SUB_ACCOUNTS, [
      {sub_adv_user_name: 'team_berlin', password: 's3cret-pass'},
    ]);
    env.emulator.clearRequests();
    const summary = createSubAccounts(env.platform);
    const created = env.emulator.account('team_berlin');
    expect(
      env.emulator.requests.map(r => [r.method, r.path, r.account, r.body]),
    ).toEqual([
      [
        'POST',
        SUB,
        'demo_adv',
        {sub_adv_user_name: 'team_berlin', password: 's3cret-pass'},
      ],
    ]);
    expect(env.workbook.records('Sub-accounts')[0]).toMatchObject({
      sub_adv_user_name: 'team_berlin',
      password: '',
      access_key: created.access_key,
      is_unlimited_credit: String(created.is_unlimited_credit),
      credit: created.credit,
      sync_status: 'OK',
      sync_message:
        'Created: sub-account team_berlin. Its api key is kept in your user properties, never in the sheet; the password cell was cleared.',
    });
    expect(
      new SettingsStore(env.platform.userProperties).get('team_berlin'),
    ).toEqual({
      accessKey: created.access_key,
      apiKey: created.api_key,
    });
    expect(allCells(env)).not.toContain(created.api_key);
    expect(allCells(env)).not.toContain('s3cret-pass');
    expect(summary).toMatchObject({
      job: 'createSubAccounts',
      account: 'main account',
      ok: 1,
      requests: 1,
    });
  });

  it('clears the password of a refused row too, saying so, and refuses a name used twice in the sheet before sending', () => {
    const env = createPlatform();
    fill(env.workbook, SUB_ACCOUNTS, [
      {sub_adv_user_name: 'ab', password: 'long-enough'},
      {sub_adv_user_name: 'twin_name', password: 'long-enough'},
      {sub_adv_user_name: 'twin_name', password: 'long-enough'},
      {password: 'long-enough'},
    ]);
    env.emulator.clearRequests();
    createSubAccounts(env.platform);
    expect(env.emulator.requests).toHaveLength(1);
    expect(
      env.workbook
        .records('Sub-accounts')
        .map(r => [r.password, r.sync_status, r.sync_message]),
    ).toEqual([
      [
        '',
        'ERROR',
        'POST sub_adv_account: code 10000 error [sub_adv_user_name: The sub_adv_user_name must be between 3 and 64 characters.]. Nothing was created. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
      ],
      [
        '',
        'INVALID',
        'sub_adv_user_name twin_name is also in Sub-accounts row 4: each sub-account has one row. Nothing was sent. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
      ],
      [
        '',
        'INVALID',
        'sub_adv_user_name twin_name is also in Sub-accounts row 3: each sub-account has one row. Nothing was sent. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
      ],
      [
        '',
        'INVALID',
        'sub_adv_user_name is empty: write the user name of the sub-account to create. Nothing was sent. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
      ],
    ]);
  });

  it('a create whose answer was lost is looked up by name, never sent twice', () => {
    const env = createPlatform();
    fill(env.workbook, SUB_ACCOUNTS, [
      {sub_adv_user_name: 'team_paris', password: 'long-enough'},
    ]);
    env.emulator.faults.configure({
      rules: [{kind: 'drop', method: 'POST', path: SUB, count: 1}],
    });
    env.emulator.clearRequests();
    createSubAccounts(env.platform);
    expect(env.emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      `POST ${SUB}`,
      `GET ${SUB}`,
    ]);
    expect(env.workbook.records('Sub-accounts')[0]).toMatchObject({
      password: '',
      access_key: env.emulator.account('team_paris').access_key,
      sync_status: 'OK',
    });
  });
});

describe('refreshSubAccounts', () => {
  it('falls back to the names in the sheet when the API will not list them all, and keeps rows waiting for creation', () => {
    const env = createPlatform();
    fill(env.workbook, SUB_ACCOUNTS, [
      {sub_adv_user_name: DEMO_ACCOUNTS.subA.name},
      {sub_adv_user_name: 'not_yet', password: 'long-enough'},
      {sub_adv_user_name: 'ghost'},
    ]);
    setActingAccount(env.platform, DEMO_ACCOUNTS.subA.name);
    env.emulator.clearRequests();
    const summary = refreshSubAccounts(env.platform);
    expect(
      env.emulator.requests.map(r => [r.path, r.query, r.account]),
    ).toEqual([
      [SUB, {page: '1', limit: '50'}, 'demo_adv'],
      [SUB, {sub_adv_user_name: DEMO_ACCOUNTS.subA.name}, 'demo_adv'],
      [SUB, {sub_adv_user_name: 'ghost'}, 'demo_adv'],
    ]);
    const rows = env.workbook.records('Sub-accounts');
    expect(
      rows.map(r => [
        r.sub_adv_user_name,
        r.password,
        r.access_key,
        r.sync_status,
      ]),
    ).toEqual([
      [DEMO_ACCOUNTS.subA.name, '', DEMO_ACCOUNTS.subA.accessKey, ''],
      ['not_yet', 'long-enough', '', ''],
      ['ghost', '', '', 'INVALID'],
    ]);
    expect(allCells(env)).not.toContain(DEMO_ACCOUNTS.subA.apiKey);
    expect(summary).toMatchObject({
      job: 'refreshSubAccounts',
      ok: 1,
      invalid: 1,
      requests: 3,
    });
  });
});
