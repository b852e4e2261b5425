/**
 * Issue 15: a password typed in Sub-accounts is readable by every collaborator, so Create
 * sub-accounts clears every password it reads, whatever the outcome, and the row says so. The
 * built dist/Code.js in the local runtime against the emulator, the rows typed as a person would.
 */
import type {FaultRule} from '../../local/emulator';
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';

const SUB = '/api/open/v3/sub_adv_account';
const PASSWORD = 'pa55-word!';

/** Types one Sub-accounts row, runs the job, answers the requests sent and the row after. */
function createOne(name: string, faults: FaultRule[] = []) {
  const {rt, emulator} = offerDesk();
  rt.call('refreshSubAccounts');
  const row = recordsOf(rt, 'Sub-accounts').length + 2;
  if (name) typeInto(rt, 'Sub-accounts', row, 'sub_adv_user_name', name);
  typeInto(rt, 'Sub-accounts', row, 'password', PASSWORD);
  emulator.faults.configure({rules: faults});
  emulator.clearRequests();
  const summary = rt.call('createSubAccounts') as Record<string, unknown>;
  const after = recordsOf(rt, 'Sub-accounts')[row - 2];
  const everything = JSON.stringify(
    rt.spreadsheet.getSheets().map(s => s.getDataRange().getValues()),
  );
  return {
    emulator,
    summary,
    requests: emulator.requests.map(r => [r.method, r.path, r.body ?? r.query]),
    row: [
      after.password,
      after.access_key,
      after.sync_status,
      after.sync_message,
    ],
    passwordInSheet: everything.includes(PASSWORD),
  };
}

describe('Create sub-accounts clears every password it reads', () => {
  it('created: cleared, as before', () => {
    const run = createOne('team_lisbon');
    expect(run.requests).toEqual([
      ['POST', SUB, {sub_adv_user_name: 'team_lisbon', password: PASSWORD}],
    ]);
    expect(run.row).toEqual([
      '',
      run.emulator.account('team_lisbon').access_key,
      'OK',
      'Created: sub-account team_lisbon. Its api key is kept in your user properties, never in the sheet; the password cell was cleared.',
    ]);
    expect(run.passwordInSheet).toBe(false);
  });

  it('refused here (no name): nothing sent, cleared, the row says so', () => {
    const run = createOne('');
    expect(run.requests).toEqual([]);
    expect(run.row).toEqual([
      '',
      '',
      'INVALID',
      'sub_adv_user_name is empty: write the user name of the sub-account to create. Nothing was sent. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
    ]);
    expect(run.passwordInSheet).toBe(false);
  });

  it('refused by the API: cleared, the row says so', () => {
    const run = createOne('ab');
    expect(run.requests).toEqual([
      ['POST', SUB, {sub_adv_user_name: 'ab', password: PASSWORD}],
    ]);
    expect(run.row).toEqual([
      '',
      '',
      'ERROR',
      'POST sub_adv_account: code 10000 error [sub_adv_user_name: The sub_adv_user_name must be between 3 and 64 characters.]. Nothing was created. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
    ]);
    expect(run.passwordInSheet).toBe(false);
    expect(run.summary).toMatchObject({ok: 0, error: 1});
  });

  it('outcome unknown, then not found by name: cleared, the row says so', () => {
    const run = createOne('team_porto', [
      {kind: 'drop', method: 'POST', path: SUB, count: 1, applied: false},
    ]);
    expect(run.requests).toEqual([
      ['POST', SUB, {sub_adv_user_name: 'team_porto', password: PASSWORD}],
      ['GET', SUB, {sub_adv_user_name: 'team_porto'}],
    ]);
    expect(run.row[0]).toBe('');
    expect(run.row[2]).toBe('ERROR');
    expect(run.row[3]).toMatch(
      /; no sub-account team_porto exists, so it was not created\. The password was cleared so that collaborators do not see it: type the password again and run Create sub-accounts\.$/,
    );
    expect(run.passwordInSheet).toBe(false);
  });

  it('outcome unknown, and the lookup fails too: cleared, the row says how to find out', () => {
    const run = createOne('team_braga', [
      {kind: 'drop', method: 'POST', path: SUB, count: 1, applied: false},
      {kind: 'error', method: 'GET', path: SUB, status: 503},
    ]);
    expect(run.requests[0]).toEqual([
      'POST',
      SUB,
      {sub_adv_user_name: 'team_braga', password: PASSWORD},
    ]);
    expect(run.row[0]).toBe('');
    expect(run.row[2]).toBe('ERROR');
    expect(run.row[3]).toMatch(
      /, and looking the sub-account up failed too \(.*\): it may or may not exist\. The password was cleared so that collaborators do not see it: run Refresh sub-accounts, which looks the name up; if it finds no access_key, type the password again and run Create sub-accounts\.$/,
    );
    expect(run.passwordInSheet).toBe(false);
  });
});

describe('Create sub-accounts near the time limit', () => {
  it('clears the password of a row not reached, and says to type it again', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    const first = recordsOf(rt, 'Sub-accounts').length + 2;
    // One batch is 100 creates; the 101st row waits for a second batch.
    for (let i = 0; i <= 100; i++) {
      typeInto(rt, 'Sub-accounts', first + i, 'sub_adv_user_name', `team_${i}`);
      typeInto(rt, 'Sub-accounts', first + i, 'password', PASSWORD);
    }
    emulator.faults.configure({
      rules: [
        {kind: 'slow', method: 'POST', path: SUB, latencyMs: 280_000, count: 1},
      ],
    });
    emulator.clearRequests();
    const summary = rt.call('createSubAccounts') as Record<string, unknown>;
    expect(summary).toMatchObject({ok: 100, remaining: 1});
    expect(emulator.requests.filter(r => r.method === 'POST')).toHaveLength(
      100,
    );
    const last = recordsOf(rt, 'Sub-accounts')[first - 2 + 100];
    expect([
      last.sub_adv_user_name,
      last.password,
      last.sync_status,
      last.sync_message,
    ]).toEqual([
      'team_100',
      '',
      'EDITED',
      'Not sent yet: the time ran out. The password was cleared so that collaborators do not see it: type the password again and run Create sub-accounts to continue.',
    ]);
    const everything = JSON.stringify(
      rt.spreadsheet.getSheets().map(s => s.getDataRange().getValues()),
    );
    expect(everything).not.toContain(PASSWORD);
  });
});

describe("the sidebar's New sub-account form (createSubAccount)", () => {
  it('creates with the password sent to the API only: no cell ever holds it', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    const before = recordsOf(rt, 'Sub-accounts').length;
    emulator.clearRequests();
    const summary = rt.call('createSubAccount', ' team_faro ', PASSWORD);
    expect(summary).toMatchObject({ok: 1, error: 0, requests: 1});
    expect(emulator.requests.map(r => [r.method, r.path, r.body])).toEqual([
      ['POST', SUB, {sub_adv_user_name: 'team_faro', password: PASSWORD}],
    ]);
    const rows = recordsOf(rt, 'Sub-accounts');
    expect(rows).toHaveLength(before + 1);
    expect(rows[before]).toMatchObject({
      sub_adv_user_name: 'team_faro',
      password: '',
      access_key: emulator.account('team_faro').access_key,
      sync_status: 'OK',
    });
    const everything = JSON.stringify(
      rt.spreadsheet.getSheets().map(s => s.getDataRange().getValues()),
    );
    expect(everything).not.toContain(PASSWORD);
    expect(
      (rt.call('listActingAccounts') as {subAccounts: string[]}).subAccounts,
    ).toContain('team_faro');
  });

  it('a refusal goes to a row without the password; an existing name or a blank field sends nothing', () => {
    const {rt, emulator} = offerDesk();
    rt.call('createSubAccount', 'ab', PASSWORD);
    const row = recordsOf(rt, 'Sub-accounts').find(
      r => r.sub_adv_user_name === 'ab',
    )!;
    expect([row.password, row.sync_status, row.sync_message]).toEqual([
      '',
      'ERROR',
      'POST sub_adv_account: code 10000 error [sub_adv_user_name: The sub_adv_user_name must be between 3 and 64 characters.]. Nothing was created. The password typed in the sidebar went to the API only and is kept nowhere: correct the name or password and create it again in the sidebar.',
    ]);
    rt.call('createSubAccount', 'team_faro', PASSWORD);
    emulator.clearRequests();
    expect(() => rt.call('createSubAccount', 'team_faro', PASSWORD)).toThrow(
      /^Sub-account team_faro already exists \(Sub-accounts row \d+ has its access_key\)\. Nothing was sent\.$/,
    );
    expect(() => rt.call('createSubAccount', 'team_new', '')).toThrow(
      'Type the password of sub-account team_new. Nothing was sent.',
    );
    expect(() => rt.call('createSubAccount', ' ', PASSWORD)).toThrow(
      'Write the user name of the sub-account to create. Nothing was sent.',
    );
    expect(emulator.requests).toEqual([]);
  });
});
