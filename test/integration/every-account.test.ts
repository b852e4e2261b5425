/**
 * Acting as every account (DESIGN 4.2, 4.4) on the built add-on: the choice is kept per
 * spreadsheet as '*', sends nothing, and the connection test signs as the main account.
 */
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  AGENCY_SUB_ACCOUNTS,
  signedRequests,
  subAccountNames,
} from '../support/accounts';
import {offerDesk} from '../support/offer-desk';

describe('every account', () => {
  it('setActingAccount("*") is kept as "*", sends nothing, and getSettings says it', () => {
    const {rt, emulator} = offerDesk({subAccounts: AGENCY_SUB_ACCOUNTS});
    emulator.clearRequests();
    expect(rt.call('setActingAccount', '*')).toMatchObject({
      actingAccount: '*',
      accessKey: DEMO_ACCOUNTS.main.accessKey,
    });
    expect(rt.call('getSettings')).toMatchObject({actingAccount: '*'});
    expect(emulator.requests).toEqual([]);
    // The picker's list says who acts, and offers no sub-account named "*".
    rt.call('setActingAccount', 'agency_sub_05');
    rt.call('setActingAccount', '*');
    expect(rt.call('listActingAccounts')).toEqual({
      current: '*',
      subAccounts: ['agency_sub_05'],
    });
    expect(rt.call('setActingAccount', '')).toMatchObject({actingAccount: ''});
    expect(rt.call('getSettings')).toMatchObject({actingAccount: ''});
  });

  it("keeps the choice in the user's own properties, and needs a connection first", () => {
    const {rt} = offerDesk();
    rt.call('setActingAccount', '*');
    const user = rt.properties.user(rt.user).map;
    expect(user.get(`offerDesk.acting.${rt.spreadsheet.getId()}`)).toBe('*');
    expect(JSON.stringify(rt.properties.document.toObject())).not.toContain(
      'acting',
    );
    user.clear();
    expect(() => rt.call('setActingAccount', '*')).toThrow(
      /Offer Desk is not connected yet/,
    );
    expect(rt.call('getSettings')).toMatchObject({actingAccount: ''});
  });

  it('tests the connection with the main account, the one whose keys reach every account', () => {
    const {rt, emulator} = offerDesk({subAccounts: AGENCY_SUB_ACCOUNTS});
    expect(subAccountNames(emulator)).toHaveLength(AGENCY_SUB_ACCOUNTS + 2);
    rt.call('setActingAccount', '*');
    const since = emulator.requests.at(-1)?.seq ?? 0;
    expect(rt.call('testConnection')).toMatchObject({
      ok: true,
      account: 'every account',
      message:
        'Connected as the main account, which acts for every account: URL, keys and clock all work (5 campaigns visible).',
    });
    expect(signedRequests(emulator, since)).toEqual([
      {
        op: 'GET campaign',
        signer: DEMO_ACCOUNTS.main.name,
        query: {page: '1', limit: '1'},
      },
    ]);
  });
});
