import {SEEN_LIMIT, SettingsStore} from '../../../src/jobs/settings-store';
import {actingAccounts, selectRow} from '../../../src/jobs/host/sidebar';
import type {SheetPort, Workbook} from '../../../src/platform/ports';
import {ScriptedTransport, fakePlatform, ok} from '../../support/fakes';
import {RecordingUi} from './fakes';

function platformWith(rows: unknown[][] | null, acting = '') {
  const ui = new RecordingUi();
  const workbook = {
    sheet: (name: string) =>
      name === 'Sub-accounts' && rows
        ? ({readValues: () => rows} as unknown as SheetPort)
        : null,
  } as Workbook;
  const transport = new ScriptedTransport(() => ok({}));
  const platform = fakePlatform(transport, {
    ui,
    workbook: () => workbook,
  });
  if (acting) platform.userProperties.set('offerDesk.acting.doc-1', acting);
  return {platform, ui, transport};
}

describe('the accounts the sidebar offers', () => {
  it('lists the names in the Sub-accounts sheet, wherever its column is, without keys', () => {
    const {platform, transport} = platformWith([
      ['note', 'sub_adv_user_name', 'access_key', 'sync_status'],
      ['', 'team_b', 'ak-b', 'OK'],
      ['x', ' team_a ', 'ak-a', 'OK'],
      ['', '', '', ''],
      ['', 'team_b', 'ak-b', 'OK'],
    ]);
    expect(actingAccounts(platform)).toEqual({
      current: '',
      subAccounts: ['team_a', 'team_b'],
    });
    expect(transport.requests).toEqual([]);
  });

  it('offers every name whose keys the add-on got, the latest 200, not a row never created', () => {
    const {platform} = platformWith([
      ['sub_adv_user_name', 'password', 'access_key', 'sync_status'],
      ['refused_one', '', '', 'ERROR'],
      ['listed_one', '', 'ak-l', ''],
    ]);
    const store = new SettingsStore(platform.userProperties);
    const keys = {accessKey: 'ak', apiKey: 'secret-api-key'};
    for (let i = 0; i < 205; i++) store.put(`team_${i}`, keys);
    store.put('team_0', keys);
    const offered = actingAccounts(platform).subAccounts;
    expect(offered).toContain('team_0');
    expect(offered).toContain('team_204');
    expect(offered).not.toContain('team_1');
    expect(offered).toContain('listed_one');
    expect(offered).not.toContain('refused_one');
    expect(offered).toHaveLength(SEEN_LIMIT + 1);
    expect(JSON.stringify(offered)).not.toContain('secret-api-key');
    expect(
      platform.userProperties.get('offerDesk.seenSubAccounts')!.length,
    ).toBeLessThanOrEqual(9 * 1024);
  });

  it('forgets the names seen when the connection changes to another account', () => {
    const {platform} = platformWith(null);
    const store = new SettingsStore(platform.userProperties);
    const connection = {
      baseUrl: 'https://a.test',
      uploadBaseUrl: '',
      accessKey: 'main-1',
    };
    store.saveConnection(connection, 'k');
    store.put('team_x', {accessKey: 'ak', apiKey: 'k'});
    expect(actingAccounts(platform).subAccounts).toEqual(['team_x']);
    store.saveConnection({...connection, accessKey: 'main-2'}, 'k');
    expect(actingAccounts(platform).subAccounts).toEqual([]);
  });

  it('always lists the account acted as, even without the sheet', () => {
    const {platform} = platformWith(null, 'team_c');
    expect(actingAccounts(platform)).toEqual({
      current: 'team_c',
      subAccounts: ['team_c'],
    });
  });

  it('says every account is acted as, and offers no sub-account named "*"', () => {
    const {platform} = platformWith(null, '*');
    expect(actingAccounts(platform)).toEqual({current: '*', subAccounts: []});
  });
});

describe('selectRow', () => {
  it('selects the row in its sheet', () => {
    const {platform, ui} = platformWith(null);
    selectRow(platform, 'Budgets', 7);
    expect(ui.shown).toEqual([{kind: 'select', sheet: 'Budgets', row: 7}]);
  });

  it('says so when the sheet is gone or the row is not a row', () => {
    const {platform} = platformWith(null);
    expect(() => selectRow(platform, 'Old budgets', 7)).toThrow(
      'There is no sheet named "Old budgets" any more: it was renamed or deleted.',
    );
    expect(() => selectRow(platform, 'Budgets', 0)).toThrow(
      'Row 0 is not a row number.',
    );
  });
});
