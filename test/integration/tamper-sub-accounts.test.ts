/**
 * A Sub-accounts row to create with a credit typed in: the API takes a name and a password
 * only (4.10), so the create would show the server's answer over what was typed. The built
 * dist/Code.js in the local runtime against the emulator.
 */
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';

describe('createSubAccounts with credit typed in the row to create', () => {
  it('refuses the row, keeping what was typed, sends nothing; cleared, the next run creates it', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    typeInto(rt, 'Sub-accounts', 2, 'sub_adv_user_name', 'team_lisbon');
    typeInto(rt, 'Sub-accounts', 2, 'password', 'pa55-word!');
    typeInto(rt, 'Sub-accounts', 2, 'credit', '500');
    typeInto(rt, 'Sub-accounts', 2, 'is_unlimited_credit', 'TRUE');
    emulator.clearRequests();

    rt.call('createSubAccounts');

    expect(emulator.requests).toEqual([]);
    expect(recordsOf(rt, 'Sub-accounts')[0]).toEqual({
      sub_adv_user_name: 'team_lisbon',
      password: '',
      access_key: '',
      is_unlimited_credit: 'TRUE',
      credit: 500,
      sync_status: 'INVALID',
      sync_message:
        'is_unlimited_credit "TRUE", credit "500" cannot be set here: a sub-account is created from a name and a password only, and the API answers its credit itself; clear them to create the sub-account. Nothing was sent. The password was cleared so that collaborators do not see it: fix the row, type the password again and run Create sub-accounts.',
      synced_at: expect.any(Date),
    });

    typeInto(rt, 'Sub-accounts', 2, 'credit', '');
    typeInto(rt, 'Sub-accounts', 2, 'is_unlimited_credit', '');
    typeInto(rt, 'Sub-accounts', 2, 'password', 'pa55-word!');
    rt.call('createSubAccounts');
    expect(emulator.requests.map(r => r.body)).toEqual([
      {sub_adv_user_name: 'team_lisbon', password: 'pa55-word!'},
    ]);
    expect(recordsOf(rt, 'Sub-accounts')[0].sync_status).toBe('OK');
  });
});

describe('createSubAccounts with a password typed on the row of a sub-account that exists', () => {
  it('clears the password and says the API cannot change it; nothing is sent', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    typeInto(rt, 'Sub-accounts', 2, 'sub_adv_user_name', 'team_lisbon');
    typeInto(rt, 'Sub-accounts', 2, 'password', 'pa55-word!');
    rt.call('createSubAccounts');
    typeInto(rt, 'Sub-accounts', 2, 'password', 'new-pa55-word');
    emulator.clearRequests();

    const summary = rt.call('createSubAccounts') as Record<string, unknown>;

    expect(emulator.requests).toEqual([]);
    expect(summary).toMatchObject({ok: 0, invalid: 1});
    expect(recordsOf(rt, 'Sub-accounts')[0]).toMatchObject({
      password: '',
      access_key: emulator.account('team_lisbon').access_key,
      sync_status: 'INVALID',
      sync_message:
        'password: sub-account team_lisbon exists already (its access_key is filled), and the API cannot change a password, so nothing was sent. The password was cleared so that collaborators do not see it: to create another sub-account, write its name and a password in a new row.',
    });
  });
});
