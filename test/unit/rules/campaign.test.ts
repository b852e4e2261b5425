import {
  CampaignChanges,
  CampaignField,
  KnownAccount,
  checkCampaign,
} from '../../../src/rules/campaign';
import {AM_MESSAGE, checkMaintainedBy} from '../../../src/rules/maintain';
import {checkTracking} from '../../../src/rules/tracking';

const row = (fields: CampaignChanges = {}): CampaignChanges => ({
  campaign_name: 'Name',
  promotion_type: 'APP',
  is_coppa: 'NO',
  icon: '',
  product_name: 'Product',
  package_name: 'com.example.app',
  app_size: 12.5,
  category: 'GAME',
  min_version: '5.0',
  description: 'About',
  ...fields,
});

describe('checkCampaign with what the sheets know of the account', () => {
  const ICON = 'abcdef0123456789abcdef0123456789';
  const known: KnownAccount = {
    others: [
      {id: '2', pulled: 'Winter Sale', typed: 'Winter Sale', row: 3},
      {id: '3', pulled: 'Old Name', typed: 'Spring Sale', row: 4},
    ],
    materials: new Map([
      [ICON, {creative_type: 'IMAGE', resolution: '512x512', size: 120}],
      ['1'.repeat(32), {creative_type: 'VIDEO', resolution: '', size: null}],
      [
        '2'.repeat(32),
        {creative_type: 'IMAGE', resolution: '1200x627', size: 80},
      ],
      [
        '3'.repeat(32),
        {creative_type: 'IMAGE', resolution: '512x512', size: 6000},
      ],
      ['4'.repeat(32), {creative_type: '', resolution: '', size: null}],
    ]),
  };
  const check = (fields: CampaignChanges) =>
    checkCampaign(row(fields), Object.keys(fields) as CampaignField[], known);

  it('campaign_name: another campaign has it (ignoring case), or another row of the push gives it', () => {
    expect(check({campaign_name: 'winter sale'})).toEqual({
      campaign_name:
        'campaign_name "winter sale" is already used by campaign 2: campaign names are unique in the account (ignoring case)',
    });
    expect(check({campaign_name: 'Old Name'})).toEqual({
      campaign_name:
        'campaign_name "Old Name" is already used by campaign 3: campaign names are unique in the account (ignoring case)',
    });
    expect(check({campaign_name: 'Spring Sale'})).toEqual({
      campaign_name:
        'campaign_name "Spring Sale" is also given to campaign 3 (Campaigns row 4) in this push: campaign names are unique in the account (ignoring case)',
    });
    expect(check({campaign_name: 'Summer Sale'})).toEqual({});
  });

  it('icon: a 512x512 image of at most 5 MB among the known materials', () => {
    expect(check({icon: ICON.toUpperCase()})).toEqual({});
    expect(check({icon: '4'.repeat(32)})).toEqual({});
    expect(check({icon: '1'.repeat(32)})).toEqual({
      icon: 'icon must be an IMAGE material (Creatives lists it as VIDEO)',
    });
    expect(check({icon: '2'.repeat(32)})).toEqual({
      icon: 'icon must be a 512x512 image (Creatives lists it as 1200x627)',
    });
    expect(check({icon: '3'.repeat(32)})).toEqual({
      icon: 'icon must be at most 5 MB (Creatives lists it as 6000 KB)',
    });
    expect(check({icon: 'f'.repeat(32)})).toEqual({
      icon: 'icon is not among your materials (Creatives, as last refreshed): refresh Creatives, or upload the image first',
    });
    expect(
      checkCampaign(row({icon: 'f'.repeat(32)}), ['icon'], {others: []}),
    ).toEqual({});
  });

  it('a field without a limit of its own takes no more than 4000 characters', () => {
    expect(check({category: 'c'.repeat(4001)})).toEqual({
      category: `category may have 4000 characters at most (it has 4001: "${'c'.repeat(37)}..." (4001 characters))`,
    });
  });
});

describe('checkCampaign', () => {
  it('accepts valid edits', () => {
    const all = Object.keys(row()) as CampaignField[];
    expect(checkCampaign(row(), all)).toEqual({});
    expect(
      checkCampaign(row({promotion_type: 'WEBSITE', min_version: ''}), [
        'promotion_type',
        'min_version',
      ]),
    ).toEqual({});
    expect(
      checkCampaign(
        row({min_version: '1.2.3.4', icon: 'ABCDEF0123456789abcdef0123456789'}),
        ['min_version', 'icon'],
      ),
    ).toEqual({});
    expect(checkCampaign(row({is_coppa: ''}), ['is_coppa'])).toEqual({});
  });

  it.each<[string, CampaignChanges, CampaignField[], Record<string, string>]>([
    [
      'an empty campaign_name',
      {campaign_name: null},
      ['campaign_name'],
      {campaign_name: 'campaign_name is empty: it cannot be removed'},
    ],
    [
      'a campaign_name over 100 characters',
      {campaign_name: 'n'.repeat(101)},
      ['campaign_name'],
      {
        campaign_name:
          'campaign_name may have 100 characters at most (it has 101)',
      },
    ],
    [
      'a product_name over 100 characters',
      {product_name: 'p'.repeat(120)},
      ['product_name'],
      {
        product_name:
          'product_name may have 100 characters at most (it has 120)',
      },
    ],
    [
      'a description over 4000 characters',
      {description: 'd'.repeat(4001)},
      ['description'],
      {
        description:
          'description may have 4000 characters at most (it has 4001)',
      },
    ],
    [
      'a promotion_type outside APP, WEBSITE',
      {promotion_type: 'GAME'},
      ['promotion_type'],
      {promotion_type: 'promotion_type must be APP or WEBSITE'},
    ],
    [
      'an is_coppa outside YES, NO',
      {is_coppa: 'MAYBE'},
      ['is_coppa'],
      {is_coppa: 'is_coppa must be YES or NO'},
    ],
    [
      'an icon that is no md5',
      {icon: 'icon.png'},
      ['icon'],
      {
        icon: 'icon must be the md5 of an uploaded image: 32 characters 0-9 and a-f',
      },
    ],
    [
      'an app_size with three decimals',
      {app_size: 12.345},
      ['app_size'],
      {app_size: 'app_size may have two decimals at most'},
    ],
    [
      'an empty app_size',
      {app_size: null},
      ['app_size'],
      {app_size: 'app_size is empty: give the package size in MB'},
    ],
    [
      'a negative app_size',
      {app_size: -1},
      ['app_size'],
      {app_size: 'app_size cannot be below 0'},
    ],
    [
      'a min_version of another form',
      {min_version: '5.0.0.0.1'},
      ['min_version'],
      {
        min_version:
          'min_version must have the form x, x.x, x.x.x or x.x.x.x, with x digits (e.g. 5.0)',
      },
    ],
    [
      'a min_version with letters',
      {min_version: 'v5'},
      ['min_version'],
      {
        min_version:
          'min_version must have the form x, x.x, x.x.x or x.x.x.x, with x digits (e.g. 5.0)',
      },
    ],
    [
      'a min_version on a WEBSITE',
      {promotion_type: 'WEBSITE'},
      ['promotion_type'],
      {min_version: 'min_version must be empty for a WEBSITE campaign'},
    ],
    [
      'no min_version on an APP',
      {min_version: null},
      ['min_version'],
      {
        min_version:
          'min_version is empty: an APP campaign needs one (x, x.x, x.x.x or x.x.x.x)',
      },
    ],
  ])('refuses %s', (_, fields, changed, expected) => {
    expect(checkCampaign(row(fields), changed)).toEqual(expected);
  });

  it('checks only the fields being sent', () => {
    expect(
      checkCampaign(row({description: 'd'.repeat(5000)}), ['campaign_name']),
    ).toEqual({});
  });
});

describe('checkMaintainedBy', () => {
  it('refuses edits of records the account manager maintains', () => {
    expect(checkMaintainedBy('AM')).toEqual({maintain_by: AM_MESSAGE});
    expect(checkMaintainedBy('ADV')).toEqual({});
  });
});

describe('checkTracking', () => {
  const ok = {
    tracking_method: 'S2S',
    click_url: 'https://t.example.test/c',
    support_server_click: 'NO',
  };

  it('accepts the four fields, an empty click_url included', () => {
    expect(checkTracking(ok)).toEqual({});
    expect(checkTracking({...ok, click_url: null})).toEqual({});
  });

  it('click_url takes at most 2048 characters, and the message quotes only its start', () => {
    const url = `https://t.example.test/c?q=${'a'.repeat(2048 - 27)}`;
    expect(checkTracking({...ok, click_url: url})).toEqual({});
    expect(checkTracking({...ok, click_url: `${url}a`})).toEqual({
      click_url:
        'click_url may have 2048 characters at most (it has 2049: "https://t.example.test/c?q=aaaaaaaaaa..." (2049 characters))',
    });
  });

  it.each<[string, object, Record<string, string>]>([
    [
      'an empty tracking_method',
      {tracking_method: null},
      {
        tracking_method:
          'tracking_method is empty: PUT tracking sends it with click_url and support_server_click',
      },
    ],
    [
      'a click_url that is no web link',
      {click_url: 'track.example.test'},
      {
        click_url:
          'click_url must be a web link starting with http:// or https://',
      },
    ],
    [
      'no support_server_click',
      {support_server_click: null},
      {
        support_server_click:
          'support_server_click is empty: pick YES or NO (the offers list does not return it, and PUT tracking needs it)',
      },
    ],
    [
      'a support_server_click outside YES, NO',
      {support_server_click: 'SOMETIMES'},
      {support_server_click: 'support_server_click must be YES or NO'},
    ],
  ])('refuses %s', (_, fields, expected) => {
    expect(checkTracking({...ok, ...fields})).toEqual(expected);
  });
});
