/**
 * Issue 14: the History of the create jobs (offers with their tracking and uploads, materials,
 * sub-accounts), and the revert of a create change, which the API cannot undo. The built
 * dist/Code.js in the local Apps Script runtime against the Open API emulator.
 */
import type {Emulator} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {driveFiles} from '../support/materials';
import {
  cpiOfferRow,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  typeInto,
  typeRows,
  valuesOf,
} from '../support/offer-desk';

const OFFER = '/api/open/v3/offer';
const PASSWORD = 'pa55-word!';

interface Summary {
  message: string;
  ok: number;
  changeId?: string;
}

/** History rows as [sheet, record, field, before, after, outcome, message] of one change. */
function historyOf(rt: Runtime, changeId: string | undefined) {
  return recordsOf(rt, 'History')
    .filter(r => r.change_id === changeId)
    .map(r => [
      r.sheet,
      r.record,
      r.field,
      r.before,
      r.after,
      r.outcome,
      r.message,
    ]);
}

/** Every cell of every sheet, by name. */
const allSheets = (rt: Runtime) =>
  rt.spreadsheet
    .getSheets()
    .map(s => [s.getName(), s.getDataRange().getValues()]);

/** Reverting a create change: says it cannot, changes nothing, sends nothing. */
function revertChangesNothing(
  rt: Runtime,
  emulator: Emulator,
  changeId: string,
): string {
  const sheets = allSheets(rt);
  emulator.clearRequests();
  const reverted = rt.call('revertChange', changeId) as Summary;
  expect(emulator.requests).toEqual([]);
  expect(allSheets(rt)).toEqual(sheets);
  return reverted.message;
}

/** One offer with tracking, its set using a material still to upload from Drive. */
function offerWithUpload() {
  const drive = driveFiles({'1HeroImageFileId': ['hero.png', 'hero image']});
  const desk = offerDesk({offers: 2}, {drive});
  const {rt, emulator} = desk;
  expect(rt.call('createOffers')).toMatchObject({ok: 0});
  typeRows(rt, 'Creatives', [
    {file: '1HeroImageFileId', creative_name: 'hero'},
  ]);
  const campaignId = deliverableCampaign(emulator);
  typeRows(rt, 'New Offers', [cpiOfferRow(campaignId, 'launch_us')]);
  typeRows(rt, 'Creative Sets', [
    {
      offer_name: 'launch_us',
      creative_set_name: 'images',
      geos: 'ALL',
      ad_outputs: '111',
      creatives: 'hero',
    },
  ]);
  emulator.clearRequests();
  return desk;
}

describe('History of createOffers', () => {
  it('records the upload, the offer created and its tracking; a revert says they cannot be undone and changes nothing', () => {
    const {rt, emulator} = offerWithUpload();
    const created = rt.call('createOffers') as Summary;
    expect(created.ok).toBe(1);
    const [offer] = recordsOf(rt, 'New Offers');
    const offerId = String(offer.offer_id);
    const [material] = recordsOf(rt, 'Creatives').filter(
      r => r.creative_name === 'hero',
    );
    const md5 = String(material.creative_md5);
    expect(md5).toMatch(/^[0-9a-f]{32}$/);
    expect(historyOf(rt, created.changeId)).toEqual([
      [
        'Creatives',
        md5,
        'material uploaded',
        '',
        'hero',
        'OK',
        material.sync_message,
      ],
      [
        'New Offers',
        offerId,
        'offer created',
        '',
        'launch_us',
        'OK',
        `Offer ${offerId} created.`,
      ],
      ...[
        ['tracking_method', 'APPSFLYER'],
        ['click_url', 'https://track.example.com/click?o=launch_us'],
        ['support_server_click', 'NO'],
      ].map(([field, after]) => [
        'New Offers',
        offerId,
        field,
        '',
        after,
        'OK',
        offer.sync_message,
      ]),
    ]);
    expect(offer.sync_message).toBe(`Offer ${offerId} created; tracking set.`);
    expect(recordsOf(rt, 'History')[0]).toMatchObject({
      job: 'createOffers',
      account: '(main account)',
      user: 'user@example.com',
    });

    expect(revertChangesNothing(rt, emulator, created.changeId!)).toBe(
      'Nothing put back. Nothing was sent. 1 record of Creatives cannot be reverted: the API cannot delete what was created or uploaded. They stay as they are. 1 record of New Offers cannot be reverted: the API cannot delete what was created or uploaded. They stay as they are.',
    );
  });

  it('records a create whose answer was lost as OK when it is found by name', () => {
    const {rt, emulator} = offerWithUpload();
    emulator.faults.add({kind: 'drop', method: 'POST', path: OFFER, count: 1});
    const created = rt.call('createOffers') as Summary;
    const [offer] = recordsOf(rt, 'New Offers');
    expect(offer.sync_status).toBe('OK');
    expect(
      historyOf(rt, created.changeId).filter(r => r[2] === 'offer created'),
    ).toEqual([
      [
        'New Offers',
        String(offer.offer_id),
        'offer created',
        '',
        'launch_us',
        'OK',
        `Offer ${offer.offer_id} created (the answer to its create was lost; found by name).`,
      ],
    ]);
  });

  it('records a create whose answer was lost and that is not listed as UNKNOWN, by its name', () => {
    const {rt, emulator} = offerWithUpload();
    emulator.faults.add({
      kind: 'drop',
      method: 'POST',
      path: OFFER,
      count: 1,
      applied: false,
    });
    const created = rt.call('createOffers') as Summary;
    const [offer] = recordsOf(rt, 'New Offers');
    expect(offer).toMatchObject({sync_status: 'ERROR', offer_id: ''});
    const rows = historyOf(rt, created.changeId);
    expect(rows.map(r => r.slice(0, 6))).toEqual([
      [
        'Creatives',
        expect.stringMatching(/^[0-9a-f]{32}$/),
        'material uploaded',
        '',
        'hero',
        'OK',
      ],
      ['New Offers', 'launch_us', 'offer created', '', 'launch_us', 'UNKNOWN'],
    ]);
    expect(rows[1][6]).toBe(offer.sync_message);
  });

  it('records a create refused with a verdict as ERROR, by its name; the unchanged re-run records nothing', () => {
    const {rt, emulator} = offerWithUpload();
    emulator.setPermissions('demo_adv', ['CPE']);
    const refused = rt.call('createOffers') as Summary;
    const [offer] = recordsOf(rt, 'New Offers');
    expect(offer).toMatchObject({sync_status: 'ERROR', offer_id: ''});
    const rows = historyOf(rt, refused.changeId);
    expect(rows.map(r => r[2])).toEqual(['material uploaded', 'offer created']);
    expect(rows[1]).toEqual([
      'New Offers',
      'launch_us',
      'offer created',
      '',
      'launch_us',
      'ERROR',
      offer.sync_message,
    ]);
    const history = recordsOf(rt, 'History');
    emulator.clearRequests();
    const again = rt.call('createOffers') as Summary;
    expect(emulator.requests).toEqual([]);
    expect(again.changeId).toBeUndefined();
    expect(recordsOf(rt, 'History')).toEqual(history);
  });
});

describe('History of uploadCreatives', () => {
  it('records each material uploaded by its md5; a revert changes nothing', () => {
    const drive = driveFiles({'1SpringFileId': ['spring.png', 'spring bytes']});
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('refreshCreatives');
    const first = valuesOf(rt, 'Creatives').length + 1;
    typeRows(rt, 'Creatives', [{file: '1SpringFileId'}], first);
    const uploaded = rt.call('uploadCreatives') as Summary;
    const row = recordsOf(rt, 'Creatives')[first - 2];
    expect(historyOf(rt, uploaded.changeId)).toEqual([
      [
        'Creatives',
        row.creative_md5,
        'material uploaded',
        '',
        'spring',
        'OK',
        `Uploaded: creative_md5 ${row.creative_md5}, creative_name spring.`,
      ],
    ]);
    expect(revertChangesNothing(rt, emulator, uploaded.changeId!)).toBe(
      'Nothing put back. Nothing was sent. 1 record of Creatives cannot be reverted: the API cannot delete what was created or uploaded. They stay as they are.',
    );
  });
});

describe('History of sub-accounts created', () => {
  const created = (name: string, password = 'the password cell was cleared') =>
    `Created: sub-account ${name}. Its api key is kept in your user properties, never in the sheet; ${password}.`;

  it('createSubAccounts: "sub-account created" and "password" (set), never the password', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    const row = recordsOf(rt, 'Sub-accounts').length + 2;
    typeInto(rt, 'Sub-accounts', row, 'sub_adv_user_name', 'team_lisbon');
    typeInto(rt, 'Sub-accounts', row, 'password', PASSWORD);
    const summary = rt.call('createSubAccounts') as Summary;
    expect(historyOf(rt, summary.changeId)).toEqual([
      [
        'Sub-accounts',
        'team_lisbon',
        'sub-account created',
        '',
        'team_lisbon',
        'OK',
        created('team_lisbon'),
      ],
      [
        'Sub-accounts',
        'team_lisbon',
        'password',
        '',
        '(set)',
        'OK',
        created('team_lisbon'),
      ],
    ]);
    expect(JSON.stringify(valuesOf(rt, 'History'))).not.toContain(PASSWORD);
    expect(revertChangesNothing(rt, emulator, summary.changeId!)).toBe(
      'Nothing put back. Nothing was sent. 1 record of Sub-accounts cannot be reverted: the API cannot delete what was created or uploaded. They stay as they are.',
    );
  });

  it("the sidebar's createSubAccount: the same rows, never the password", () => {
    const {rt} = offerDesk();
    rt.call('refreshSubAccounts');
    const summary = rt.call(
      'createSubAccount',
      'team_faro',
      PASSWORD,
    ) as Summary;
    expect(historyOf(rt, summary.changeId)).toEqual([
      [
        'Sub-accounts',
        'team_faro',
        'sub-account created',
        '',
        'team_faro',
        'OK',
        created(
          'team_faro',
          'the password typed in the sidebar went to the API only and is kept nowhere',
        ),
      ],
      [
        'Sub-accounts',
        'team_faro',
        'password',
        '',
        '(set)',
        'OK',
        created(
          'team_faro',
          'the password typed in the sidebar went to the API only and is kept nowhere',
        ),
      ],
    ]);
    expect(recordsOf(rt, 'History')[0]).toMatchObject({
      job: 'createSubAccount',
    });
    expect(JSON.stringify(valuesOf(rt, 'History'))).not.toContain(PASSWORD);
  });
});
