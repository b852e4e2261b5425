import {authHeaders, signToken} from '../../../src/api/signing';
import {bytesToHex} from '../../../src/platform/digest';
import {nodeDigest} from '../../support/fakes';

describe('signing', () => {
  it('passes the vendor published vector', () => {
    expect(
      signToken('ce4f7c2b8edb173e2533d7a169080504', 1471256697, nodeDigest),
    ).toBe('378d387c2b61462cf4bc62b3949111f3');
  });

  it('turns Apps Script signed digest bytes into lowercase hex', () => {
    // md5('abc') = 900150983cd24fb0d6963f7d28e17f72, as computeDigest returns it.
    const signed = [
      -112, 1, 80, -104, 60, -46, 79, -80, -42, -106, 63, 125, 40, -31, 127,
      114,
    ];
    expect(bytesToHex(signed)).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(bytesToHex([-128, -1, 0, 15, 127])).toBe('80ff000f7f');
  });

  it('signs with a timestamp in seconds taken from the clock of each request', () => {
    const keys = {
      accessKey: 'ak-test',
      apiKey: 'ce4f7c2b8edb173e2533d7a169080504',
    };
    expect(authHeaders(keys, 1471256697999, nodeDigest)).toEqual({
      'access-key': 'ak-test',
      token: '378d387c2b61462cf4bc62b3949111f3',
      timestamp: '1471256697',
    });
    expect(authHeaders(keys, 1471256698000, nodeDigest).timestamp).toBe(
      '1471256698',
    );
  });
});
