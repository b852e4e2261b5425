/**
 * Issue 6, "Done when": the create jobs as the built dist/Code.js runs them in the local Apps
 * Script runtime against the Open API emulator, the sheets typed into as a person would.
 */
import {DEMO_ACCOUNTS, Emulator, FaultRule} from '../../local/emulator';
import {EXCEEDED_TIME, Runtime} from '../../local/runtime';
import {
  EMULATOR_URL,
  cpiOfferRow as cpi,
  deliverableCampaign,
  memoOf,
  offerDesk,
  recordsOf,
  typeInto,
  typeRows,
  valuesOf,
} from '../support/offer-desk';
import {driveFiles, uploadDirectly} from '../support/materials';

const OFFER = '/api/open/v3/offer';
const OFFERS = '/api/open/v3/offers';
const UPLOAD = '/api/open/v3/creatives/upload';
const SOURCE = '/api/open/v3/creatives/source';
const TRACKING = '/api/open/v3/tracking';

type Row = Record<string, string>;

/** The sheets exist (with their column formats) once a create job has run once. */
function withSheets(rt: Runtime): void {
  const summary = rt.call('createOffers') as {message: string};
  expect(summary.message).toMatch(
    /^Nothing to create \(.*\): write offers in New Offers/,
  );
}

const requestsOf = (emulator: Emulator) =>
  emulator.requests.map(r => `${r.method} ${r.path}`);

describe('createOffers: 3 offers x 2 creative sets x 3 materials', () => {
  it('creates them all, uploads what is missing, sets tracking; every row OK', () => {
    const drive = driveFiles({
      '1HeroImageFileId': ['hero.png', 'hero image'],
      '1ClipVideoFileId': ['clip.mp4', 'clip video'],
      '1OldBannerFileId': ['banner.png', 'banner image'],
    });
    const {rt, emulator} = offerDesk(
      {offers: 5, campaigns: 5, materials: 4},
      {drive},
    );
    const onServer = uploadDirectly(emulator, 'banner_v1.png', 'banner image');
    const campaignId = deliverableCampaign(emulator);
    withSheets(rt);
    typeRows(rt, 'Creatives', [
      {file: '1HeroImageFileId', creative_name: 'hero'},
      {
        file: 'https://drive.google.com/file/d/1ClipVideoFileId/view',
        creative_name: 'clip',
      },
      {file: '1OldBannerFileId', creative_name: 'banner'},
    ]);
    const offers: Row[] = [
      cpi(campaignId, 'launch_us'),
      cpi(campaignId, 'launch_cpe', {
        billing_type: 'CPE',
        settlement_event: 'first_purchase',
        target_geo: 'ALL',
      }),
      cpi(campaignId, 'launch_roas', {
        billing_type: 'OCPI',
        bid_rate: '',
        target_ad_type: '',
        bid_goal: 'Target-ROAS',
        target_agg_event: 'purchase',
        target_goal_window: 'D7',
        target_goal: '120.5',
        daily_cap: '100',
        total_budget: '5000',
      }),
    ];
    typeRows(rt, 'New Offers', offers);
    typeRows(
      rt,
      'Creative Sets',
      offers.flatMap(o => [
        {
          offer_name: o.offer_name,
          creative_set_name: `${o.offer_name}_images`,
          geos: 'ALL',
          ad_outputs: '111,121',
          creatives: 'hero,banner,clip',
        },
        {
          offer_name: o.offer_name,
          creative_set_name: `${o.offer_name}_video`,
          geos: 'ALL',
          ad_outputs: '211',
          creatives: 'clip,hero,1OldBannerFileId',
        },
      ]),
    );
    emulator.clearRequests();
    rt.meter.reset();

    const summary = rt.call('createOffers') as Record<string, unknown>;

    expect(requestsOf(emulator)).toEqual([
      ...offers.map(() => `GET ${OFFERS}`),
      `POST ${UPLOAD}`,
      `POST ${UPLOAD}`,
      `POST ${UPLOAD}`,
      `GET ${SOURCE}`,
      ...offers.map(() => `POST ${OFFER}`),
      ...offers.map(() => `PUT ${TRACKING}`),
    ]);
    const meter = rt.meter.snapshot().counts;
    // The API's four batches, and the Drive files' metadata and bytes, each one batch.
    expect({
      fetch: meter['UrlFetchApp.fetch'] ?? 0,
      fetchAll: meter['UrlFetchApp.fetchAll'],
      drive: meter['DriveApi.requests'],
    }).toEqual({fetch: 1, fetchAll: 6, drive: 6});
    expect(summary).toMatchObject({
      ok: 3,
      invalid: 0,
      error: 0,
      requests: 13,
      account: 'main account',
    });

    const creatives = recordsOf(rt, 'Creatives');
    expect(creatives.map(c => [c.creative_name, c.sync_status])).toEqual([
      ['hero', 'OK'],
      ['clip', 'OK'],
      ['banner_v1', 'OK'],
    ]);
    expect(creatives[2]).toMatchObject({
      creative_md5: onServer,
      sync_message: `Already on the server (the API answered "creative already existed, fmd5: ${onServer}, name: banner_v1"): creative_md5 ${onServer} and creative_name banner_v1 filled in.`,
    });
    const refs = Object.fromEntries(
      creatives.map(c => [
        c.creative_name as string,
        {creative_name: c.creative_name, creative_md5: c.creative_md5},
      ]),
    );

    const rows = recordsOf(rt, 'New Offers');
    expect(
      rows.map(r => [r.offer_name, r.sync_status, r.sync_message]),
    ).toEqual(
      rows.map(r => [
        r.offer_name,
        'OK',
        `Offer ${r.offer_id} created; tracking set.`,
      ]),
    );
    const mine = [...emulator.account('demo_adv').offers.values()].filter(o =>
      o.offer_name.startsWith('launch_'),
    );
    expect(mine.map(o => o.offer_id)).toEqual(rows.map(r => r.offer_id));
    for (const offer of mine) {
      const view = emulator.offerView(offer.offer_id)!;
      expect(view).toMatchObject({
        campaign_id: campaignId,
        tracking_method: 'APPSFLYER',
        click_url: `https://track.example.com/click?o=${offer.offer_name}`,
        support_server_click: 'NO',
        start_time: Date.UTC(2026, 8, 21, 10) / 1000,
      });
      expect(
        view.creative_sets.map(s => [
          s.creative_set_name,
          s.geos,
          s.ad_outputs,
          s.creatives,
        ]),
      ).toEqual([
        [
          `${offer.offer_name}_images`,
          ['ALL'],
          [111, 121],
          [refs.hero, refs.banner_v1, refs.clip],
        ],
        [
          `${offer.offer_name}_video`,
          ['ALL'],
          [211],
          [refs.clip, refs.hero, refs.banner_v1],
        ],
      ]);
    }
    expect(emulator.offerView(mine[1].offer_id)).toMatchObject({
      bid_type: 'CPE',
      settlement_event: 'first_purchase',
    });
    expect(emulator.offerView(mine[2].offer_id)).toMatchObject({
      bid_type: 'OCPI',
      bid_goal: 'Target-ROAS',
      target_goal: 120.5,
    });
    expect(recordsOf(rt, 'Creative Sets').map(r => r.sync_message)).toEqual(
      rows.flatMap(r => [
        `Part of offer ${r.offer_id}.`,
        `Part of offer ${r.offer_id}.`,
      ]),
    );

    emulator.clearRequests();
    expect(rt.call('createOffers')).toMatchObject({
      ok: 0,
      skipped: 3,
      requests: 0,
    });
    expect(emulator.requests).toEqual([]);
  });
});

describe('createOffers: every rule of 4.2 is checked before sending', () => {
  const BASE_ROW = 2;
  const ROAS: Row = {
    billing_type: 'OCPI',
    bid_rate: '',
    target_ad_type: '',
    bid_goal: 'Target-ROAS',
    target_agg_event: 'purchase',
    target_goal_window: 'D7',
    target_goal: '150',
  };
  const TCPE: Row = {
    ...ROAS,
    bid_goal: 'Target-CPE',
    target_original_event: 'level_up',
    target_goal: '2.5',
  };

  /** Each case: the row's fields beyond a valid CPI row, and the message it must get. */
  const CASES: Array<[Row, string]> = [
    [{campaign_id: ''}, 'campaign_id is required'],
    [
      {campaign_id: 'abc'},
      'campaign_id must be a whole number, the campaign\'s id (got "abc")',
    ],
    [
      {offer_name: 'spring-sale'},
      'offer_name may contain only letters, digits and underscore',
    ],
    [
      {offer_name: 'ab'},
      'offer_name must be 3 to 95 characters long (it has 2)',
    ],
    [{promote_timezone: ''}, 'promote_timezone is required'],
    [
      {promote_timezone: '15'},
      'promote_timezone must be a UTC offset from -12 to 14 (got 15)',
    ],
    [{start_time: ''}, 'start_time is required'],
    [
      {start_time: '1999-12-31 15:59:59'},
      'start_time must not be earlier than 946656000 (2000-01-01 00:00 at UTC+8)',
    ],
    [{end_time: '2026-09-21 10:00'}, 'end_time must be later than start_time'],
    [{target_geo: ''}, 'target_geo is required'],
    [
      {target_geo: 'USA'},
      'target_geo has "USA", which is not a two-letter country code: write ALL or codes such as US,GB',
    ],
    [
      {billing_type: ''},
      'billing_type is required: CPI, CPE, CPM, CPC, OCPI or another billing-type code of 2 to 20 letters, digits or underscores',
    ],
    [
      {billing_type: 'C P A'},
      'billing_type must be CPI, CPE, CPM, CPC, OCPI or another billing-type code of 2 to 20 letters, digits or underscores (got "C P A")',
    ],
    [
      {...ROAS, bid_goal: ''},
      'bid_goal is required when billing_type is OCPI: Target-ROAS or Target-CPE',
    ],
    [
      {...ROAS, bid_goal: 'Install'},
      'bid_goal must be Target-ROAS or Target-CPE when billing_type is OCPI (got "Install")',
    ],
    [
      {...ROAS, target_agg_event: ''},
      'target_agg_event is required when bid_goal is Target-ROAS',
    ],
    [
      {...ROAS, target_goal_window: ''},
      'target_goal_window is required when bid_goal is Target-ROAS: D0 or D7',
    ],
    [
      {...ROAS, target_goal_window: 'D30'},
      'target_goal_window must be D0 or D7 (got "D30")',
    ],
    [
      {...ROAS, target_goal: ''},
      'target_goal is required when bid_goal is Target-ROAS',
    ],
    [
      {...ROAS, target_goal: '1000.5'},
      'target_goal must be from 1 to 1000 for Target-ROAS (a percentage) (got 1000.5)',
    ],
    [
      {...ROAS, target_goal: '120.125'},
      'target_goal may have at most 2 decimals for Target-ROAS (got 120.125)',
    ],
    [
      {...TCPE, target_original_event: ''},
      'target_original_event is required when bid_goal is Target-CPE',
    ],
    [
      {...TCPE, target_goal: '0.05'},
      'target_goal must be from 0.1 to 2000 for Target-CPE (got 0.05)',
    ],
    [
      {...TCPE, target_goal: '2.1255'},
      'target_goal may have at most 3 decimals for Target-CPE (got 2.1255)',
    ],
    [{bid_rate: ''}, 'bid_rate is required when billing_type is CPI'],
    [{bid_rate: '0'}, 'bid_rate must be greater than 0 (got 0)'],
    [{bid_rate: '1.2345'}, 'bid_rate may have at most 3 decimals (got 1.2345)'],
    [
      {billing_type: 'CPM', bid_rate: '0.009'},
      'bid_rate must be at least 0.01 for CPM (got 0.009)',
    ],
    [
      {billing_type: 'CPC', bid_rate: '0.0009'},
      'bid_rate may have at most 3 decimals (got 0.0009)',
    ],
    [
      {target_ad_type: ''},
      'target_ad_type is required when billing_type is CPI',
    ],
    [
      {billing_type: 'CPE'},
      'settlement_event is required when billing_type is CPE',
    ],
    [
      {billing_type: 'CPE', settlement_event: 'first purchase'},
      'settlement_event may contain only letters, digits and underscore',
    ],
    [
      {billing_type: 'CPE', settlement_event: 'ab'},
      'settlement_event must be 3 to 50 characters long (it has 2)',
    ],
    [
      {daily_cap_type: 'DAILY'},
      'daily_cap_type must be BUDGET or CONVERSION (got "DAILY")',
    ],
    [
      {daily_cap: '49'},
      'daily_cap must be at least 50 when daily_cap_type is BUDGET (got 49)',
    ],
    [
      {daily_cap: '50.0001'},
      'daily_cap may have at most 3 decimals when daily_cap_type is BUDGET (got 50.0001)',
    ],
    [
      {daily_cap_type: 'CONVERSION', daily_cap: '10.5'},
      'daily_cap must be a whole number of conversions when daily_cap_type is CONVERSION (got "10.5")',
    ],
    [
      {daily_cap_type: 'CONVERSION', daily_cap: '9'},
      'daily_cap must be at least 10 when daily_cap_type is CONVERSION (got 9)',
    ],
    [
      {total_budget: '9.5'},
      'total_budget must be at least 10 when daily_cap_type is BUDGET (got 9.5)',
    ],
    [
      {total_budget: '10.0001'},
      'total_budget may have at most 3 decimals (got 10.0001)',
    ],
    [
      {os_version_min: '14.x'},
      'os_version_min must be a number of one or two digits, then up to two groups of a dot and one or two digits (9, 14.5 or 12.0.1); 0.0.0 means no minimum (got "14.x")',
    ],
    [
      {os_version_max: '9.1.2.3'},
      'os_version_max must be a number of one or two digits, then up to two groups of a dot and one or two digits (9, 14.5 or 12.0.1); 99.0.0 means no maximum (got "9.1.2.3")',
    ],
    [
      {custom_ad_schedule: '{"8":"1"}'},
      'custom_ad_schedule has key "8", which is not a day: use 1 (Monday) to 7 (Sunday)',
    ],
    [
      {custom_ad_schedule: '{"1":"23,24"}'},
      'custom_ad_schedule day 1 must list hours 0 to 23 separated by commas (got "23,24")',
    ],
    [
      {target_device: 'PHONE,TV'},
      'target_device must be PHONE, TABLET or PHONE,TABLET (got "TV")',
    ],
  ];

  it("refuses one row per rule with that rule's message, and sends nothing at all", () => {
    const {rt, emulator} = offerDesk();
    const campaignId = deliverableCampaign(emulator);
    withSheets(rt);
    const named = CASES.map(([fields], i) =>
      cpi(campaignId, `rule_${i}`, fields),
    );
    const names = named.map(r => r.offer_name);
    typeRows(rt, 'New Offers', named);
    typeRows(rt, 'Creatives', [
      {
        creative_md5: '0123456789abcdef0123456789abcdef',
        creative_name: 'listed',
      },
    ]);
    typeRows(
      rt,
      'Creative Sets',
      named
        .filter(r => r.offer_name !== '')
        .map(r => ({
          offer_name: r.offer_name,
          creative_set_name: 'set',
          geos: 'ALL',
          ad_outputs: '111',
          creatives: 'listed',
        })),
    );
    const first = BASE_ROW + CASES.length;
    typeRows(
      rt,
      'New Offers',
      [
        cpi(campaignId, 'no_sets'),
        cpi(campaignId, 'bad_set'),
        cpi(campaignId, 'twin_name'),
        cpi(campaignId, 'twin_name'),
      ],
      first,
    );
    typeRows(
      rt,
      'Creative Sets',
      [
        {
          offer_name: 'bad_set',
          creative_set_name: 'set',
          geos: 'ALL',
          ad_outputs: '111,big',
          creatives: 'villain',
        },
        {
          offer_name: 'twin_name',
          creative_set_name: 'set',
          geos: 'ALL',
          ad_outputs: '111',
          creatives: 'listed',
        },
      ],
      BASE_ROW + named.length,
    );
    emulator.clearRequests();

    const summary = rt.call('createOffers') as Record<string, unknown>;

    expect(emulator.requests).toEqual([]);
    const rows = recordsOf(rt, 'New Offers');
    CASES.forEach(([, message], i) => {
      expect([
        rows[i].offer_name,
        rows[i].sync_status,
        rows[i].sync_message,
      ]).toEqual([names[i], 'INVALID', `${message}. Nothing was sent.`]);
    });
    expect(rows.slice(CASES.length).map(r => r.sync_message)).toEqual([
      'creative_sets: no Creative Sets row has offer_name no_sets: add at least one (creative_set_name, geos, ad_outputs, creatives). Nothing was sent.',
      `creative set "set" (Creative Sets row ${BASE_ROW + named.length}): ad_outputs must be whole numbers separated by commas (got "big"). Nothing was sent.`,
      `offer_name is also used by New Offers row ${first + 3}: offer names must be unique. Nothing was sent.`,
      `offer_name is also used by New Offers row ${first + 2}: offer names must be unique. Nothing was sent.`,
    ]);
    expect(summary).toMatchObject({
      ok: 0,
      invalid: CASES.length + 4,
      error: 0,
      requests: 0,
    });
  });

  it('refuses a name the account already has after one lookup, creating nothing', () => {
    const {rt, emulator} = offerDesk();
    const taken = [...emulator.account('demo_adv').offers.values()][0];
    withSheets(rt);
    typeRows(rt, 'Creatives', [
      {
        creative_md5: [...emulator.account('demo_adv').materials.keys()][0],
        creative_name: 'listed',
      },
    ]);
    typeRows(rt, 'New Offers', [
      cpi(deliverableCampaign(emulator), taken.offer_name),
    ]);
    typeRows(rt, 'Creative Sets', [
      {
        offer_name: taken.offer_name,
        creative_set_name: 'set',
        geos: 'ALL',
        ad_outputs: '111',
        creatives: 'listed',
      },
    ]);
    emulator.clearRequests();
    rt.call('createOffers');
    expect(requestsOf(emulator)).toEqual([`GET ${OFFERS}`]);
    expect(recordsOf(rt, 'New Offers')[0].sync_message).toBe(
      `offer_name is already used by offer ${taken.offer_id} in this account: offer names must be unique. Nothing was sent.`,
    );
  });
});

/** One offer, its set using a material already listed in Creatives. */
function oneOffer(
  rt: Runtime,
  emulator: Emulator,
  name: string,
  account = 'demo_adv',
): void {
  newOffers(rt, emulator, [name], account);
}

/** Offers of these names, each with one set using a material already listed in Creatives. */
function newOffers(
  rt: Runtime,
  emulator: Emulator,
  names: string[],
  account = 'demo_adv',
): void {
  withSheets(rt);
  const md5 = [...emulator.account(account).materials.keys()][0];
  typeRows(rt, 'Creatives', [
    {
      creative_md5: md5,
      creative_name: emulator.account(account).materials.get(md5)!
        .creative_name,
    },
  ]);
  const campaignId = deliverableCampaign(emulator, account);
  typeRows(
    rt,
    'New Offers',
    names.map(name => cpi(campaignId, name)),
  );
  typeRows(
    rt,
    'Creative Sets',
    names.map(name => ({
      offer_name: name,
      creative_set_name: 'set',
      geos: 'ALL',
      ad_outputs: '111',
      creatives: md5,
    })),
  );
}

describe('createOffers: a dropped connection', () => {
  it('leaves no duplicate: the offer is looked up by name, adopted, and a re-run sends nothing', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'dropped_once');
    emulator.faults.configure({
      rules: [{kind: 'drop', method: 'POST', path: OFFER, count: 1}],
    });
    emulator.clearRequests();
    rt.call('createOffers');
    expect(requestsOf(emulator)).toEqual([
      `GET ${OFFERS}`,
      `POST ${OFFER}`,
      `GET ${OFFERS}`,
      `PUT ${TRACKING}`,
    ]);
    const [row] = recordsOf(rt, 'New Offers');
    expect(row).toMatchObject({
      sync_status: 'OK',
      sync_message: `Offer ${row.offer_id} created (the answer to its create was lost; found by name); tracking set.`,
    });
    emulator.clearRequests();
    rt.call('createOffers');
    expect(emulator.requests).toEqual([]);
    const named = [...emulator.account('demo_adv').offers.values()].filter(
      o => o.offer_name === 'dropped_once',
    );
    expect(named.map(o => o.offer_id)).toEqual([row.offer_id]);
  });

  it('when the create never reached the server, the re-run sends it exactly once', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'never_arrived');
    emulator.faults.configure({
      rules: [
        {kind: 'drop', method: 'POST', path: OFFER, count: 1, applied: false},
      ],
    });
    rt.call('createOffers');
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'ERROR',
      offer_id: '',
    });
    rt.call('createOffers');
    const named = [...emulator.account('demo_adv').offers.values()].filter(
      o => o.offer_name === 'never_arrived',
    );
    expect(named).toHaveLength(1);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      sync_status: 'OK',
      offer_id: named[0].offer_id,
    });
  });
});

describe('acting as a sub-account', () => {
  it('creates the offer under the sub-account, every request signed with its keys', () => {
    const {rt, emulator} = offerDesk();
    const sub = DEMO_ACCOUNTS.subB.name;
    rt.call('setActingAccount', sub);
    oneOffer(rt, emulator, 'sub_offer', sub);
    emulator.clearRequests();
    const summary = rt.call('createOffers') as Record<string, unknown>;
    expect(summary).toMatchObject({ok: 1, account: `sub-account ${sub}`});
    expect(new Set(emulator.requests.map(r => r.account))).toEqual(
      new Set([sub]),
    );
    const offerId = recordsOf(rt, 'New Offers')[0].offer_id as number;
    expect(emulator.account(sub).offers.has(offerId)).toBe(true);
    expect(emulator.account('demo_adv').offers.has(offerId)).toBe(false);
  });

  it("a create refused for acting as the wrong account is sent again once the row's account is acted as", () => {
    const {rt, emulator} = offerDesk();
    const sub = DEMO_ACCOUNTS.subB.name;
    // The row is the sub-account's (its campaign and material), the job acts as the main one.
    oneOffer(rt, emulator, 'sub_offer', sub);
    rt.call('createOffers');
    const refused = recordsOf(rt, 'New Offers')[0];
    expect(refused).toMatchObject({offer_id: '', sync_status: 'ERROR'});
    expect(String(refused.sync_message)).toMatch(
      /Change the row, or clear its sync_status, to send it again/,
    );
    rt.call('setActingAccount', sub);
    emulator.clearRequests();
    const summary = rt.call('createOffers') as Record<string, unknown>;
    expect(summary).toMatchObject({ok: 1, skipped: 0});
    const offerId = recordsOf(rt, 'New Offers')[0].offer_id as number;
    expect(emulator.account(sub).offers.has(offerId)).toBe(true);
  });
});

describe('createSubAccounts', () => {
  it("keeps the new sub-account's api key in user properties only and clears the password", () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshSubAccounts');
    const first = valuesOf(rt, 'Sub-accounts').length + 1;
    typeRows(
      rt,
      'Sub-accounts',
      [{sub_adv_user_name: 'team_lisbon', password: 'pa55-word!'}],
      first,
    );
    const summary = rt.call('createSubAccounts') as Record<string, unknown>;
    const created = emulator.account('team_lisbon');
    expect(summary).toMatchObject({ok: 1, account: 'main account'});
    const row = recordsOf(rt, 'Sub-accounts').find(
      r => r.sub_adv_user_name === 'team_lisbon',
    )!;
    expect(row).toMatchObject({
      password: '',
      access_key: created.access_key,
      sync_status: 'OK',
    });
    const everything = JSON.stringify(
      rt.spreadsheet.getSheets().map(s => s.getDataRange().getValues()),
    );
    expect(everything).not.toContain(created.api_key);
    expect(everything).not.toContain('pa55-word!');
    const stored = rt.properties.user(rt.user).toObject();
    expect(
      Object.values(stored).filter(v => v.includes(created.api_key)),
    ).toHaveLength(1);
    expect(JSON.stringify(rt.properties.document.toObject())).not.toContain(
      created.api_key,
    );
    expect(JSON.stringify(rt.properties.script.toObject())).not.toContain(
      created.api_key,
    );

    rt.call('setActingAccount', 'team_lisbon');
    emulator.clearRequests();
    rt.call('refreshCampaigns');
    expect(emulator.requests.map(r => r.account)).toEqual(['team_lisbon']);
  });
});

describe('uploadCreatives', () => {
  it("uploads a Drive file from the runtime's local folder and fills md5 and name", () => {
    const drive = driveFiles({
      '1SpringBannerFileId': ['spring banner.png', 'spring banner bytes'],
    });
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('refreshCreatives');
    const first = valuesOf(rt, 'Creatives').length + 1;
    typeRows(
      rt,
      'Creatives',
      [{file: 'https://drive.google.com/open?id=1SpringBannerFileId'}],
      first,
    );
    emulator.clearRequests();
    const summary = rt.call('uploadCreatives') as Record<string, unknown>;
    // The upload answers md5 and name; one look-up fills type, resolution and size.
    expect(requestsOf(emulator)).toEqual([`POST ${UPLOAD}`, `GET ${SOURCE}`]);
    expect(
      (
        emulator.requests[0].body as {
          file: {filename: string; contentType: string};
        }
      ).file,
    ).toMatchObject({
      filename: 'spring banner.png',
      contentType: 'image/png',
    });
    const row = recordsOf(rt, 'Creatives')[first - 2];
    const material = emulator
      .account('demo_adv')
      .materials.get(row.creative_md5 as string)!;
    expect(row).toMatchObject({
      creative_name: 'spring_banner',
      creative_type: 'IMAGE',
      resolution: material.resolution,
      size: material.size,
      sync_status: 'OK',
      sync_message: `Uploaded: creative_md5 ${material.creative_md5}, creative_name spring_banner.`,
    });
    expect(summary).toMatchObject({ok: 1, requests: 2});

    rt.call('refreshCreatives');
    const after = recordsOf(rt, 'Creatives').find(
      r => r.creative_md5 === material.creative_md5,
    )!;
    expect(after).toMatchObject({
      file: 'https://drive.google.com/open?id=1SpringBannerFileId',
      creative_type: 'IMAGE',
    });
  });

  it('says why a file cannot be read, and uploads nothing for it', () => {
    const drive = driveFiles({'1NotesTextFileId': ['notes.txt', 'just text']});
    const {rt, emulator} = offerDesk({}, {drive});
    rt.call('uploadCreatives');
    typeRows(rt, 'Creatives', [
      {file: '1NoSuchFileId'},
      {file: '1NotesTextFileId'},
      {file: `${EMULATOR_URL}/files/gone.png`},
    ]);
    emulator.clearRequests();
    expect(rt.call('uploadCreatives')).toMatchObject({
      ok: 0,
      invalid: 3,
      error: 0,
    });
    expect(requestsOf(emulator)).toEqual(['GET /files/gone.png']);
    expect(
      recordsOf(rt, 'Creatives').map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        'file: Drive file 1NoSuchFileId is not one Offer Desk may open: pick it with "Choose files…" (in the sidebar, or Extensions > Offer Desk > Create). Nothing was uploaded.',
      ],
      [
        'INVALID',
        'file is of type text/plain, not an image, video or playable (HTML or zip) file. Nothing was uploaded.',
      ],
      [
        'INVALID',
        `file: ${EMULATOR_URL}/files/gone.png answered HTTP 404: there is no file there. Nothing was uploaded.`,
      ],
    ]);
  });
});

const offersNamed = (emulator: Emulator, name: string) =>
  [...emulator.account('demo_adv').offers.values()].filter(
    o => o.offer_name === name,
  );

/** A run that creates `name` afresh: looked up, created, tracked; the row OK with its id. */
function expectCreatedNow(rt: Runtime, emulator: Emulator, name: string) {
  emulator.clearRequests();
  rt.call('createOffers');
  expect(requestsOf(emulator)).toEqual([
    `GET ${OFFERS}`,
    `POST ${OFFER}`,
    `PUT ${TRACKING}`,
  ]);
  const named = offersNamed(emulator, name);
  expect(named).toHaveLength(1);
  expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
    offer_id: named[0].offer_id,
    sync_status: 'OK',
    sync_message: `Offer ${named[0].offer_id} created; tracking set.`,
  });
}

/**
 * The row holds the one offer named `name`, adopted after its create's answer was lost, and a
 * re-run sends nothing and changes nothing.
 */
function expectAdopted(rt: Runtime, emulator: Emulator, name: string) {
  const named = offersNamed(emulator, name);
  expect(named).toHaveLength(1);
  const row = {
    offer_id: named[0].offer_id,
    sync_status: 'OK',
    sync_message: `Offer ${named[0].offer_id} created (the answer to its create was lost; found by name); tracking set.`,
  };
  expect(recordsOf(rt, 'New Offers')[0]).toMatchObject(row);
  expect(emulator.offerView(named[0].offer_id)).toMatchObject({
    tracking_method: 'APPSFLYER',
    click_url: `https://track.example.com/click?o=${name}`,
  });
  emulator.clearRequests();
  rt.call('createOffers');
  expect(emulator.requests).toEqual([]);
  expect(recordsOf(rt, 'New Offers')[0]).toMatchObject(row);
  expect(offersNamed(emulator, name)).toHaveLength(1);
}

describe('createOffers: a row copied as a template', () => {
  it('refuses the offer_id of an offer it did not create from that row (ADV or AM): INVALID naming offer_id, nothing sent, run after run', () => {
    const {rt, emulator} = offerDesk();
    rt.call('refreshOffers');
    const listed = recordsOf(rt, 'Offers');
    const offers = [...emulator.account('demo_adv').offers.values()];
    const copied = (['ADV', 'AM'] as const).map(by => {
      const offer = offers.find(
        o =>
          o.maintain_by === by && listed.some(r => r.offer_id === o.offer_id),
      )!;
      return {offer, view: emulator.offerView(offer.offer_id)};
    });
    withSheets(rt);
    typeRows(
      rt,
      'New Offers',
      copied.map(({offer}) =>
        cpi(offer.campaign_id, offer.offer_name, {
          offer_id: String(offer.offer_id),
        }),
      ),
    );
    const expected = copied.map(({offer}) => [
      offer.offer_id,
      'INVALID',
      `offer_id ${offer.offer_id}: this sheet has no record of creating offer ${offer.offer_id} from this row (a row copied from Offers, say), so nothing is sent for it: clear offer_id to create a new offer from this row, or edit offer ${offer.offer_id} in the Offers sheet. Nothing was sent.`,
    ]);
    for (let run = 0; run < 2; run++) {
      emulator.clearRequests();
      const summary = rt.call('createOffers') as Record<string, unknown>;
      expect(emulator.requests).toEqual([]);
      expect(summary).toMatchObject({ok: 0, invalid: 2, requests: 0});
      expect(
        recordsOf(rt, 'New Offers').map(r => [
          r.offer_id,
          r.sync_status,
          r.sync_message,
        ]),
      ).toEqual(expected);
    }
    for (const {offer, view} of copied) {
      expect(emulator.offerView(offer.offer_id)).toEqual(view);
    }
  });

  it('refuses a renamed copy of a row it created, and the original stays done', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'original_row');
    rt.call('createOffers');
    const [original] = recordsOf(rt, 'New Offers');
    expect(original.sync_status).toBe('OK');
    const campaignId = deliverableCampaign(emulator);
    typeRows(
      rt,
      'New Offers',
      [
        cpi(campaignId, 'copied_row', {
          offer_id: String(original.offer_id),
          sync_status: 'OK',
          sync_message: String(original.sync_message),
        }),
      ],
      3,
    );
    for (let run = 0; run < 2; run++) {
      emulator.clearRequests();
      expect(rt.call('createOffers')).toMatchObject({
        ok: 0,
        invalid: 1,
        skipped: 1,
        requests: 0,
      });
      expect(emulator.requests).toEqual([]);
      const [first, copy] = recordsOf(rt, 'New Offers');
      expect(first).toEqual(original);
      expect([copy.offer_id, copy.sync_status, copy.sync_message]).toEqual([
        original.offer_id,
        'INVALID',
        `offer_id ${original.offer_id}: offer ${original.offer_id} was created from the row of offer_name original_row in campaign ${campaignId}, not from this one (a copied row?): clear offer_id to create a new offer from this row, or edit offer ${original.offer_id} in the Offers sheet. Nothing was sent.`,
      ]);
    }
    expect(offersNamed(emulator, 'copied_row')).toEqual([]);
  });
});

describe('createOffers: an answer that does not prove the create failed', () => {
  const APPLIED = [
    ['HTTP 200 with a body that is not JSON', {kind: 'garbled'}],
    [
      'a 502 after the server applied it',
      {kind: 'error', status: 502, applied: true},
    ],
    ['a connection dropped after the server applied it', {kind: 'drop'}],
  ] as const;
  const NOT_APPLIED = [
    [
      'HTTP 200 with a body that is not JSON, not applied',
      {kind: 'garbled', applied: false},
      'POST offer: HTTP 200 unexpected answer, an HTML page: 502 Bad Gateway',
    ],
    [
      'a 502, not applied',
      {kind: 'error', status: 502},
      'POST offer: HTTP 502 unexpected answer: 502 Service Unavailable (emulator fault)',
    ],
    [
      'a connection dropped before the server saw it',
      {kind: 'drop', applied: false},
      `POST offer: network error: Address unavailable: ${EMULATOR_URL}${OFFER}`,
    ],
    [
      'code 10500 "system busy" under HTTP 200',
      {kind: 'busy'},
      'POST offer: code 10500 system busy, please try again later',
    ],
  ] as const;

  /** One offer to create, whose first POST offer meets `fault`; the first run done. */
  function createWithFault(name: string, fault: FaultRule) {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, name);
    emulator.faults.configure({
      rules: [{...fault, method: 'POST', path: OFFER, count: 1}],
    });
    emulator.clearRequests();
    rt.call('createOffers');
    return {rt, emulator};
  }

  it.each(APPLIED)(
    '%s: one POST, the offer found by name and adopted, its tracking set; the re-run sends nothing',
    (_, fault) => {
      const {rt, emulator} = createWithFault('ambiguous_yes', fault);
      expect(requestsOf(emulator)).toEqual([
        `GET ${OFFERS}`,
        `POST ${OFFER}`,
        `GET ${OFFERS}`,
        `PUT ${TRACKING}`,
      ]);
      expectAdopted(rt, emulator, 'ambiguous_yes');
    },
  );

  it.each(NOT_APPLIED)(
    '%s: looked up, not found, the row says so; the re-run looks again and creates it once',
    (_, fault, answer) => {
      const {rt, emulator} = createWithFault('ambiguous_no', fault);
      expect(requestsOf(emulator)).toEqual([
        `GET ${OFFERS}`,
        `POST ${OFFER}`,
        `GET ${OFFERS}`,
      ]);
      expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
        offer_id: '',
        sync_status: 'ERROR',
        sync_message: `Create sent as offer_name ambiguous_no in account (main account), but its outcome is unknown (${answer}), and no offer named ambiguous_no is listed: run Create new offers again; it looks the offer up by name first and sends it only if it still does not exist.`,
      });
      expect(offersNamed(emulator, 'ambiguous_no')).toEqual([]);
      expectCreatedNow(rt, emulator, 'ambiguous_no');
    },
  );
});

describe('createOffers near the 6-minute limit', () => {
  it('starts no create the slowest answer so far says would end too late; the re-run creates it', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'late_start');
    // The name lookup takes 200 s: a create as slow would end at 400 s, past the limit.
    emulator.faults.configure({
      rules: [
        {kind: 'slow', method: 'GET', path: OFFERS, latencyMs: 200_000},
        {kind: 'slow', method: 'POST', path: OFFER, latencyMs: 200_000},
      ],
    });
    emulator.clearRequests();
    const summary = rt.call('createOffers') as Record<string, unknown>;
    const run = rt.executions.at(-1)!;
    expect(run.error).toBeUndefined();
    expect(run.endMs! - run.startMs).toBeLessThan(5 * 60 * 1000);
    expect(requestsOf(emulator)).toEqual([`GET ${OFFERS}`]);
    expect(summary).toMatchObject({ok: 0, error: 0, remaining: 1});
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: '',
      sync_status: 'EDITED',
      sync_message:
        'Not sent yet: the time ran out. Run Create new offers again to continue.',
    });
    emulator.faults.clear();
    expectCreatedNow(rt, emulator, 'late_start');
  });

  it('killed while a create was under way: its marker is in the sheet, and the re-run adopts the offer', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'killed_run');
    emulator.faults.configure({
      rules: [{kind: 'slow', method: 'POST', path: OFFER, latencyMs: 400_000}],
    });
    emulator.clearRequests();
    expect(() => rt.call('createOffers')).toThrow(EXCEEDED_TIME);
    expect(requestsOf(emulator)).toEqual([`GET ${OFFERS}`, `POST ${OFFER}`]);
    expect(offersNamed(emulator, 'killed_run')).toHaveLength(1);
    expect(recordsOf(rt, 'New Offers')[0]).toMatchObject({
      offer_id: '',
      sync_status: 'ERROR',
      sync_message: expect.stringMatching(
        /^Create sent as offer_name killed_run in account \(main account\) at \S+, but its answer was never recorded: run Create new offers again; it looks the offer up by name before sending anything\.$/,
      ),
    });
    emulator.faults.clear();
    emulator.clearRequests();
    rt.call('createOffers');
    expect(requestsOf(emulator)).toEqual([`GET ${OFFERS}`, `PUT ${TRACKING}`]);
    expectAdopted(rt, emulator, 'killed_run');
  });
});

describe('createOffers killed in its second batch of creates', () => {
  it('leaves every offer that exists with its id or its marker; the re-run finishes with no duplicate', () => {
    const {rt, emulator} = offerDesk();
    const names = Array.from({length: 101}, (_, i) => `batch_offer_${i}`);
    newOffers(rt, emulator, names);
    // The first 100 creates take 100 s, so the second batch may start; it takes 300 s.
    emulator.faults.configure({
      rules: [
        {
          kind: 'slow',
          method: 'POST',
          path: OFFER,
          latencyMs: 100_000,
          count: 100,
        },
        {kind: 'slow', method: 'POST', path: OFFER, latencyMs: 300_000},
      ],
    });
    emulator.clearRequests();
    expect(() => rt.call('createOffers')).toThrow(EXCEEDED_TIME);
    expect(requestsOf(emulator)).toEqual([
      ...names.map(() => `GET ${OFFERS}`),
      ...names.map(() => `POST ${OFFER}`),
    ]);
    const idOf = (name: string) => offersNamed(emulator, name)[0].offer_id;
    const rows = recordsOf(rt, 'New Offers');
    expect(
      rows.slice(0, 100).map(r => [r.offer_id, r.sync_status, r.sync_message]),
    ).toEqual(
      names
        .slice(0, 100)
        .map(name => [
          idOf(name),
          'ERROR',
          `Offer ${idOf(name)} created; its tracking is not set yet: run Create new offers again to set it.`,
        ]),
    );
    for (const row of rows.slice(100)) {
      expect(row).toMatchObject({
        offer_id: '',
        sync_status: 'ERROR',
        sync_message: expect.stringMatching(
          /^Create sent as offer_name batch_offer_\d+ in account \(main account\) at /,
        ),
      });
    }
    emulator.faults.clear();
    emulator.clearRequests();
    expect(rt.call('createOffers')).toMatchObject({ok: 101, error: 0});
    expect(requestsOf(emulator)).toEqual([
      ...names.slice(100).map(() => `GET ${OFFERS}`),
      ...names.map(() => `PUT ${TRACKING}`),
    ]);
    expect(
      recordsOf(rt, 'New Offers').map(r => [r.offer_id, r.sync_status]),
    ).toEqual(names.map(name => [idOf(name), 'OK']));
    for (const name of names) {
      expect(offersNamed(emulator, name)).toHaveLength(1);
    }
  });
});

describe('createOffers: support_server_click', () => {
  it('remembers the value the API accepted for each new offer', () => {
    const {rt, emulator} = offerDesk();
    oneOffer(rt, emulator, 'server_click');
    typeInto(rt, 'New Offers', 2, 'support_server_click', 'YES');
    rt.call('createOffers');
    const [row] = recordsOf(rt, 'New Offers');
    expect(row.sync_status).toBe('OK');
    expect(emulator.offerView(row.offer_id as number)).toMatchObject({
      support_server_click: 'YES',
    });
    expect(memoOf(rt, 'support_server_click sent')).toEqual({
      [String(row.offer_id)]: 'YES',
    });
  });
});
