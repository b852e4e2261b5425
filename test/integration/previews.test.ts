/**
 * Issue 14: previews of Create new offers, Upload creative materials and Create sub-accounts, as
 * the built dist/Code.js runs them in the local Apps Script runtime against the emulator. A
 * preview sends nothing, records nothing, says per row what the run would do, and the run
 * after it sends exactly what it would have sent had the preview never run.
 */
import {EXCEEDED_TIME, Runtime} from '../../local/runtime';
import type {Emulator} from '../../local/emulator';
import {driveFiles} from '../support/materials';
import {
  EMULATOR_URL,
  cpiOfferRow as cpi,
  deliverableCampaign,
  offerDesk,
  recordsOf,
  typeRows,
  valuesOf,
} from '../support/offer-desk';

/** Every request sent, as method, path and body (or query). */
const sent = (emulator: Emulator) =>
  emulator.requests.map(r => [r.method, r.path, r.body ?? r.query]);

/** The record without the cell under `header`. */
function omit(record: Record<string, unknown>, header: string) {
  const rest = {...record};
  delete rest[header];
  return rest;
}

/** A sheet's rows without synced_at: the time of a run is not what a preview may change. */
const rowsOf = (rt: Runtime, sheet: string) =>
  recordsOf(rt, sheet).map(r => omit(r, 'synced_at'));

const statuses = (rt: Runtime, sheet: string) =>
  recordsOf(rt, sheet).map(r => [r.sync_status, r.sync_message]);

const OFFER = '/api/open/v3/offer';
/** What the preview adds to a create with no budget limit. */
const HELD =
  ' The budget guard holds it: a run asks you before creating an offer with no limit.';
const TRACKING = '/api/open/v3/tracking';

/**
 * New Offers as a user has it mid-work: row 2 created but its tracking failed, row 3 done,
 * row 4 a create killed mid-flight (its marker in the sheet, the offer on the server), then
 * typed since: row 5 new with tracking and a material still to upload, row 6 INVALID, row 7
 * new without tracking; and a Creative Sets row of no offer.
 */
function offersWorld() {
  const drive = driveFiles({'1FreshArtFileId': ['fresh art.png', 'fresh art']});
  const {rt, emulator} = offerDesk({}, {drive});
  rt.call('createOffers');
  const account = emulator.account('demo_adv');
  const md5 = [...account.materials.keys()][0];
  const name = account.materials.get(md5)!.creative_name;
  const campaign = deliverableCampaign(emulator);
  typeRows(
    rt,
    'Creatives',
    [
      {creative_md5: md5, creative_name: name},
      {file: '1FreshArtFileId', creative_name: 'fresh_art'},
    ],
    2,
  );
  const set = (offer: string, creatives = md5) => ({
    offer_name: offer,
    creative_set_name: `${offer}_set`,
    geos: 'ALL',
    ad_outputs: '111',
    creatives,
  });
  typeRows(
    rt,
    'New Offers',
    [cpi(campaign, 'untracked_one'), cpi(campaign, 'done_one')],
    2,
  );
  typeRows(rt, 'Creative Sets', [set('untracked_one'), set('done_one')], 2);
  emulator.faults.configure({
    rules: [{kind: 'error', method: 'PUT', path: TRACKING, count: 1}],
  });
  rt.call('createOffers');
  emulator.faults.clear();
  typeRows(rt, 'New Offers', [cpi(campaign, 'killed_one')], 4);
  typeRows(rt, 'Creative Sets', [set('killed_one')], 4);
  emulator.faults.configure({
    rules: [{kind: 'slow', method: 'POST', path: OFFER, latencyMs: 400_000}],
  });
  expect(() => rt.call('createOffers')).toThrow(EXCEEDED_TIME);
  emulator.faults.clear();
  const none = {tracking_method: '', click_url: '', support_server_click: ''};
  typeRows(
    rt,
    'New Offers',
    [
      cpi(campaign, 'fresh_one'),
      cpi(campaign, 'bad_one', {bid_rate: 'lots'}),
      cpi(campaign, 'plain_one', none),
    ],
    5,
  );
  typeRows(
    rt,
    'Creative Sets',
    [
      set('fresh_one', `${md5},fresh_art`),
      set('bad_one'),
      set('plain_one'),
      set('nobody_one'),
    ],
    5,
  );
  emulator.clearRequests();
  return {rt, emulator, md5, name, campaign};
}

describe('Create new offers (preview)', () => {
  it('says per row what the run would do, sends and records nothing; the run after it is the run without it', () => {
    const {rt, emulator, md5, name, campaign} = offersWorld();
    const before = {
      offers: rowsOf(rt, 'New Offers'),
      creatives: valuesOf(rt, 'Creatives'),
      state: valuesOf(rt, 'Offer Desk state'),
    };
    const [untracked, done, killed] = before.offers;
    expect([
      untracked.sync_status,
      done.sync_status,
      killed.sync_status,
    ]).toEqual(['ERROR', 'OK', 'ERROR']);
    const marker = String(killed.sync_message);
    expect(marker).toMatch(
      /^Create sent as offer_name killed_one in account \(main account\) at /,
    );

    const preview = rt.call('createOffers', {dryRun: true}) as Record<
      string,
      unknown
    >;

    expect(sent(emulator)).toEqual([]);
    expect(valuesOf(rt, 'Offer Desk state')).toEqual(before.state);
    expect(valuesOf(rt, 'Creatives')).toEqual(before.creatives);
    expect(
      rowsOf(rt, 'New Offers').map(r => [
        r.offer_id,
        r.sync_status,
        r.sync_message,
      ]),
    ).toEqual([
      [
        untracked.offer_id,
        'EDITED',
        `Preview: the answer to setting this tracking was lost: a run reads it back first, and sets the tracking of offer ${untracked.offer_id} (tracking_method APPSFLYER) only if it is not set.`,
      ],
      [done.offer_id, 'OK', done.sync_message],
      [
        '',
        'EDITED',
        'Create sent as offer_name killed_one in account (main account) by an earlier run, its outcome unknown. Preview: a run looks offer_name killed_one up first and, if that create made the offer, takes it and sets its tracking; only if no such offer exists, it creates offer killed_one (billing_type CPI, campaign ' +
          `${campaign}, 1 creative set, daily_cap no limit, total_budget no limit), then sets its tracking (1 more request).`,
      ],
      [
        '',
        'EDITED',
        `Preview: a run looks offer_name fresh_one up (a name the account already has is refused), uploads the file of Creatives row 3 first, creates offer fresh_one (billing_type CPI, campaign ${campaign}, 1 creative set, daily_cap no limit, total_budget no limit), then sets its tracking (1 more request).${HELD}`,
      ],
      ['', 'INVALID', expect.stringMatching(/^bid_rate .*Nothing was sent\.$/)],
      [
        '',
        'EDITED',
        `Preview: a run looks offer_name plain_one up (a name the account already has is refused), creates offer plain_one (billing_type CPI, campaign ${campaign}, 1 creative set, daily_cap no limit, total_budget no limit).${HELD}`,
      ],
    ]);
    // Each set says what the preview found for its offer, not only where to look.
    const offerRows = rowsOf(rt, 'New Offers');
    const found = (row: number) =>
      `Not created yet: New Offers row ${row} is ${offerRows[row - 2].sync_status}: ${offerRows[row - 2].sync_message}`;
    expect(statuses(rt, 'Creative Sets').slice(2)).toEqual([
      ['EDITED', found(4)],
      ['EDITED', found(5)],
      ['INVALID', found(6)],
      ['EDITED', found(7)],
      [
        'INVALID',
        'offer_name nobody_one matches no New Offers row: check the name, or delete the row.',
      ],
    ]);
    const body = (offer: string, creatives: unknown[]) => ({
      campaign_id: campaign,
      offer_name: offer,
      promote_timezone: 8,
      // 2026-09-21 10:00 in UTC+8 (promote_timezone), as epoch seconds.
      start_time: 1789984800,
      target_geo: 'US,GB',
      billing_type: 'CPI',
      bid_rate: 1.5,
      target_ad_type: 'REWARDED_VIDEO,INTERSTITIAL_VIDEO',
      creative_sets: [
        {
          creative_set_name: `${offer}_set`,
          geos: ['ALL'],
          ad_outputs: [111],
          creatives,
        },
      ],
    });
    const known = {creative_name: name, creative_md5: md5};
    expect(preview).toMatchObject({
      dryRun: true,
      ok: 0,
      invalid: 2,
      error: 0,
      skipped: 1,
      requests: 0,
      edited: 4,
      message:
        // 3 name lookups, 1 upload, 3 creates and 3 trackings: the steps the rows list.
        'Preview (nothing sent): 4 rows would be sent in 10 requests; 2 rows INVALID: see sync_message in New Offers (main account).',
    });
    expect(preview.wouldSend).toEqual([
      body('killed_one', [known]),
      body('fresh_one', [known, {uploaded_first: 'Creatives row 3'}]),
      body('plain_one', [known]),
      {
        offer_id: untracked.offer_id,
        tracking_method: 'APPSFLYER',
        click_url: 'https://track.example.com/click?o=untracked_one',
        support_server_click: 'NO',
      },
    ]);

    const run = rt.call('createOffers') as Record<string, unknown>;
    const without = offersWorld();
    const runWithout = without.rt.call('createOffers') as Record<
      string,
      unknown
    >;
    expect(sent(emulator)).toEqual(sent(without.emulator));
    // One name lookup per offer (killed_one, fresh_one, plain_one); killed_one's offer is
    // found and adopted: its create is not sent again.
    expect(sent(emulator).map(([m, path]) => `${m} ${path}`)).toEqual([
      'GET /api/open/v3/offers',
      'GET /api/open/v3/offers',
      'GET /api/open/v3/offers',
      'POST /api/open/v3/creatives/upload',
      'GET /api/open/v3/creatives/source',
      'POST /api/open/v3/offer',
      'POST /api/open/v3/offer',
      // untracked_one's tracking got a 5xx: read back (not set) before it is sent again.
      'GET /api/open/v3/offers',
      'PUT /api/open/v3/tracking',
      'PUT /api/open/v3/tracking',
      'PUT /api/open/v3/tracking',
    ]);
    expect(run).toEqual({...runWithout, changeId: expect.any(String)});
    for (const sheet of ['New Offers', 'Creative Sets', 'Creatives']) {
      expect(rowsOf(rt, sheet)).toEqual(rowsOf(without.rt, sheet));
    }
    expect(
      rowsOf(rt, 'New Offers').map(r => [r.offer_name, r.sync_status]),
    ).toEqual([
      ['untracked_one', 'OK'],
      ['done_one', 'OK'],
      ['killed_one', 'OK'],
      ['fresh_one', 'OK'],
      ['bad_one', 'INVALID'],
      ['plain_one', 'OK'],
    ]);
    expect(rowsOf(rt, 'New Offers')[2].sync_message).toMatch(
      /^Offer \d+ created \(the answer to its create was lost; found by name\); tracking set\.$/,
    );
  });
});

describe('Upload creative materials (preview)', () => {
  function uploadsWorld() {
    const drive = driveFiles({
      '1SpringBannerFileId': ['spring banner.png', 'spring banner bytes'],
      '1NotesTextFileId': ['notes.txt', 'just text'],
    });
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('refreshCreatives');
    const done = recordsOf(rt, 'Creatives').length + 2;
    typeRows(rt, 'Creatives', [{file: '1SpringBannerFileId'}], done);
    rt.call('uploadCreatives');
    const first = done + 1;
    typeRows(
      rt,
      'Creatives',
      [
        {file: 'https://drive.google.com/open?id=1SpringBannerFileId'},
        {file: `${EMULATOR_URL}/files/banner.png`, creative_name: 'hosted'},
        {file: '1NotesTextFileId'},
        {file: 'ftp://files.example.test/a.png'},
      ],
      first,
    );
    emulator.clearRequests();
    return {rt, emulator, first, done};
  }

  it('names each file it would upload, reads Drive files only, and the run after it is the run without it', () => {
    const {rt, emulator, done} = uploadsWorld();
    const doneRow = recordsOf(rt, 'Creatives')[done - 2];
    expect(doneRow.sync_status).toBe('OK');

    const preview = rt.call('uploadCreatives', {dryRun: true}) as Record<
      string,
      unknown
    >;

    expect(sent(emulator)).toEqual([]);
    const rows = recordsOf(rt, 'Creatives');
    expect(
      rows
        .slice(done - 2)
        .map(r => [r.creative_md5 === '', r.sync_status, r.sync_message]),
    ).toEqual([
      [false, 'OK', doneRow.sync_message],
      [
        true,
        'EDITED',
        'Preview: a run uploads the Drive file spring banner.png (19 bytes, image/png).',
      ],
      [
        true,
        'EDITED',
        `Preview: a run reads the file ${EMULATOR_URL}/files/banne... (42 characters) at upload time and uploads it (a preview does not fetch a link).`,
      ],
      [
        true,
        'INVALID',
        'file is of type text/plain, not an image, video or playable (HTML or zip) file. Nothing was uploaded.',
      ],
      [
        true,
        'INVALID',
        'file must be an https:// link: ftp:// is refused (ftp://files.example.test/a.png). Nothing was uploaded.',
      ],
    ]);
    expect(preview).toMatchObject({
      dryRun: true,
      ok: 0,
      invalid: 2,
      error: 0,
      skipped: 1,
      requests: 0,
      edited: 2,
      wouldSend: [
        {file: 'spring banner.png'},
        {file: `${EMULATOR_URL}/files/banner.png`},
      ],
      message:
        'Preview (nothing sent): 2 rows would be sent in 2 requests; 2 rows INVALID: see sync_message in Creatives (main account).',
    });

    const run = rt.call('uploadCreatives');
    const without = uploadsWorld();
    const runWithout = without.rt.call('uploadCreatives') as object;
    expect(sent(emulator)).toEqual(sent(without.emulator));
    expect(run).toEqual({...runWithout, changeId: expect.any(String)});
    expect(rowsOf(rt, 'Creatives')).toEqual(rowsOf(without.rt, 'Creatives'));
    expect(rowsOf(rt, 'Creatives').map(r => r.sync_status)).not.toContain(
      'EDITED',
    );
  });
});

describe('Create sub-accounts (preview)', () => {
  const PASSWORD = 'pa55-word!';

  function subAccountsWorld() {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    const first = recordsOf(rt, 'Sub-accounts').length + 2;
    typeRows(
      rt,
      'Sub-accounts',
      [
        {sub_adv_user_name: 'team_lisbon', password: PASSWORD},
        {sub_adv_user_name: '', password: PASSWORD},
        {sub_adv_user_name: 'team_porto', password: 'other-pa55'},
        {sub_adv_user_name: 'team_porto', password: 'other-pa55'},
      ],
      first,
    );
    emulator.clearRequests();
    return {rt, emulator, first};
  }

  it('keeps every password, names none, and the run after it is the run without it', () => {
    const {rt, emulator, first} = subAccountsWorld();
    const existing = recordsOf(rt, 'Sub-accounts').slice(0, first - 2);

    const preview = rt.call('createSubAccounts', {dryRun: true}) as Record<
      string,
      unknown
    >;

    expect(sent(emulator)).toEqual([]);
    const kept =
      'The password is kept in its cell until the real run, which clears it whatever the outcome';
    const rows = recordsOf(rt, 'Sub-accounts');
    expect(rows.slice(0, first - 2)).toEqual(existing);
    expect(
      rows
        .slice(first - 2)
        .map(r => [r.password, r.access_key, r.sync_status, r.sync_message]),
    ).toEqual([
      [
        PASSWORD,
        '',
        'EDITED',
        `Preview: a run creates sub-account team_lisbon with the password of this row. ${kept}.`,
      ],
      [
        PASSWORD,
        '',
        'INVALID',
        `sub_adv_user_name is empty: write the user name of the sub-account to create. Nothing was sent. ${kept}: fix the row, then run Create sub-accounts.`,
      ],
      [
        'other-pa55',
        '',
        'INVALID',
        `sub_adv_user_name team_porto is also in Sub-accounts row ${first + 3}: each sub-account has one row. Nothing was sent. ${kept}: fix the row, then run Create sub-accounts.`,
      ],
      [
        'other-pa55',
        '',
        'INVALID',
        `sub_adv_user_name team_porto is also in Sub-accounts row ${first + 2}: each sub-account has one row. Nothing was sent. ${kept}: fix the row, then run Create sub-accounts.`,
      ],
    ]);
    expect(JSON.stringify(preview)).not.toContain(PASSWORD);
    expect(preview).toEqual({
      job: 'createSubAccounts',
      account: 'main account',
      dryRun: true,
      ok: 0,
      invalid: 3,
      error: 0,
      skipped: 0,
      remaining: 0,
      requests: 0,
      edited: 1,
      problems: expect.any(Array),
      wouldSend: [
        {
          sub_adv_user_name: 'team_lisbon',
          password: `(the password cell of Sub-accounts row ${first})`,
        },
      ],
      message:
        'Preview (nothing sent): 1 row would be sent in 1 request; 3 rows INVALID: see sync_message in Sub-accounts (main account).',
    });

    const run = rt.call('createSubAccounts');
    const without = subAccountsWorld();
    const runWithout = without.rt.call('createSubAccounts') as object;
    expect(sent(emulator)).toEqual([
      [
        'POST',
        '/api/open/v3/sub_adv_account',
        {sub_adv_user_name: 'team_lisbon', password: PASSWORD},
      ],
    ]);
    expect(sent(emulator)).toEqual(sent(without.emulator));
    expect(run).toEqual({...runWithout, changeId: expect.any(String)});
    // The access_key of a new sub-account differs from one emulator to the other.
    expect(rowsOf(rt, 'Sub-accounts').map(r => omit(r, 'access_key'))).toEqual(
      rowsOf(without.rt, 'Sub-accounts').map(r => omit(r, 'access_key')),
    );
    expect(
      rowsOf(rt, 'Sub-accounts')
        .slice(first - 2)
        .map(r => [r.password, r.sync_status]),
    ).toEqual([
      ['', 'OK'],
      ['', 'INVALID'],
      ['', 'INVALID'],
      ['', 'INVALID'],
    ]);
  });
});
