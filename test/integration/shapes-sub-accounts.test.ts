/**
 * A sub-account create (4.10) answered as a success short of its keys: the account exists,
 * but the answer does not say its access_key and api_key. The add-on looks it up by name
 * (4.11 answers both), keeps the api key it found, and says how it got it; it never keeps a
 * key it was not given, and never stops on the answer's shape.
 */
import {offerDesk, recordsOf, typeRows} from '../support/offer-desk';

const SUB = '/api/open/v3/sub_adv_account';

describe.each([
  ['without api_key', ['api_key']],
  ['without data', ['data']],
])('a sub-account create answered %s', (_, fields) => {
  it('is looked up by name, its keys kept, the row OK saying so; acting as it signs with them', () => {
    const {rt, emulator} = offerDesk();
    rt.call('createSubAccounts');
    typeRows(rt, 'Sub-accounts', [
      {sub_adv_user_name: 'team_porto', password: 'pa55-word!'},
    ]);
    emulator.faults.add({kind: 'strip', fields, method: 'POST', path: SUB});
    emulator.clearRequests();

    expect(rt.call('createSubAccounts')).toMatchObject({ok: 1, error: 0});

    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      `POST ${SUB}`,
      `GET ${SUB}`,
    ]);
    const created = emulator.account('team_porto');
    expect(recordsOf(rt, 'Sub-accounts')[0]).toMatchObject({
      sub_adv_user_name: 'team_porto',
      password: '',
      access_key: created.access_key,
      sync_status: 'OK',
      sync_message:
        'Created (found by name: the answer to its create was lost or carried no keys): sub-account team_porto. Its api key is kept in your user properties, never in the sheet; the password cell was cleared.',
    });
    const stored = Object.values(rt.properties.user(rt.user).toObject());
    expect(stored.filter(v => v.includes(created.api_key))).toHaveLength(1);
    expect(stored.filter(v => v.includes('undefined'))).toEqual([]);

    rt.call('setActingAccount', 'team_porto');
    emulator.clearRequests();
    rt.call('refreshCampaigns');
    expect(emulator.requests.map(r => [r.path, r.account])).toEqual([
      ['/api/open/v3/campaign', 'team_porto'],
    ]);
  });
});
