import {readCampaign, readOffer} from '../../../src/api/records';

describe('readOffer', () => {
  it('reads country_code as target_geo, in the offer and its budget items, and a text campaign_id as its number', () => {
    expect(
      readOffer({
        campaign_id: '10001',
        offer_id: 200001,
        country_code: 'US,GB',
        budget: [
          {country_code: 'US', daily_cap_type: 'BUDGET', daily_cap: '50'},
          {country_code: 'GB', daily_cap_type: 'OPEN', daily_cap: 'OPEN'},
        ],
        bid_rate_by_location: [{country_code: 'US', bid_rate: '1.2'}],
      }),
    ).toEqual({
      campaign_id: 10001,
      offer_id: 200001,
      target_geo: 'US,GB',
      budget: [
        {target_geo: 'US', daily_cap_type: 'BUDGET', daily_cap: '50'},
        {target_geo: 'GB', daily_cap_type: 'OPEN', daily_cap: 'OPEN'},
      ],
      bid_rate_by_location: [{country_code: 'US', bid_rate: '1.2'}],
    });
  });

  it('keeps the documented field where it is present, even when the alias is there too', () => {
    const offer = {
      campaign_id: 10001,
      target_geo: 'US',
      country_code: 'GB',
      budget: [{target_geo: 'US', country_code: 'GB'}],
    };
    expect(readOffer(offer)).toEqual(offer);
  });

  it('leaves a campaign_id that is no number as it came, for the reader to refuse', () => {
    expect(readOffer({campaign_id: 'abc'})).toEqual({campaign_id: 'abc'});
    expect(readOffer({campaign_id: ' 42 '})).toEqual({campaign_id: 42});
  });
});

describe('readCampaign', () => {
  it('reads a text campaign_id as its number and leaves the rest', () => {
    expect(readCampaign({campaign_id: '10002', campaign_name: 'A'})).toEqual({
      campaign_id: 10002,
      campaign_name: 'A',
    });
    expect(readCampaign({campaign_id: 10002})).toEqual({campaign_id: 10002});
  });
});
