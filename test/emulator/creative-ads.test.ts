import {api, call, MAIN, setup, SUB_A} from './helpers';

describe('GET creative-ad/list', () => {
  const {emulator} = setup();
  const ads = [...emulator.account(MAIN).creativeAds.values()];
  const ids = ads.slice(0, 3).map(ad => ad.ad_id);
  const list = (options: Parameters<typeof call>[3] = {}) =>
    call(emulator, 'GET', api('creative-ad/list'), options).json;

  it('names the text field message, and shows the records of 2.6', () => {
    const reply = list({json: {ad_ids: ids}});
    expect(reply).toMatchObject({code: 200, message: 'success'});
    expect(reply).not.toHaveProperty('msg');
    expect(reply.data).toMatchObject({page: 1, limit: 20, total: 3});
    const [first] = reply.data.list;
    const offer = emulator.account(MAIN).offers.get(first.offer_id)!;
    expect(first).toEqual({
      ad_id: ids[0],
      ad_name: ads[0].ad_name,
      offer_id: offer.offer_id,
      offer_uuid: offer.uuid,
      creative_set_id: ads[0].creative_set_id,
      combination_method: ads[0].combination_method,
      ad_output: ads[0].ad_output,
      creatives: expect.any(Array),
    });
    expect(first.creatives[0]).toEqual({
      creative_id: expect.any(Number),
      creative_name: expect.any(String),
      creative_md5: ads[0].creatives[0].creative_md5,
      creative_type: expect.stringMatching(/^(IMAGE|VIDEO|PLAYABLE)$/),
      creative_url: expect.stringMatching(
        /^https:\/\/cdn\.emulator\.invalid\//,
      ),
    });
  });

  it('takes ad_ids as a JSON array, comma-separated text, JSON text or repeated keys', () => {
    const forms = [
      list({json: {ad_ids: ids}}),
      list({query: {ad_ids: ids.join(',')}}),
      list({query: {ad_ids: JSON.stringify(ids)}}),
      list({query: {ad_ids: ids}}),
      list({query: {'ad_ids[]': ids}}),
    ];
    for (const reply of forms) expect(reply.data.total).toBe(3);
  });

  it('uses message in failures too; ad_ids is required', () => {
    expect(list()).toEqual({
      code: 10000,
      message: 'error',
      data: {ad_ids: 'The ad_ids field is required.'},
    });
    expect(list({query: {ad_ids: 'x1'}}).data).toEqual({
      ad_ids: 'The ad_ids format is invalid.',
    });
    expect(list({as: null}).message).toBe(
      'missing authentication header: access-key, token, timestamp',
    );
  });

  it('refuses demand_package_name alone (4.8: ad_ids is required); with ids it narrows them', () => {
    const campaign = [...emulator.account(MAIN).campaigns.values()][0];
    const packageOf = (ad: (typeof ads)[number]) =>
      emulator
        .account(MAIN)
        .campaigns.get(
          emulator.account(MAIN).offers.get(ad.offer_id)!.campaign_id,
        )?.package_name;
    expect(
      list({query: {demand_package_name: campaign.package_name}}).data,
    ).toEqual({ad_ids: 'The ad_ids field is required.'});
    const ids = ads.slice(0, 20).map(ad => ad.ad_id);
    const expected = ads
      .slice(0, 20)
      .filter(ad => packageOf(ad) === campaign.package_name).length;
    const reply = list({
      query: {
        ad_ids: ids.join(','),
        demand_package_name: campaign.package_name,
      },
    });
    expect(reply.data.total).toBe(expected);
  });

  it('pages 20 by default and refuses a limit above 100', () => {
    const many = ads.slice(0, 150).map(ad => ad.ad_id);
    expect(list({json: {ad_ids: many}}).data.list).toHaveLength(20);
    expect(list({json: {ad_ids: many, limit: 100}}).data.list).toHaveLength(
      100,
    );
    expect(list({json: {ad_ids: many, limit: 101}}).data).toEqual({
      limit: 'The limit may not be greater than 100.',
    });
    expect(list({json: {ad_ids: many, page: 9}}).data).toEqual({
      page: 9,
      limit: 20,
      total: 150,
      list: [],
    });
  });

  it("does not show another account's ads", () => {
    expect(list({json: {ad_ids: ids}, as: SUB_A}).data.total).toBe(0);
  });
});
