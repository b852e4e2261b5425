import {encodeQuery} from '../../../src/api/query';

describe('encodeQuery', () => {
  it('comma-joins lists, URL-encodes values and drops empty ones', () => {
    expect(
      encodeQuery({
        campaign_id: [12, 34],
        offer_name: 'summer sale&co',
        status: ['RUNNING', 'PENDING'],
        package_name: '',
        offer_uuid: undefined,
        page: 2,
        limit: 50,
      }),
    ).toBe(
      'campaign_id=12%2C34&offer_name=summer%20sale%26co&status=RUNNING%2CPENDING&page=2&limit=50',
    );
  });

  it('encodes non-ASCII text as UTF-8', () => {
    expect(encodeQuery({campaign_name: '广告'})).toBe(
      'campaign_name=%E5%B9%BF%E5%91%8A',
    );
  });

  it('gives an empty string when nothing is set', () => {
    expect(encodeQuery({a: undefined, b: null, c: []})).toBe('');
  });
});
