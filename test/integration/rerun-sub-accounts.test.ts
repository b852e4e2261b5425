/**
 * "A re-run always moves forward: nothing stuck, nothing twice", for Create sub-accounts (the
 * menu's rows and the sidebar's single form): Apps Script stops the run while the create is
 * out, the server having made the sub-account, and the job is run again. The built
 * dist/Code.js in the local runtime against the emulator.
 */
import {EXCEEDED_TIME, Runtime, type RuntimeOptions} from '../../local/runtime';
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';
import {RELEASE_3, upgradeToThisRelease} from '../support/releases';

const SUB = '/api/open/v3/sub_adv_account';
const PASSWORD = 'pa55-word!';

/** The Sub-accounts sheet pulled; every create takes longer than an execution may last. */
function deskKilledOnCreate(runtime: RuntimeOptions = {}) {
  const desk = offerDesk({}, runtime);
  desk.rt.call('refreshSubAccounts');
  desk.emulator.clearRequests();
  desk.emulator.faults.add({
    kind: 'slow',
    method: 'POST',
    path: SUB,
    latencyMs: 400000,
  });
  return desk;
}

/**
 * A new Sub-accounts row of `name` and a password whose create was stopped while out (by the
 * add-on `runtime` loads); the faults then cleared and the requests forgotten.
 */
function createStopped(name: string, runtime: RuntimeOptions = {}) {
  const desk = deskKilledOnCreate(runtime);
  const {rt, emulator} = desk;
  const at = recordsOf(rt, 'Sub-accounts').length + 2;
  typeInto(rt, 'Sub-accounts', at, 'sub_adv_user_name', name);
  typeInto(rt, 'Sub-accounts', at, 'password', PASSWORD);
  expect(() => rt.call('createSubAccounts')).toThrow(EXCEEDED_TIME);
  emulator.faults.clear();
  emulator.clearRequests();
  return {...desk, at};
}

const sent = (desk: ReturnType<typeof offerDesk>) =>
  desk.emulator.requests.map(r => `${r.method} ${r.path}`);

function row(rt: Runtime, name: string) {
  const r = recordsOf(rt, 'Sub-accounts').find(
    x => x.sub_adv_user_name === name,
  )!;
  return [r.password, r.access_key, r.sync_status, r.sync_message];
}

describe('Create sub-accounts stopped while its create is out', () => {
  it('the row says the create was sent, its password cleared; the re-run looks it up, sends no second create, and the account works', () => {
    const desk = deskKilledOnCreate();
    const {rt, emulator} = desk;
    const at = recordsOf(rt, 'Sub-accounts').length + 2;
    typeInto(rt, 'Sub-accounts', at, 'sub_adv_user_name', 'team_porto');
    typeInto(rt, 'Sub-accounts', at, 'password', PASSWORD);

    expect(() => rt.call('createSubAccounts')).toThrow(EXCEEDED_TIME);
    expect(sent(desk)).toEqual([`POST ${SUB}`]);
    expect(row(rt, 'team_porto')).toEqual([
      '',
      '',
      'ERROR',
      expect.stringMatching(
        /^Create sent as sub_adv_user_name team_porto at \S+, but its answer was never recorded\. The password was cleared so that collaborators do not see it: run Create sub-accounts again; it looks the sub-account up by name before sending anything\.$/,
      ),
    ]);

    emulator.faults.clear();
    emulator.clearRequests();
    // A preview sends nothing and leaves the marker the real run looks the name up by.
    const marked = row(rt, 'team_porto');
    expect(rt.call('createSubAccounts', {dryRun: true})).toMatchObject({
      requests: 0,
    });
    expect(emulator.requests).toEqual([]);
    expect(row(rt, 'team_porto')).toEqual(marked);
    expect(rt.call('createSubAccounts')).toMatchObject({ok: 1, error: 0});
    expect(sent(desk)).toEqual([`GET ${SUB}`]);
    expect(row(rt, 'team_porto')).toEqual([
      '',
      emulator.account('team_porto').access_key,
      'OK',
      'Created by an earlier run (found by name: an earlier run sent the create of sub-account team_porto and never recorded its answer): sub-account team_porto. Its api key is kept in your user properties, never in the sheet; the password cell was cleared.',
    ]);
    // Its api key was kept: acting as it signs its requests.
    rt.call('setActingAccount', 'team_porto');
    expect(rt.call('refreshCampaigns')).toMatchObject({error: 0});
    emulator.clearRequests();
    rt.call('setActingAccount', '');
    expect(rt.call('createSubAccounts')).toMatchObject({requests: 0});
  });

  it('a row renamed between the runs is the account its create made, and says what it was renamed to', () => {
    const desk = createStopped('team_porto');
    const {rt, emulator, at} = desk;
    typeInto(rt, 'Sub-accounts', at, 'sub_adv_user_name', 'team_braga');

    expect(rt.call('createSubAccounts')).toMatchObject({ok: 1, error: 0});
    expect(sent(desk)).toEqual([`GET ${SUB}`]);
    expect(row(rt, 'team_porto')).toEqual([
      '',
      emulator.account('team_porto').access_key,
      'OK',
      expect.stringContaining(
        'never recorded its answer; this row said team_braga since: write it in a new row to create that one too): sub-account team_porto.',
      ),
    ]);
  });

  it('its status cleared and the password typed again: the re-run still looks it up first, and sends no second create', () => {
    const desk = createStopped('team_evora');
    const {rt, emulator, at} = desk;
    typeInto(rt, 'Sub-accounts', at, 'sync_status', '');
    typeInto(rt, 'Sub-accounts', at, 'sync_message', '');
    typeInto(rt, 'Sub-accounts', at, 'password', PASSWORD);

    expect(rt.call('createSubAccounts')).toMatchObject({ok: 1, error: 0});
    expect(sent(desk)).toEqual([`GET ${SUB}`]);
    expect(row(rt, 'team_evora')).toEqual([
      '',
      emulator.account('team_evora').access_key,
      'OK',
      expect.stringMatching(/^Created by an earlier run \(found by name/),
    ]);
  });

  it('stopped under the release before the outbox: this release reads its marker in and looks the name up, sending no second create', () => {
    const desk = createStopped('team_beja', {distDir: RELEASE_3});
    const {rt} = desk;
    upgradeToThisRelease(rt);

    expect(rt.call('createSubAccounts')).toMatchObject({ok: 1, error: 0});
    expect(sent(desk)).toEqual([`GET ${SUB}`]);
    expect(row(rt, 'team_beja')[2]).toBe('OK');
  });

  it('the sidebar form: the same name and password again look it up instead of creating it twice', () => {
    const desk = deskKilledOnCreate();
    const {rt, emulator} = desk;
    expect(() =>
      rt.call('createSubAccount', 'team_faro', 'a-Password-1'),
    ).toThrow(EXCEEDED_TIME);
    expect(sent(desk)).toEqual([`POST ${SUB}`]);

    emulator.faults.clear();
    emulator.clearRequests();
    expect(
      rt.call('createSubAccount', 'team_faro', 'a-Password-1'),
    ).toMatchObject({ok: 1, error: 0});
    expect(sent(desk)).toEqual([`GET ${SUB}`]);
    expect(row(rt, 'team_faro')).toEqual([
      '',
      emulator.account('team_faro').access_key,
      'OK',
      expect.stringMatching(/^Created by an earlier run \(found by name/),
    ]);
  });
});
