import {
  checkNewOffer,
  duplicateNameProblems,
  takenNameProblem,
} from '../../../src/rules/offer';

const CPI = {
  campaign_id: 1001,
  offer_name: 'spring_sale_us',
  promote_timezone: -5,
  start_time: 1767225600,
  end_time: '',
  target_geo: 'US,GB',
  billing_type: 'CPI',
  bid_rate: 1.25,
  target_ad_type: 'INTERSTITIAL_VIDEO,REWARDED_VIDEO',
};

const ROAS = {
  ...CPI,
  billing_type: 'OCPI',
  bid_rate: '',
  target_ad_type: '',
  bid_goal: 'Target-ROAS',
  target_agg_event: 'purchase,subscribe',
  target_goal_window: 'D7',
  target_goal: 120.5,
};

const CPE_GOAL = {
  ...ROAS,
  bid_goal: 'Target-CPE',
  target_original_event: 'level_10',
  target_goal: 2.125,
};

function problems(row: Record<string, unknown>) {
  return checkNewOffer(row).problems;
}

describe('checkNewOffer: a valid row becomes the request body', () => {
  it('reads a formula result as shown: 110.00000000000001 is 110, 1.2345 still has 4 decimals', () => {
    const check = checkNewOffer({
      ...CPI,
      bid_rate: 1.1 * 1.1,
      daily_cap: 100 * 1.1,
      total_budget: 0.1 + 0.2 + 1000,
    });
    expect(check.problems).toEqual({});
    expect(check.body).toMatchObject({
      bid_rate: 1.21,
      daily_cap: 110,
      total_budget: 1000.3,
    });
    expect(problems({...CPI, bid_rate: 1.2345})).toEqual({
      bid_rate: 'bid_rate may have at most 3 decimals (got 1.2345)',
    });
  });

  it('two-digit OS majors are versions: 14.5, 10 and 12.0.0 are sent as typed', () => {
    const check = checkNewOffer({
      ...CPI,
      os_version_min: '14.5',
      os_version_max: '12.0.0',
    });
    expect(check.problems).toEqual({});
    expect(check.body).toMatchObject({
      os_version_min: '14.5',
      os_version_max: '12.0.0',
    });
    expect(checkNewOffer({...CPI, os_version_min: 10}).body).toMatchObject({
      os_version_min: '10',
    });
  });

  it('leaves out what the API ignores or fills for the billing type, with a note each', () => {
    const cpi = checkNewOffer({...CPI, settlement_event: 'install'});
    expect(cpi.problems).toEqual({});
    expect(cpi.body).not.toHaveProperty('settlement_event');
    expect(cpi.notes).toEqual([
      'settlement_event is left out: only CPE offers use it',
    ]);
    const ocpi = checkNewOffer({
      ...ROAS,
      bid_rate: 1,
      target_ad_type: 'BANNER',
    });
    expect(ocpi.problems).toEqual({});
    expect(ocpi.body).not.toHaveProperty('bid_rate');
    expect(ocpi.body).not.toHaveProperty('target_ad_type');
    expect(ocpi.notes).toEqual([
      'bid_rate is left out: OCPI offers are not sent one (the bid follows target_goal)',
      'target_ad_type is left out: the API fills it for OCPI',
    ]);
    expect(checkNewOffer(CPI).notes).toEqual([]);
  });

  it('CPI: numbers typed, blanks left out, lists normalised', () => {
    const check = checkNewOffer({
      ...CPI,
      campaign_id: '1001',
      target_geo: 'us, gb',
      daily_cap: 'OPEN',
      target_device: 'phone',
      custom_ad_schedule: '{"1":"9, 10","7":"23"}',
      os_version_min: 9.1,
      os_version_max: '99.0.0',
    });
    expect(check.problems).toEqual({});
    expect(check.body).toEqual({
      campaign_id: 1001,
      offer_name: 'spring_sale_us',
      promote_timezone: -5,
      start_time: 1767225600,
      target_geo: 'US,GB',
      billing_type: 'CPI',
      bid_rate: 1.25,
      target_ad_type: 'INTERSTITIAL_VIDEO,REWARDED_VIDEO',
      target_device: 'PHONE',
      custom_ad_schedule: {'1': '9,10', '7': '23'},
      os_version_min: '9.1',
      os_version_max: '99.0.0',
    });
  });

  it('takes values as the codec decodes them: lists as arrays, JSON as objects; end_time 0 is no end', () => {
    const check = checkNewOffer({
      ...ROAS,
      target_geo: 'US,GB',
      target_agg_event: ['purchase'],
      custom_ad_schedule: {'2': '8,9'},
      end_time: 0,
    });
    expect(check.problems).toEqual({});
    expect(check.body).toMatchObject({
      target_agg_event: ['purchase'],
      custom_ad_schedule: {'2': '8,9'},
    });
    expect(check.body).not.toHaveProperty('end_time');
  });

  it('OCPI Target-CPE: bid_goal and every target, no bid_rate', () => {
    const check = checkNewOffer({
      ...CPE_GOAL,
      daily_cap_type: 'CONVERSION',
      daily_cap: 10,
      total_budget: 0.5,
      target_goal_by_geo: '[{"geo":"us","target_goal":1.5}]',
    });
    expect(check.problems).toEqual({});
    expect(check.body).toMatchObject({
      billing_type: 'OCPI',
      bid_goal: 'Target-CPE',
      target_agg_event: ['purchase', 'subscribe'],
      target_original_event: 'level_10',
      target_goal_window: 'D7',
      target_goal: 2.125,
      target_goal_by_geo: [{geo: 'US', target_goal: 1.5}],
      daily_cap_type: 'CONVERSION',
      daily_cap: 10,
      total_budget: 0.5,
    });
    expect(check.body).not.toHaveProperty('bid_rate');
    expect(check.body).not.toHaveProperty('target_ad_type');
  });

  it('CPE sends settlement_event; the automatic bid_goal may be typed, is not sent, and the row says so', () => {
    const check = checkNewOffer({
      ...CPI,
      billing_type: 'CPE',
      bid_goal: 'Event',
      settlement_event: 'first_purchase',
    });
    expect(check.problems).toEqual({});
    expect(check.body?.settlement_event).toBe('first_purchase');
    expect(check.body).not.toHaveProperty('bid_goal');
    expect(check.notes).toEqual([
      'bid_goal is left out: the API sets Event for CPE itself',
    ]);
  });
});

describe('checkNewOffer: billing_type outside the five the document names', () => {
  const NOTE =
    'billing_type CPA is not one the API document names (CPI, CPE, CPM, CPC, OCPI): sent as typed; the API decides which fields it needs';

  it('a known type in other case is sent in its spelling, without a note', () => {
    const check = checkNewOffer({...CPI, billing_type: ' cpi '});
    expect(check.problems).toEqual({});
    expect(check.body?.billing_type).toBe('CPI');
    expect(check.notes).toEqual([]);
  });

  it('another code is sent as typed (trimmed), nothing required, what is filled sent', () => {
    const check = checkNewOffer({
      ...CPI,
      billing_type: ' CPA ',
      bid_rate: 0.005,
      target_ad_type: '',
    });
    expect(check.problems).toEqual({});
    expect(check.notes).toEqual([NOTE]);
    expect(check.body).toMatchObject({billing_type: 'CPA', bid_rate: 0.005});
    expect(check.body).not.toHaveProperty('target_ad_type');
    expect(check.body).not.toHaveProperty('bid_goal');
    expect(check.body).not.toHaveProperty('settlement_event');
  });

  it('with no pricing field at all; every one filled is sent', () => {
    const bare = checkNewOffer({
      ...CPI,
      billing_type: 'CPA',
      bid_rate: '',
      target_ad_type: '',
    });
    expect(bare.problems).toEqual({});
    expect(bare.body).not.toHaveProperty('bid_rate');
    const full = checkNewOffer({
      ...CPE_GOAL,
      billing_type: 'CPA',
      bid_rate: 2,
      target_ad_type: 'BANNER',
      settlement_event: 'purchase',
    });
    expect(full.problems).toEqual({});
    expect(full.body).toMatchObject({
      billing_type: 'CPA',
      bid_rate: 2,
      target_ad_type: 'BANNER',
      settlement_event: 'purchase',
      bid_goal: 'Target-CPE',
      target_agg_event: ['purchase', 'subscribe'],
      target_original_event: 'level_10',
      target_goal_window: 'D7',
      target_goal: 2.125,
    });
  });
});

describe('checkNewOffer: one case per rule of 4.2, with its message', () => {
  const cases: Array<
    [string, Record<string, unknown>, Record<string, string>]
  > = [
    [
      'campaign_id required',
      {...CPI, campaign_id: ''},
      {campaign_id: 'campaign_id is required'},
    ],
    [
      'campaign_id an integer',
      {...CPI, campaign_id: '12a'},
      {
        campaign_id:
          'campaign_id must be a whole number, the campaign\'s id (got "12a")',
      },
    ],
    [
      'offer_name required',
      {...CPI, offer_name: ' '},
      {offer_name: 'offer_name is required'},
    ],
    [
      'offer_name charset',
      {...CPI, offer_name: 'spring-sale'},
      {
        offer_name:
          'offer_name may contain only letters, digits and underscore',
      },
    ],
    [
      'offer_name length 3..95',
      {...CPI, offer_name: 'ab'},
      {offer_name: 'offer_name must be 3 to 95 characters long (it has 2)'},
    ],
    [
      'offer_name at most 95',
      {...CPI, offer_name: 'a'.repeat(96)},
      {offer_name: 'offer_name must be 3 to 95 characters long (it has 96)'},
    ],
    [
      'promote_timezone required',
      {...CPI, promote_timezone: ''},
      {promote_timezone: 'promote_timezone is required'},
    ],
    [
      'promote_timezone a number',
      {...CPI, promote_timezone: 'EST'},
      {
        promote_timezone:
          'promote_timezone must be a number of hours from UTC such as -5 or 8 (got "EST")',
      },
    ],
    [
      'promote_timezone in range',
      {...CPI, promote_timezone: 15},
      {
        promote_timezone:
          'promote_timezone must be a UTC offset from -12 to 14 (got 15)',
      },
    ],
    [
      'start_time required',
      {...CPI, start_time: ''},
      {start_time: 'start_time is required'},
    ],
    [
      'start_time a timestamp',
      {...CPI, start_time: 'tomorrow'},
      {
        start_time:
          'start_time must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (got "tomorrow")',
      },
    ],
    [
      'start_time not earlier than 946656000',
      {...CPI, start_time: 946655999},
      {
        start_time:
          'start_time must not be earlier than 946656000 (2000-01-01 00:00 at UTC+8)',
      },
    ],
    [
      'end_time later than start_time',
      {...CPI, end_time: 1767225600},
      {end_time: 'end_time must be later than start_time'},
    ],
    [
      'end_time a timestamp',
      {...CPI, end_time: '2026-13-45'},
      {
        end_time:
          'end_time must be a date, a date and time (yyyy-mm-dd hh:mm) or Unix seconds (got "2026-13-45")',
      },
    ],
    [
      'target_geo required',
      {...CPI, target_geo: ''},
      {target_geo: 'target_geo is required'},
    ],
    [
      'target_geo codes',
      {...CPI, target_geo: 'US,USA'},
      {
        target_geo:
          'target_geo has "USA", which is not a two-letter country code: write ALL or codes such as US,GB',
      },
    ],
    [
      'target_geo ALL alone',
      {...CPI, target_geo: 'ALL,US'},
      {target_geo: 'target_geo must be ALL alone or geo codes, not both'},
    ],
    [
      'target_geo no empty item',
      {...CPI, target_geo: 'US,,GB'},
      {target_geo: 'target_geo has an empty item between commas'},
    ],
    [
      'target_geo no repeats',
      {...CPI, target_geo: 'US,GB,US'},
      {target_geo: 'target_geo lists US twice'},
    ],
    [
      'billing_type required',
      {...CPI, billing_type: ''},
      {
        billing_type:
          'billing_type is required: CPI, CPE, CPM, CPC, OCPI or another billing-type code of 2 to 20 letters, digits or underscores',
      },
    ],
    [
      'billing_type a known one or a code',
      {...CPI, billing_type: 'C P A'},
      {
        billing_type:
          'billing_type must be CPI, CPE, CPM, CPC, OCPI or another billing-type code of 2 to 20 letters, digits or underscores (got "C P A")',
      },
    ],
    [
      'billing_type code not too long',
      {...CPI, billing_type: 'A'.repeat(21)},
      {
        billing_type: `billing_type must be CPI, CPE, CPM, CPC, OCPI or another billing-type code of 2 to 20 letters, digits or underscores (got "${'A'.repeat(21)}")`,
      },
    ],
    [
      'billing_type unknown: fields filled keep their format (bid_rate above 0, 3 decimals)',
      {...CPI, billing_type: 'CPA', bid_rate: 0, settlement_event: 'a b'},
      {
        bid_rate: 'bid_rate must be greater than 0 (got 0)',
        settlement_event:
          'settlement_event may contain only letters, digits and underscore',
      },
    ],
    [
      'billing_type unknown: bid_goal Target-ROAS brings its targets',
      {...CPI, billing_type: 'CPA', bid_goal: 'Target-ROAS'},
      {
        target_agg_event:
          'target_agg_event is required when bid_goal is Target-ROAS',
        target_goal_window:
          'target_goal_window is required when bid_goal is Target-ROAS: D0 or D7',
        target_goal: 'target_goal is required when bid_goal is Target-ROAS',
      },
    ],
    [
      'billing_type unknown: targets only with an OCPI bid_goal',
      {...CPI, billing_type: 'CPA', target_goal: 5},
      {
        target_goal:
          'target_goal is used only when bid_goal is Target-ROAS or Target-CPE: leave it empty',
      },
    ],
    [
      'bid_goal required for OCPI',
      {...ROAS, bid_goal: ''},
      {
        bid_goal:
          'bid_goal is required when billing_type is OCPI: Target-ROAS or Target-CPE',
      },
    ],
    [
      'bid_goal Target-ROAS or Target-CPE for OCPI',
      {...ROAS, bid_goal: 'Install'},
      {
        bid_goal:
          'bid_goal must be Target-ROAS or Target-CPE when billing_type is OCPI (got "Install")',
      },
    ],
    [
      'bid_goal set automatically for CPI',
      {...CPI, bid_goal: 'Target-ROAS'},
      {
        bid_goal:
          'bid_goal is set by the API for CPI (Install): leave it empty',
      },
    ],
    [
      'target_agg_event required for Target-ROAS',
      {...ROAS, target_agg_event: ''},
      {
        target_agg_event:
          'target_agg_event is required when bid_goal is Target-ROAS',
      },
    ],
    [
      'target_agg_event required for Target-CPE',
      {...CPE_GOAL, target_agg_event: ''},
      {
        target_agg_event:
          'target_agg_event is required when bid_goal is Target-CPE',
      },
    ],
    [
      'target_original_event required for Target-CPE',
      {...CPE_GOAL, target_original_event: ''},
      {
        target_original_event:
          'target_original_event is required when bid_goal is Target-CPE',
      },
    ],
    [
      'target_original_event only for Target-CPE',
      {...ROAS, target_original_event: 'level_10'},
      {
        target_original_event:
          'target_original_event is used only when bid_goal is Target-CPE: leave it empty',
      },
    ],
    [
      'target_goal_window required',
      {...ROAS, target_goal_window: ''},
      {
        target_goal_window:
          'target_goal_window is required when bid_goal is Target-ROAS: D0 or D7',
      },
    ],
    [
      'target_goal_window D0 or D7',
      {...ROAS, target_goal_window: 'D30'},
      {target_goal_window: 'target_goal_window must be D0 or D7 (got "D30")'},
    ],
    [
      'target_goal required',
      {...CPE_GOAL, target_goal: ''},
      {target_goal: 'target_goal is required when bid_goal is Target-CPE'},
    ],
    [
      'target_goal ROAS range 1..1000',
      {...ROAS, target_goal: 1000.01},
      {
        target_goal:
          'target_goal must be from 1 to 1000 for Target-ROAS (a percentage) (got 1000.01)',
      },
    ],
    [
      'target_goal ROAS two decimals',
      {...ROAS, target_goal: '120.125'},
      {
        target_goal:
          'target_goal may have at most 2 decimals for Target-ROAS (got 120.125)',
      },
    ],
    [
      'target_goal CPE range 0.1..2000',
      {...CPE_GOAL, target_goal: 0.09},
      {
        target_goal:
          'target_goal must be from 0.1 to 2000 for Target-CPE (got 0.09)',
      },
    ],
    [
      'target_goal CPE three decimals',
      {...CPE_GOAL, target_goal: 2.1255},
      {
        target_goal:
          'target_goal may have at most 3 decimals for Target-CPE (got 2.1255)',
      },
    ],
    [
      'target goals only for OCPI',
      {...CPI, target_goal: 120},
      {
        target_goal:
          'target_goal is used only when billing_type is OCPI: leave it empty',
      },
    ],
    [
      'target_goal_by_geo form',
      {...ROAS, target_goal_by_geo: 'US:120'},
      {
        target_goal_by_geo:
          'target_goal_by_geo must be a JSON list such as [{"geo":"US","target_goal":120}]',
      },
    ],
    [
      'target_goal_by_geo goals in range',
      {...ROAS, target_goal_by_geo: '[{"geo":"US","target_goal":0.5}]'},
      {
        target_goal_by_geo:
          'target_goal_by_geo item 1: target_goal must be from 1 to 1000 for Target-ROAS (a percentage) (got 0.5)',
      },
    ],
    [
      'bid_rate required for CPI/CPE/CPM/CPC',
      {...CPI, billing_type: 'CPM', bid_rate: ''},
      {bid_rate: 'bid_rate is required when billing_type is CPM'},
    ],
    [
      'bid_rate a number',
      {...CPI, bid_rate: 'free'},
      {bid_rate: 'bid_rate must be a number (got "free")'},
    ],
    [
      'bid_rate greater than 0',
      {...CPI, bid_rate: 0},
      {bid_rate: 'bid_rate must be greater than 0 (got 0)'},
    ],
    [
      'bid_rate three decimals',
      {...CPI, bid_rate: 1.2345},
      {bid_rate: 'bid_rate may have at most 3 decimals (got 1.2345)'},
    ],
    [
      'bid_rate minimum 0.01 for CPI, CPE, CPM',
      {...CPI, bid_rate: 0.009},
      {bid_rate: 'bid_rate must be at least 0.01 for CPI (got 0.009)'},
    ],
    [
      'bid_rate below the CPC minimum 0.001 needs a fourth decimal',
      {...CPI, billing_type: 'CPC', bid_rate: '0.0005'},
      {bid_rate: 'bid_rate may have at most 3 decimals (got 0.0005)'},
    ],
    [
      'target_ad_type required for CPI/CPE/CPM/CPC',
      {...CPI, billing_type: 'CPC', target_ad_type: ''},
      {target_ad_type: 'target_ad_type is required when billing_type is CPC'},
    ],
    [
      'settlement_event required for CPE',
      {...CPI, billing_type: 'CPE'},
      {
        settlement_event:
          'settlement_event is required when billing_type is CPE',
      },
    ],
    [
      'settlement_event charset',
      {...CPI, billing_type: 'CPE', settlement_event: 'first purchase'},
      {
        settlement_event:
          'settlement_event may contain only letters, digits and underscore',
      },
    ],
    [
      'settlement_event length 3..50',
      {...CPI, billing_type: 'CPE', settlement_event: 'x'.repeat(51)},
      {
        settlement_event:
          'settlement_event must be 3 to 50 characters long (it has 51)',
      },
    ],
    [
      'daily_cap_type BUDGET or CONVERSION',
      {...CPI, daily_cap_type: 'INSTALLS'},
      {
        daily_cap_type:
          'daily_cap_type must be BUDGET or CONVERSION (got "INSTALLS")',
      },
    ],
    [
      'daily_cap BUDGET minimum 50',
      {...CPI, daily_cap: 49.999},
      {
        daily_cap:
          'daily_cap must be at least 50 when daily_cap_type is BUDGET (got 49.999)',
      },
    ],
    [
      'daily_cap BUDGET three decimals',
      {...CPI, daily_cap_type: 'BUDGET', daily_cap: 50.0001},
      {
        daily_cap:
          'daily_cap may have at most 3 decimals when daily_cap_type is BUDGET (got 50.0001)',
      },
    ],
    [
      'daily_cap CONVERSION an integer',
      {...CPI, daily_cap_type: 'CONVERSION', daily_cap: 10.5},
      {
        daily_cap:
          'daily_cap must be a whole number of conversions when daily_cap_type is CONVERSION (got "10.5")',
      },
    ],
    [
      'daily_cap CONVERSION minimum 10',
      {...CPI, daily_cap_type: 'CONVERSION', daily_cap: 9},
      {
        daily_cap:
          'daily_cap must be at least 10 when daily_cap_type is CONVERSION (got 9)',
      },
    ],
    [
      'total_budget three decimals',
      {...CPI, total_budget: 100.0001},
      {total_budget: 'total_budget may have at most 3 decimals (got 100.0001)'},
    ],
    [
      'total_budget minimum 10 with BUDGET',
      {...CPI, total_budget: 9.999},
      {
        total_budget:
          'total_budget must be at least 10 when daily_cap_type is BUDGET (got 9.999)',
      },
    ],
    [
      'os_version_min form',
      {...CPI, os_version_min: '14.'},
      {
        os_version_min:
          'os_version_min must be a number of one or two digits, then up to two groups of a dot and one or two digits (9, 14.5 or 12.0.1); 0.0.0 means no minimum (got "14.")',
      },
    ],
    [
      'os_version_max form',
      {...CPI, os_version_max: '9.1.2.3'},
      {
        os_version_max:
          'os_version_max must be a number of one or two digits, then up to two groups of a dot and one or two digits (9, 14.5 or 12.0.1); 99.0.0 means no maximum (got "9.1.2.3")',
      },
    ],
    [
      'os_version_min group of three digits (4.2: one digit a group; its own 99.0.0 has two)',
      {...CPI, os_version_min: '1.100'},
      {
        os_version_min:
          'os_version_min must be a number of one or two digits, then up to two groups of a dot and one or two digits (9, 14.5 or 12.0.1); 0.0.0 means no minimum (got "1.100")',
      },
    ],
    [
      'custom_ad_schedule form',
      {...CPI, custom_ad_schedule: 'weekdays'},
      {
        custom_ad_schedule:
          'custom_ad_schedule must be a JSON object such as {"1":"9,10,11","6":"0,1"}: keys 1 (Monday) to 7 (Sunday), values hours 0 to 23 separated by commas',
      },
    ],
    [
      'custom_ad_schedule keys 1..7',
      {...CPI, custom_ad_schedule: '{"8":"1"}'},
      {
        custom_ad_schedule:
          'custom_ad_schedule has key "8", which is not a day: use 1 (Monday) to 7 (Sunday)',
      },
    ],
    [
      'custom_ad_schedule hours 0..23',
      {...CPI, custom_ad_schedule: '{"1":"22,24"}'},
      {
        custom_ad_schedule:
          'custom_ad_schedule day 1 must list hours 0 to 23 separated by commas (got "22,24")',
      },
    ],
    [
      'target_device from PHONE, TABLET',
      {...CPI, target_device: 'PHONE,TV'},
      {
        target_device:
          'target_device must be PHONE, TABLET or PHONE,TABLET (got "TV")',
      },
    ],
    [
      'network as a list',
      {...CPI, network: 'WIFI,,4G'},
      {
        network:
          'network must be network types separated by commas, without empty items',
      },
    ],
  ];

  it.each(cases)('%s', (_rule, row, expected) => {
    const check = checkNewOffer(row);
    expect(check.problems).toEqual(expected);
    expect(check.body).toBeUndefined();
  });

  it('says what to do with Unix seconds typed into a date-formatted cell', () => {
    expect(problems({...CPI, start_time: new Date(NaN)})).toEqual({
      start_time:
        'start_time is formatted as a date, so Sheets read the number typed as days (a date millions of years away): format the cell as plain text (Format > Number > Plain text) and type the Unix seconds again, or type a date',
    });
  });

  it('refuses an overlong cell by its length, quoting a short excerpt', () => {
    const check = checkNewOffer({...CPI, target_ad_type: 'B'.repeat(50000)});
    expect(check.problems).toEqual({
      target_ad_type: `target_ad_type may have 4000 characters at most (it has 50000: "${'B'.repeat(37)}..." (50000 characters))`,
    });
    expect(check.body).toBeUndefined();
  });

  it('reports every problem of a row at once, one per field', () => {
    expect(
      problems({...CPI, offer_name: 'x', bid_rate: '', target_device: 'TV'}),
    ).toEqual({
      offer_name: 'offer_name must be 3 to 95 characters long (it has 1)',
      bid_rate: 'bid_rate is required when billing_type is CPI',
      target_device:
        'target_device must be PHONE, TABLET or PHONE,TABLET (got "TV")',
    });
  });

  it('bid_rate at the CPC minimum of 0.001 is accepted, below CPI minimum is not', () => {
    expect(problems({...CPI, billing_type: 'CPC', bid_rate: 0.001})).toEqual(
      {},
    );
    expect(
      problems({
        ...CPI,
        billing_type: 'CPE',
        settlement_event: 'abc',
        bid_rate: 0.001,
      }),
    ).toEqual({
      bid_rate: 'bid_rate must be at least 0.01 for CPE (got 0.001)',
    });
  });

  it('the bounds themselves are accepted', () => {
    expect(
      problems({
        ...CPI,
        start_time: 946656000,
        offer_name: 'abc',
        daily_cap: 50,
        total_budget: 10,
      }),
    ).toEqual({});
    expect(problems({...ROAS, target_goal: 1})).toEqual({});
    expect(
      problems({...ROAS, target_goal: 1000, target_goal_window: 'D0'}),
    ).toEqual({});
    expect(problems({...CPE_GOAL, target_goal: 0.1})).toEqual({});
    expect(problems({...CPE_GOAL, target_goal: 2000})).toEqual({});
    expect(
      problems({...CPI, os_version_min: '0.0.0', os_version_max: '9'}),
    ).toEqual({});
  });
});

describe('offer_name uniqueness', () => {
  it('in the sheet: each row using a name twice is told which other rows use it', () => {
    const found = duplicateNameProblems([
      {row: 2, name: 'a_offer'},
      {row: 3, name: 'b_offer'},
      {row: 5, name: 'a_offer'},
      {row: 7, name: 'a_offer'},
    ]);
    expect(Object.fromEntries(found)).toEqual({
      2: 'offer_name is also used by New Offers row 5, 7: offer names must be unique',
      5: 'offer_name is also used by New Offers row 2, 7: offer names must be unique',
      7: 'offer_name is also used by New Offers row 2, 5: offer names must be unique',
    });
  });

  it('in the account', () => {
    expect(takenNameProblem(4242)).toBe(
      'offer_name is already used by offer 4242 in this account: offer names must be unique',
    );
  });
});

describe('values legal for the API but almost surely mistaken', () => {
  it('reads a Target-ROAS typed with % as the percentage meant, and says so', () => {
    const check = checkNewOffer({...ROAS, target_goal: '150%'});
    expect(check.problems).toEqual({});
    expect(check.body?.target_goal).toBe(150);
    expect(check.notes).toContain(
      'target_goal 150% is read as 150 (Target-ROAS is a percentage)',
    );
  });

  it('refuses a Target-CPE typed with %, saying what to type', () => {
    expect(problems({...CPE_GOAL, target_goal: '2.5%'})).toEqual({
      target_goal:
        'target_goal is a cost for Target-CPE, not a percentage: type the number without % (got "2.5%")',
    });
  });

  it('refuses a start_time or end_time of 13 digits as milliseconds, not seconds', () => {
    expect(
      problems({...CPI, start_time: '1767225600000', end_time: 1767312000000}),
    ).toEqual({
      start_time:
        'start_time has 13 digits: that is milliseconds, not seconds. Type Unix seconds (1767225600) or a date',
      end_time:
        'end_time has 13 digits: that is milliseconds, not seconds. Type Unix seconds (1767312000) or a date',
    });
  });
});
