/**
 * Issue 13, part 3: the campaign rules the sheets can check locally are checked before a push
 * (campaign_name unique, icon a 512x512 image among the known materials, no cell longer than
 * any field takes). The built dist/Code.js in the local runtime against the emulator.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';

const CAMPAIGN = '/api/open/v3/campaign';

interface Desk {
  rt: Runtime;
  emulator: Emulator;
  /** Campaign ids in sheet order. */
  ids: number[];
}

/** Five editable APP campaigns; Campaigns refreshed (and Creatives when asked). */
function desk(refreshCreatives: boolean): Desk {
  const {rt, emulator} = offerDesk({campaigns: 5, materials: 10});
  for (const id of emulator.account('demo_adv').campaigns.keys()) {
    emulator.updateCampaign(id, {
      maintain_by: 'ADV',
      promotion_type: 'APP',
      min_version: '5.0',
    });
  }
  rt.call('refreshCampaigns');
  if (refreshCreatives) rt.call('refreshCreatives');
  const ids = recordsOf(rt, 'Campaigns').map(r => Number(r.campaign_id));
  emulator.clearRequests();
  return {rt, emulator, ids};
}

const type = (d: Desk, i: number, header: string, text: string) =>
  typeInto(d.rt, 'Campaigns', i + 2, header, text);

const nameOf = (d: Desk, i: number) =>
  String(recordsOf(d.rt, 'Campaigns')[i].campaign_name);

/** sync_status and sync_message of Campaigns rows `rows`. */
const statuses = (d: Desk, rows: number[]) => {
  const records = recordsOf(d.rt, 'Campaigns');
  return rows.map(i => [records[i].sync_status, records[i].sync_message]);
};

/** Each request sent, as `METHOD path body`. */
const sent = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path} ${JSON.stringify(r.body)}`);

/** A PUT campaign as `sent` shows it (the add-on sends campaign_id first). */
const put = (body: Record<string, unknown>) =>
  `PUT ${CAMPAIGN} ${JSON.stringify(body)}`;

describe('pushCampaigns: campaign_name is unique', () => {
  it('refuses a name another campaign has, or one given twice in the push; sends the rest', () => {
    const d = desk(false);
    const taken = nameOf(d, 1);
    type(d, 0, 'campaign_name', taken.toUpperCase());
    type(d, 2, 'campaign_name', 'Spring Launch');
    type(d, 3, 'campaign_name', 'spring launch');
    type(d, 4, 'campaign_name', 'Autumn Launch');

    const summary = d.rt.call('pushCampaigns') as Record<string, unknown>;

    expect(summary).toMatchObject({ok: 1, invalid: 3, requests: 1});
    expect(sent(d.emulator)).toEqual([
      put({campaign_id: d.ids[4], campaign_name: 'Autumn Launch'}),
    ]);
    expect(statuses(d, [0, 2, 3, 4])).toEqual([
      [
        'INVALID',
        `campaign_name: campaign_name "${taken.toUpperCase()}" is already used by campaign ${d.ids[1]}: campaign names are unique in the account (ignoring case)`,
      ],
      [
        'INVALID',
        `campaign_name: campaign_name "Spring Launch" is also given to campaign ${d.ids[3]} (Campaigns row 5) in this push: campaign names are unique in the account (ignoring case)`,
      ],
      [
        'INVALID',
        `campaign_name: campaign_name "spring launch" is also given to campaign ${d.ids[2]} (Campaigns row 4) in this push: campaign names are unique in the account (ignoring case)`,
      ],
      ['OK', 'Pushed campaign_name.'],
    ]);
    // What the user typed is kept, and a re-run sends nothing for the refused rows.
    expect(nameOf(d, 2)).toBe('Spring Launch');
    d.emulator.clearRequests();
    d.rt.call('pushCampaigns');
    expect(d.emulator.requests).toEqual([]);
  });
});

describe('pushCampaigns: icon is a 512x512 image among the known materials', () => {
  const materials = (emulator: Emulator) => [
    ...emulator.account('demo_adv').materials.values(),
  ];

  it('refuses a video, an image of another size and an unknown md5; sends a 512x512 image', () => {
    const d = desk(true);
    const all = materials(d.emulator);
    const video = all.find(m => m.creative_type === 'VIDEO')!;
    const wide = all.find(
      m => m.creative_type === 'IMAGE' && m.resolution !== '512x512',
    )!;
    const icon = all.find(m => m.resolution === '512x512')!;
    const unknown = 'ffffffffffffffffffffffffffffffff';
    // Campaign 3 has no icon yet: the md5 typed in capitals is a change, sent in lower case.
    d.emulator.updateCampaign(d.ids[3], {icon: ''});
    d.rt.call('refreshCampaigns');
    d.emulator.clearRequests();
    type(d, 0, 'icon', video.creative_md5);
    type(d, 1, 'icon', wide.creative_md5);
    type(d, 2, 'icon', unknown);
    type(d, 3, 'icon', icon.creative_md5.toUpperCase());

    d.rt.call('pushCampaigns');

    expect(sent(d.emulator)).toEqual([
      put({campaign_id: d.ids[3], icon: icon.creative_md5}),
    ]);
    expect(statuses(d, [0, 1, 2, 3])).toEqual([
      [
        'INVALID',
        'icon: icon must be an IMAGE material (Creatives lists it as VIDEO)',
      ],
      [
        'INVALID',
        `icon: icon must be a 512x512 image (Creatives lists it as ${wide.resolution})`,
      ],
      [
        'INVALID',
        'icon: icon is not among your materials (Creatives, as last refreshed): refresh Creatives, or upload the image first',
      ],
      ['OK', 'Pushed icon.'],
    ]);
  });

  it('before Creatives was ever refreshed, an md5 it cannot judge is sent and the API decides', () => {
    const d = desk(false);
    type(d, 0, 'icon', 'ffffffffffffffffffffffffffffffff');

    d.rt.call('pushCampaigns');

    expect(sent(d.emulator)).toEqual([
      put({campaign_id: d.ids[0], icon: 'ffffffffffffffffffffffffffffffff'}),
    ]);
    expect(statuses(d, [0])[0][0]).toBe('ERROR');
  });
});

describe('pushCampaigns: a 50,000-character cell', () => {
  it('makes its row INVALID with a short message; the other edits are sent', () => {
    const d = desk(false);
    type(d, 0, 'description', 'd'.repeat(50000));
    type(d, 1, 'package_name', `com.${'p'.repeat(49996)}`);
    type(d, 2, 'description', 'A short description.');

    d.rt.call('pushCampaigns');

    expect(sent(d.emulator)).toEqual([
      put({campaign_id: d.ids[2], description: 'A short description.'}),
    ]);
    const rows = statuses(d, [0, 1]);
    expect(rows).toEqual([
      [
        'INVALID',
        'description: description may have 4000 characters at most (it has 50000)',
      ],
      [
        'INVALID',
        `package_name: package_name may have 4000 characters at most (it has 50000: "com.${'p'.repeat(33)}..." (50000 characters))`,
      ],
    ]);
    for (const [, message] of rows)
      expect(String(message).length).toBeLessThan(300);
  });
});

describe('pushCampaigns reads what its rules need once', () => {
  it('reads the state sheet once, however many campaigns changed', () => {
    const d = desk(true);
    const state = d.rt.spreadsheet.getSheetByName('Offer Desk state')!;
    let reads = 0;
    const dataRange = state.getDataRange.bind(state);
    (state as unknown as {getDataRange: unknown}).getDataRange = () => {
      reads++;
      return dataRange();
    };
    for (let i = 0; i < 3; i++) type(d, i, 'description', `Updated ${i}`);
    const summary = d.rt.call('pushCampaigns') as {ok: number};
    expect(summary.ok).toBe(3);
    expect(reads).toBe(1);
  });
});

describe('revertChange checks campaigns with the push rules', () => {
  it('does not put back a name another campaign took since: the row says why, nothing staged or sent', () => {
    const d = desk(false);
    const first = nameOf(d, 0);
    type(d, 0, 'campaign_name', 'Renamed One');
    const renamed = d.rt.call('pushCampaigns') as {changeId: string};
    // The old name is free now: another campaign takes it.
    type(d, 1, 'campaign_name', first);
    expect(d.rt.call('pushCampaigns')).toMatchObject({ok: 1});
    d.emulator.clearRequests();

    const summary = d.rt.call('revertChange', renamed.changeId);

    expect(summary).toMatchObject({edited: 0});
    expect(nameOf(d, 0)).toBe('Renamed One');
    expect(statuses(d, [0])).toEqual([
      [
        'OK',
        `Not reverted: a push would refuse the values before change ${renamed.changeId} (campaign_name: campaign_name "${first}" is already used by campaign ${d.ids[1]}: campaign names are unique in the account (ignoring case)). Your rows are unchanged.`,
      ],
    ]);
    d.rt.call('pushCampaigns');
    expect(d.emulator.requests).toEqual([]);
  });
});
