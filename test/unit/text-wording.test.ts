import {counted, noun} from '../../src/text/wording';

describe('counted', () => {
  it('reads as English: one is singular, every other count plural', () => {
    expect(
      `${counted(1, 'row')} would be sent in ${counted(1, 'request')}`,
    ).toBe('1 row would be sent in 1 request');
    expect(
      `${counted(2, 'row')} would be sent in ${counted(0, 'request')}`,
    ).toBe('2 rows would be sent in 0 requests');
    const sub = noun(
      'sub-account of the main account',
      'sub-accounts of the main account',
    );
    expect(counted(1, sub)).toBe('1 sub-account of the main account');
    expect(counted(3, sub)).toBe('3 sub-accounts of the main account');
  });
});
