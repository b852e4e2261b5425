import type {Emulator} from '../../local/emulator';
import {api, call, MAIN, OTHER, png, setup, upload} from './helpers';

const CAMPAIGN_FIELDS = [
  'campaign_id',
  'campaign_name',
  'is_coppa',
  'promotion_type',
  'alive_in_store',
  'preview_url',
  'product_name',
  'package_name',
  'description',
  'icon',
  'platform',
  'category',
  'app_size',
  'min_version',
];

function campaigns(emulator: Emulator, account = MAIN) {
  return [...emulator.account(account).campaigns.values()];
}

describe('GET campaign', () => {
  const {emulator} = setup();
  const list = (query: Record<string, string | number> = {}) =>
    call(emulator, 'GET', api('campaign'), {query}).json;

  it('pages 10 by default, caps at 50, shows 2.2 fields with maintain_by and status', () => {
    const reply = list();
    expect(reply.data).toMatchObject({page: 1, limit: 10, total: 30});
    expect(Object.keys(reply.data.list[0]).sort()).toEqual(
      [...CAMPAIGN_FIELDS, 'maintain_by', 'status'].sort(),
    );
    expect(reply.data.list[0].app_size).toMatch(/^\d+\.\d{2}$/);
    expect(list({limit: 51}).data.limit).toBe(50);
    expect(list({page: 4}).data).toEqual({
      page: 4,
      limit: 10,
      total: 30,
      list: [],
    });
  });

  it('takes at most 50 campaign ids', () => {
    const ids = campaigns(emulator).map(c => c.campaign_id);
    expect(list({campaign_id: ids.slice(0, 3).join(',')}).data.total).toBe(3);
    const tooMany = Array.from({length: 51}, (_, i) => 10001 + i).join(',');
    expect(list({campaign_id: tooMany})).toEqual({
      code: 10000,
      msg: 'error',
      data: {campaign_id: 'The campaign_id may not have more than 50 items.'},
    });
  });

  it('filters by names and by an offer', () => {
    const offer = [...emulator.account(MAIN).offers.values()][0];
    expect(
      list({offer_id: offer.offer_id}).data.list.map(
        (c: {campaign_id: number}) => c.campaign_id,
      ),
    ).toEqual([offer.campaign_id]);
    expect(list({offer_uuid: offer.uuid}).data.total).toBe(1);
    expect(list({offer_name: offer.offer_name}).data.list[0].campaign_id).toBe(
      offer.campaign_id,
    );
    expect(list({campaign_name: 'PUZZLE quest'}).data.total).toBeGreaterThan(0);
    const byPackage = list({package_name: 'Demo.PuzzleQuest1'}).data.list;
    expect(byPackage.length).toBeGreaterThan(0);
    for (const campaign of byPackage) {
      expect(campaign.package_name).toContain('com.demo.puzzlequest1');
    }
  });
});

describe('PUT campaign', () => {
  const put = (emulator: Emulator, fields: Record<string, unknown>) =>
    call(emulator, 'PUT', api('campaign'), {json: fields}).json;
  const android = (emulator: Emulator) =>
    campaigns(emulator).find(
      c => c.platform === 'ANDROID' && c.maintain_by === 'ADV',
    )!;

  it('changes the fields sent and answers the fields of 4.7', () => {
    const {emulator} = setup();
    const campaign = android(emulator);
    const reply = put(emulator, {
      campaign_id: campaign.campaign_id,
      campaign_name: 'Renamed Campaign',
      is_coppa: 'YES',
      app_size: 12.5,
      min_version: '8.1.0.2',
      description: 'New description',
      category: 'TOOLS',
      package_name: 'com.example.renamed',
    });
    expect(reply.code).toBe(200);
    expect(Object.keys(reply.data).sort()).toEqual([...CAMPAIGN_FIELDS].sort());
    expect(reply.data).toMatchObject({
      campaign_id: campaign.campaign_id,
      campaign_name: 'Renamed Campaign',
      is_coppa: 'YES',
      app_size: '12.50',
      min_version: '8.1.0.2',
      description: 'New description',
      category: 'TOOLS',
      package_name: 'com.example.renamed',
      product_name: campaign.product_name,
    });
    expect(emulator.campaignView(campaign.campaign_id)!.campaign_name).toBe(
      'Renamed Campaign',
    );
  });

  it('refuses a campaign maintained by AM with 10007', () => {
    const {emulator} = setup();
    const managed = campaigns(emulator).find(c => c.maintain_by === 'AM')!;
    expect(
      put(emulator, {campaign_id: managed.campaign_id, is_coppa: 'NO'}),
    ).toEqual({
      code: 10007,
      msg: 'campaign is maintained by AM and cannot be edited',
      data: {
        campaign_id: `The campaign ${managed.campaign_id} is maintained by AM: view only.`,
      },
    });
  });

  it('refuses a campaign of another account', () => {
    const {emulator} = setup();
    const foreign = campaigns(emulator, OTHER)[0];
    expect(put(emulator, {campaign_id: foreign.campaign_id}).data).toEqual({
      campaign_id: 'The selected campaign_id is invalid.',
    });
  });

  const errors: [string, Record<string, unknown>, Record<string, string>][] = [
    [
      'a name over 100 characters',
      {campaign_name: 'n'.repeat(101)},
      {
        campaign_name:
          'The campaign_name may not be greater than 100 characters.',
      },
    ],
    [
      'an empty name',
      {campaign_name: ''},
      {campaign_name: 'The campaign_name field must have a value.'},
    ],
    [
      'an unknown promotion_type',
      {promotion_type: 'GAME'},
      {promotion_type: 'The selected promotion_type is invalid.'},
    ],
    [
      'is_coppa not YES or NO',
      {is_coppa: 'Y'},
      {is_coppa: 'The selected is_coppa is invalid.'},
    ],
    [
      'a product name over 100 characters',
      {product_name: 'p'.repeat(101)},
      {
        product_name:
          'The product_name may not be greater than 100 characters.',
      },
    ],
    [
      'a description over 4000 characters',
      {description: 'd'.repeat(4001)},
      {description: 'The description may not be greater than 4000 characters.'},
    ],
    [
      'app_size with three decimals',
      {app_size: 1.234},
      {app_size: 'The app_size may not have more than 2 decimal places.'},
    ],
    [
      'a min_version of five groups',
      {min_version: '1.2.3.4.5'},
      {min_version: 'The min_version format is invalid.'},
    ],
    [
      'a min_version with letters',
      {min_version: '8.x'},
      {min_version: 'The min_version format is invalid.'},
    ],
    [
      'a min_version on a WEBSITE',
      {promotion_type: 'WEBSITE', min_version: '1.0'},
      {min_version: 'The min_version must be empty for a WEBSITE campaign.'},
    ],
    [
      'an iOS store id as an Android package',
      {package_name: 'id123456789'},
      {package_name: 'The package_name format is invalid.'},
    ],
    [
      'an iOS category',
      {category: 'Games'},
      {category: 'The selected category is invalid.'},
    ],
    [
      'an icon that is no material',
      {icon: 'f'.repeat(32)},
      {icon: 'The selected icon is invalid.'},
    ],
    [
      'an icon that is no md5',
      {icon: 'icon.png'},
      {icon: 'The icon format is invalid.'},
    ],
  ];

  it.each(errors)('refuses %s with 10000', (_name, fields, data) => {
    const {emulator} = setup();
    expect(
      put(emulator, {campaign_id: android(emulator).campaign_id, ...fields}),
    ).toEqual({code: 10000, msg: 'error', data});
  });

  it('refuses a name another campaign of the account has, ignoring case', () => {
    const {emulator} = setup();
    const [first, second] = campaigns(emulator);
    expect(
      put(emulator, {
        campaign_id: android(emulator).campaign_id,
        campaign_name: (first === android(emulator)
          ? second
          : first
        ).campaign_name.toUpperCase(),
      }).data,
    ).toEqual({campaign_name: 'The campaign_name has already been taken.'});
  });

  it('takes a 512x512 image material as icon, and refuses other sizes', () => {
    const {emulator} = setup();
    const campaign = android(emulator);
    const square = upload(emulator, {
      name: 'file',
      filename: 'icon.png',
      contentType: 'image/png',
      data: png(512, 512),
    }).json.data.creative_md5;
    const wide = upload(emulator, {
      name: 'file',
      filename: 'wide.png',
      contentType: 'image/png',
      data: png(1024, 512),
    }).json.data.creative_md5;
    expect(
      put(emulator, {campaign_id: campaign.campaign_id, icon: square}).data
        .icon,
    ).toBe(square);
    expect(
      put(emulator, {campaign_id: campaign.campaign_id, icon: wide}).data,
    ).toEqual({
      icon: 'The icon must be a 512x512 image.',
    });
  });
});
