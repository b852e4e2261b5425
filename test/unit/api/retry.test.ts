import {ApiError, NetworkError} from '../../../src/api/errors';
import {hasVerdict, isBusy, mayReplay} from '../../../src/api/retry';

const refusal = (
  code: number | null,
  msg: string,
  details: Record<string, string> = {},
  status = 200,
) => new ApiError('PUT offer/budget', status, code, msg, details);

describe('what an API refusal says about the values sent', () => {
  it.each([
    ['field details', refusal(10007, 'no', {offer_id: 'view only'})],
    ['a validation code of the document', refusal(11423, 'budget is error!')],
    ['the validation code 10000', refusal(10000, 'error')],
    ['Permission denied', refusal(10403, 'Permission denied')],
  ])('is a verdict with %s', (_, error) => {
    expect(hasVerdict(error)).toBe(true);
    expect(isBusy(error)).toBe(false);
  });

  it.each([
    ['busy', refusal(10500, 'system busy, please try again later'), true],
    [
      'an unknown code without details',
      refusal(10999, 'internal failure'),
      false,
    ],
    ['refused keys', refusal(10401, 'invalid token', {}, 401), false],
    ['a 5xx', refusal(null, 'unexpected answer', {}, 502), false],
    ['a 429', refusal(429, 'slow down', {}, 429), false],
    ['a network failure', new NetworkError('PUT tracking', 'reset'), false],
  ])('is no verdict for %s', (_, error, busy) => {
    expect(hasVerdict(error)).toBe(false);
    expect(isBusy(error)).toBe(busy);
  });
});

describe('mayReplay', () => {
  it('replays reads after anything, writes only after a 429', () => {
    expect(mayReplay('read', undefined)).toBe(true);
    expect(mayReplay('read', 503)).toBe(true);
    for (const kind of ['replace', 'create'] as const) {
      expect(mayReplay(kind, 429)).toBe(true);
      expect(mayReplay(kind, 503)).toBe(false);
      expect(mayReplay(kind, undefined)).toBe(false);
    }
  });
});
