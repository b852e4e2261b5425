import type {Emulator} from '../../local/emulator';
import {api, call, MAIN, OTHER, setup, SUB_A} from './helpers';

function firstMaterial(emulator: Emulator, account = MAIN) {
  return [...emulator.account(account).materials.values()][0];
}

function validOffer(
  emulator: Emulator,
  overrides: Record<string, unknown> = {},
) {
  const campaign = [...emulator.account(MAIN).campaigns.values()][0];
  const material = firstMaterial(emulator);
  return {
    campaign_id: campaign.campaign_id,
    offer_name: 'New_Offer_001',
    promote_timezone: -5,
    start_time: 1767225600,
    target_geo: 'US,GB',
    billing_type: 'CPI',
    bid_rate: 1.25,
    target_ad_type: 'REWARDED_VIDEO,BANNER',
    creative_sets: [
      {
        creative_set_name: 'set_a',
        geos: ['ALL'],
        ad_outputs: [111],
        creatives: [
          {
            creative_name: material.creative_name,
            creative_md5: material.creative_md5,
          },
        ],
      },
    ],
    ...overrides,
  };
}

const OCPI_ROAS = {
  billing_type: 'OCPI',
  bid_rate: undefined,
  target_ad_type: undefined,
  bid_goal: 'Target-ROAS',
  target_agg_event: ['purchase'],
  target_goal_window: 'D7',
  target_goal: 150.25,
};
const OCPI_CPE = {
  ...OCPI_ROAS,
  bid_goal: 'Target-CPE',
  target_original_event: 'af_complete_registration',
  target_goal: 12.125,
};

describe('POST offer', () => {
  const create = (
    emulator: Emulator,
    body: Record<string, unknown>,
    as = MAIN,
  ) => call(emulator, 'POST', api('offer'), {json: body, as}).json;

  it('creates a PENDING offer and answers the creation fields', () => {
    const {emulator} = setup();
    const request = validOffer(emulator, {
      daily_cap: 120.5,
      total_budget: 1000,
    });
    const reply = create(emulator, request);
    expect(reply.code).toBe(200);
    expect(reply.msg).toBe('success');
    const offerId = reply.data.offer_id;
    expect(reply.data).toEqual({
      campaign_id: request.campaign_id,
      offer_id: offerId,
      offer_name: 'New_Offer_001',
      promote_timezone: -5,
      start_time: 1767225600,
      end_time: 0,
      target_geo: 'US,GB',
      bid_type: 'CPI',
      bid_rate: '1.25',
      daily_cap_type: 'BUDGET',
      daily_cap: '120.5',
      total_budget: '1000',
      settlement_event: '',
      os_version_min: '5.0',
      os_version_max: '99.0.0',
      custom_ad_schedule: {},
      network: '',
      target_ad_type: 'REWARDED_VIDEO,BANNER',
      creative_sets: request.creative_sets,
      target_device: 'PHONE,TABLET',
    });
    const listed = call(emulator, 'GET', api('offers'), {
      query: {offer_id: offerId},
    }).json.data.list[0];
    expect(listed).toMatchObject({
      offer_id: offerId,
      status: 'PENDING',
      click_url_status: 'NOT_EXIST',
      maintain_by: 'ADV',
      budget: [
        {
          target_geo: 'ALL',
          daily_cap_type: 'BUDGET',
          daily_cap: '120.5',
          total_budget: '1000',
        },
      ],
    });
    expect(listed.uuid).toMatch(/^ofr_\d+_[0-9a-f]{8}$/);
    const ads = [...emulator.account(MAIN).creativeAds.values()].filter(
      ad => ad.offer_id === offerId,
    );
    expect(ads).toHaveLength(1);
  });

  it('takes campaign_id as a numeric string and bid_type instead of billing_type', () => {
    const {emulator} = setup();
    const base = validOffer(emulator);
    const reply = create(emulator, {
      ...base,
      campaign_id: String(base.campaign_id),
      billing_type: undefined,
      bid_type: 'CPC',
      bid_rate: 0.001,
    });
    expect(reply.code).toBe(200);
    expect(reply.data.bid_type).toBe('CPC');
  });

  it('lets billing_type win when both are sent', () => {
    const {emulator} = setup();
    const reply = create(emulator, validOffer(emulator, {bid_type: 'CPM'}));
    expect(reply.data.bid_type).toBe('CPI');
  });

  it('creates OCPI offers, filling target_ad_type and showing the goal fields', () => {
    const {emulator} = setup();
    const roas = create(emulator, validOffer(emulator, OCPI_ROAS));
    expect(roas.code).toBe(200);
    expect(roas.data.target_ad_type.split(',')).toHaveLength(10);
    expect(roas.data.bid_rate).toBe('0');
    const cpe = create(
      emulator,
      validOffer(emulator, {...OCPI_CPE, offer_name: 'Cpe_Offer'}),
    );
    const listed = emulator.offerView(cpe.data.offer_id)!;
    expect(listed).toMatchObject({
      bid_goal: 'Target-CPE',
      target_agg_event: ['purchase'],
      target_original_event: 'af_complete_registration',
      target_goal_window: 'D7',
      target_goal: 12.125,
    });
  });

  it('answers Permission denied for a billing type the account lacks, first', () => {
    const {emulator} = setup();
    const campaign = [...emulator.account(SUB_A).campaigns.values()][0];
    const reply = create(
      emulator,
      {...OCPI_ROAS, campaign_id: campaign.campaign_id, offer_name: 'x'},
      SUB_A,
    );
    expect(reply).toEqual({
      code: 10006,
      msg: 'Permission denied',
      data: {billing_type: 'This account may not create OCPI offers.'},
    });
    emulator.setPermissions(MAIN, ['CPI']);
    expect(
      create(emulator, validOffer(emulator, {billing_type: 'CPM'})).msg,
    ).toBe('Permission denied');
  });

  it('refuses a billing type outside the five by default; accepts an extra one, open to all, nothing required', () => {
    const cpa = (emulator: Emulator) =>
      validOffer(emulator, {
        billing_type: 'CPA',
        bid_rate: 0.005,
        target_ad_type: undefined,
      });
    const strict = setup().emulator;
    expect(create(strict, cpa(strict))).toEqual({
      code: 10000,
      msg: 'error',
      data: {billing_type: 'The selected billing_type is invalid.'},
    });
    const {emulator} = setup({extraBillingTypes: ['CPA']});
    emulator.setPermissions(MAIN, ['CPI']);
    const reply = create(emulator, cpa(emulator));
    expect(reply.code).toBe(200);
    expect(emulator.offerView(reply.data.offer_id)).toMatchObject({
      bid_type: 'CPA',
      bid_goal: '',
      bid_rate: 0.005,
      target_ad_type: '',
      settlement_event: '',
    });
    const bare = create(
      emulator,
      validOffer(emulator, {
        billing_type: 'CPA',
        offer_name: 'Bare_Cpa',
        bid_rate: undefined,
        target_ad_type: 'BANNER',
      }),
    );
    expect(emulator.offerView(bare.data.offer_id)).toMatchObject({
      bid_rate: 0,
      target_ad_type: 'BANNER',
    });
    expect(
      create(
        emulator,
        validOffer(emulator, {billing_type: 'cpa', offer_name: 'Lower_Cpa'}),
      ).data,
    ).toEqual({billing_type: 'The selected billing_type is invalid.'});
  });

  const errors: [string, Record<string, unknown>, Record<string, string>][] = [
    [
      'offer_name too short',
      {offer_name: 'ab'},
      {offer_name: 'The offer_name must be between 3 and 95 characters.'},
    ],
    [
      'offer_name too long',
      {offer_name: 'a'.repeat(96)},
      {offer_name: 'The offer_name must be between 3 and 95 characters.'},
    ],
    [
      'offer_name with a hyphen',
      {offer_name: 'bad-name'},
      {offer_name: 'The offer_name format is invalid.'},
    ],
    [
      'offer_name missing',
      {offer_name: ''},
      {offer_name: 'The offer_name field is required.'},
    ],
    [
      'start_time too early',
      {start_time: 946655999},
      {start_time: 'The start_time must be at least 946656000.'},
    ],
    [
      'end_time not after start_time',
      {end_time: 1767225600},
      {end_time: 'The end_time must be greater than start_time.'},
    ],
    [
      'no billing type',
      {billing_type: undefined},
      {
        billing_type:
          'The billing_type field is required when bid_type is not present.',
      },
    ],
    [
      'unknown billing type',
      {billing_type: 'CPA'},
      {billing_type: 'The selected billing_type is invalid.'},
    ],
    [
      'bid_rate missing',
      {bid_rate: undefined},
      {bid_rate: 'The bid_rate field is required when billing_type is CPI.'},
    ],
    [
      'bid_rate below 0.01 for CPI',
      {bid_rate: 0.005},
      {bid_rate: 'The bid_rate must be at least 0.01.'},
    ],
    [
      'bid_rate with four decimals',
      {bid_rate: 1.2345},
      {bid_rate: 'The bid_rate may not have more than 3 decimal places.'},
    ],
    [
      'bid_rate below 0.001 for CPC',
      {billing_type: 'CPC', bid_rate: 0.0009},
      {bid_rate: 'The bid_rate may not have more than 3 decimal places.'},
    ],
    [
      'bid_rate zero for CPC',
      {billing_type: 'CPC', bid_rate: 0},
      {bid_rate: 'The bid_rate must be at least 0.001.'},
    ],
    [
      'target_ad_type missing',
      {target_ad_type: ''},
      {
        target_ad_type:
          'The target_ad_type field is required when billing_type is CPI.',
      },
    ],
    [
      'target_ad_type unknown',
      {target_ad_type: 'BANNER,POPUP'},
      {target_ad_type: 'The target_ad_type format is invalid.'},
    ],
    [
      'target_geo with a space',
      {target_geo: 'US, GB'},
      {target_geo: 'The target_geo format is invalid.'},
    ],
    [
      'target_geo repeated',
      {target_geo: 'US,US'},
      {target_geo: 'The target_geo field has a duplicate value.'},
    ],
    [
      'target_geo mixing ALL',
      {target_geo: 'ALL,US'},
      {target_geo: 'The target_geo format is invalid.'},
    ],
    [
      'timezone outside the enumeration',
      {promote_timezone: 3.3},
      {promote_timezone: 'The selected promote_timezone is invalid.'},
    ],
    [
      'BUDGET daily_cap below 50',
      {daily_cap: 49.999},
      {daily_cap: 'The daily_cap must be at least 50.'},
    ],
    [
      'CONVERSION daily_cap not an integer',
      {daily_cap_type: 'CONVERSION', daily_cap: 10.5},
      {daily_cap: 'The daily_cap must be an integer.'},
    ],
    [
      'CONVERSION daily_cap below 10',
      {daily_cap_type: 'CONVERSION', daily_cap: 9},
      {daily_cap: 'The daily_cap must be at least 10.'},
    ],
    [
      'unknown daily_cap_type',
      {daily_cap_type: 'CLICKS'},
      {daily_cap_type: 'The selected daily_cap_type is invalid.'},
    ],
    [
      'total_budget below 10 with BUDGET',
      {total_budget: 9.5},
      {total_budget: 'The total_budget must be at least 10.'},
    ],
    [
      'total_budget with four decimals',
      {total_budget: 100.0001},
      {
        total_budget:
          'The total_budget may not have more than 3 decimal places.',
      },
    ],
    [
      'CPE without settlement_event',
      {billing_type: 'CPE'},
      {
        settlement_event:
          'The settlement_event field is required when billing_type is CPE.',
      },
    ],
    [
      'CPE settlement_event too short',
      {billing_type: 'CPE', settlement_event: 'ab'},
      {
        settlement_event:
          'The settlement_event must be between 3 and 50 characters.',
      },
    ],
    [
      'CPE settlement_event with a dot',
      {billing_type: 'CPE', settlement_event: 'level.10'},
      {settlement_event: 'The settlement_event format is invalid.'},
    ],
    [
      'os_version_min with four groups',
      {os_version_min: '1.2.3.4'},
      {os_version_min: 'The os_version_min format is invalid.'},
    ],
    [
      'os_version_min with a three-digit group (4.2: one digit; its own 99.0.0 has two)',
      {os_version_min: '1.100'},
      {os_version_min: 'The os_version_min format is invalid.'},
    ],
    [
      'custom_ad_schedule day 8',
      {custom_ad_schedule: {'8': '1,2'}},
      {
        'custom_ad_schedule.8':
          'The custom_ad_schedule.8 key must be a day from 1 to 7.',
      },
    ],
    [
      'custom_ad_schedule hour 24',
      {custom_ad_schedule: {'1': '0,24'}},
      {'custom_ad_schedule.1': 'The custom_ad_schedule.1 format is invalid.'},
    ],
    [
      'target_device unknown',
      {target_device: 'PHONE,TV'},
      {target_device: 'The target_device format is invalid.'},
    ],
    [
      'network unknown',
      {network: 'WIFI,6G'},
      {network: 'The network format is invalid.'},
    ],
    [
      'no creative_sets',
      {creative_sets: []},
      {creative_sets: 'The creative_sets field is required.'},
    ],
    [
      'OCPI without bid_goal',
      {...OCPI_ROAS, bid_goal: undefined},
      {bid_goal: 'The bid_goal field is required when billing_type is OCPI.'},
    ],
    [
      'OCPI with an unknown bid_goal',
      {...OCPI_ROAS, bid_goal: 'Install'},
      {bid_goal: 'The selected bid_goal is invalid.'},
    ],
    [
      'OCPI with a bid_rate',
      {...OCPI_ROAS, bid_rate: 1},
      {bid_rate: 'The bid_rate field is prohibited when billing_type is OCPI.'},
    ],
    [
      'Target-ROAS without its fields',
      {
        ...OCPI_ROAS,
        target_agg_event: undefined,
        target_goal_window: undefined,
        target_goal: undefined,
      },
      {
        target_agg_event:
          'The target_agg_event field is required when bid_goal is Target-ROAS.',
        target_goal_window:
          'The target_goal_window field is required when bid_goal is Target-ROAS.',
        target_goal:
          'The target_goal field is required when bid_goal is Target-ROAS.',
      },
    ],
    [
      'Target-ROAS goal above 1000',
      {...OCPI_ROAS, target_goal: 1000.01},
      {target_goal: 'The target_goal must be between 1 and 1000.'},
    ],
    [
      'Target-ROAS goal with three decimals',
      {...OCPI_ROAS, target_goal: 10.125},
      {target_goal: 'The target_goal may not have more than 2 decimal places.'},
    ],
    [
      'Target-CPE without target_original_event',
      {...OCPI_CPE, target_original_event: undefined},
      {
        target_original_event:
          'The target_original_event field is required when bid_goal is Target-CPE.',
      },
    ],
    [
      'Target-CPE goal below 0.1',
      {...OCPI_CPE, target_goal: 0.09},
      {target_goal: 'The target_goal must be between 0.1 and 2000.'},
    ],
    [
      'Target-CPE goal with four decimals',
      {...OCPI_CPE, target_goal: 1.0001},
      {target_goal: 'The target_goal may not have more than 3 decimal places.'},
    ],
    [
      'target_goal_window not D0 or D7',
      {...OCPI_ROAS, target_goal_window: 'D3'},
      {target_goal_window: 'The selected target_goal_window is invalid.'},
    ],
    [
      'target_goal_by_geo outside the delivery geos',
      {...OCPI_ROAS, target_goal_by_geo: [{geo: 'FR', target_goal: 50}]},
      {
        'target_goal_by_geo.0.geo':
          'The selected target_goal_by_geo.0.geo is invalid.',
      },
    ],
  ];

  it.each(errors)('refuses %s with 10000', (_name, overrides, data) => {
    const {emulator} = setup();
    expect(create(emulator, validOffer(emulator, overrides))).toEqual({
      code: 10000,
      msg: 'error',
      data,
    });
  });

  it('refuses a duplicate offer_name, ignoring case', () => {
    const {emulator} = setup();
    expect(create(emulator, validOffer(emulator)).code).toBe(200);
    expect(
      create(emulator, validOffer(emulator, {offer_name: 'new_offer_001'}))
        .data,
    ).toEqual({offer_name: 'The offer_name has already been taken.'});
  });

  it('checks the campaign: own, existing and deliverable', () => {
    const {emulator} = setup();
    const campaigns = [...emulator.account(MAIN).campaigns.values()];
    const stopped = campaigns.find(c => c.status === 'STOPPED')!;
    const foreign = [...emulator.account(OTHER).campaigns.values()][0];
    expect(
      create(emulator, validOffer(emulator, {campaign_id: foreign.campaign_id}))
        .data,
    ).toEqual({campaign_id: 'The selected campaign_id is invalid.'});
    expect(
      create(emulator, validOffer(emulator, {campaign_id: stopped.campaign_id}))
        .data,
    ).toEqual({
      campaign_id: `The campaign ${stopped.campaign_id} is not deliverable (status STOPPED).`,
    });
  });

  it('checks creative sets: materials of the account, geos and outputs', () => {
    const {emulator} = setup();
    const foreign = firstMaterial(emulator, OTHER);
    const own = firstMaterial(emulator);
    const reply = create(
      emulator,
      validOffer(emulator, {
        creative_sets: [
          {
            creative_set_name: 'set_a',
            geos: ['FR'],
            ad_outputs: [999],
            creatives: [
              {creative_name: 'x', creative_md5: foreign.creative_md5},
              {creative_name: own.creative_name},
            ],
          },
          {creative_set_name: 'set_a', geos: ['ALL'], ad_outputs: [111]},
        ],
      }),
    );
    expect(reply).toEqual({
      code: 10000,
      msg: 'error',
      data: {
        'creative_sets.0.geos.0':
          'The selected creative_sets.0.geos.0 is invalid.',
        'creative_sets.0.ad_outputs.0':
          'The selected creative_sets.0.ad_outputs.0 is invalid.',
        'creative_sets.0.creatives.0.creative_md5':
          'The selected creative_sets.0.creatives.0.creative_md5 is invalid.',
        'creative_sets.0.creatives.1.creative_md5':
          'The creative_sets.0.creatives.1.creative_md5 field is required.',
        'creative_sets.1.creatives':
          'The creative_sets.1.creatives field is required.',
        'creative_sets.1.creative_set_name':
          'The creative_sets.1.creative_set_name field has a duplicate value.',
      },
    });
  });

  it('names every failing field in one answer', () => {
    const {emulator} = setup();
    const reply = create(emulator, {});
    expect(Object.keys(reply.data).sort()).toEqual(
      [
        'billing_type',
        'campaign_id',
        'creative_sets',
        'offer_name',
        'promote_timezone',
        'start_time',
        'target_geo',
      ].sort(),
    );
  });

  it('accepts a schedule as an object or its JSON text, and version forms', () => {
    const {emulator} = setup();
    const reply = create(
      emulator,
      validOffer(emulator, {
        custom_ad_schedule: JSON.stringify({'1': '0,1,23', '7': '12'}),
        os_version_min: '9',
        os_version_max: '14.2',
        target_device: 'TABLET',
        network: 'WIFI,5G',
        end_time: 1767225601,
      }),
    );
    expect(reply.code).toBe(200);
    expect(reply.data).toMatchObject({
      custom_ad_schedule: {'1': '0,1,23', '7': '12'},
      os_version_min: '9',
      os_version_max: '14.2',
      target_device: 'TABLET',
      network: 'WIFI,5G',
      end_time: 1767225601,
    });
  });

  it.each([
    ['10', '14.5'],
    ['12.0.0', '99.0.0'],
  ])(
    'takes two-digit majors, a number per group (README 39): %s to %s',
    (min, max) => {
      const {emulator} = setup();
      const reply = create(
        emulator,
        validOffer(emulator, {os_version_min: min, os_version_max: max}),
      );
      expect(reply.code).toBe(200);
      expect(reply.data).toMatchObject({
        os_version_min: min,
        os_version_max: max,
      });
    },
  );
});
