import {openEnvelope} from '../../../src/api/envelope';
import {ApiError} from '../../../src/api/errors';
import {fail, ok} from '../../support/fakes';

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected an error');
}

describe('openEnvelope', () => {
  it('gives data when code is 200', () => {
    expect(openEnvelope('GET offers', ok({total: 1}), 'msg')).toEqual({
      total: 1,
    });
  });

  it('treats a non-200 code under HTTP 200 as a failure with field details on one line', () => {
    const error = errorOf(() =>
      openEnvelope(
        'PUT offer/budget',
        fail(11423, 'budget is error!', {
          country_code: 'you can only set ALL budget or special budget!',
        }),
        'msg',
      ),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      'PUT offer/budget: code 11423 budget is error! [country_code: you can only set ALL budget or special budget!]',
    );
    expect(error.code).toBe(11423);
    expect(error.httpStatus).toBe(200);
    expect(error.details).toEqual({
      country_code: 'you can only set ALL budget or special budget!',
    });
  });

  it('reads the creative-ad list failure text from `message`', () => {
    const response = {
      status: 200,
      headers: {},
      text: JSON.stringify({
        code: 10000,
        message: 'ad_ids is required',
        data: null,
      }),
    };
    expect(
      errorOf(() => openEnvelope('GET creative-ad/list', response, 'message'))
        .message,
    ).toBe('GET creative-ad/list: code 10000 ad_ids is required');
  });

  it('names the HTTP status when it is not 200, and survives a body that is not JSON', () => {
    const error = errorOf(() =>
      openEnvelope(
        'GET campaign',
        {status: 502, headers: {}, text: '<h1>Bad gateway</h1>\n'},
        'msg',
      ),
    );
    expect(error.message).toBe(
      'GET campaign: HTTP 502 unexpected answer, an HTML page: Bad gateway',
    );
    expect(error.code).toBeNull();
  });

  it.each([
    [
      'a gateway page, by its title',
      '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title><style>h1{}</style></head><body><h1>502</h1></body></html>',
      'HTTP 502 unexpected answer, an HTML page: 502 Bad Gateway',
    ],
    [
      'a page without a title, by its text',
      '<html><body><script>x()</script><p>upstream\n  closed</p></body></html>',
      'HTTP 502 unexpected answer, an HTML page: upstream closed',
    ],
    [
      'a page of tags only',
      '<html></html>',
      'HTTP 502 unexpected answer, an HTML page',
    ],
    [
      'plain text, as it came',
      '502 Service  Unavailable <maybe>',
      'HTTP 502 unexpected answer: 502 Service Unavailable <maybe>',
    ],
    ['nothing', ' \n', 'HTTP 502 empty answer'],
  ])('words %s', (_, text, said) => {
    const error = errorOf(() =>
      openEnvelope('GET offers', {status: 502, headers: {}, text}, 'msg'),
    );
    expect(error.message).toBe(`GET offers: ${said}`);
  });

  it('renders list and nested details readably', () => {
    const error = errorOf(() =>
      openEnvelope(
        'POST offer',
        fail(10000, 'error', {creative_sets: ['is required', 'too short']}),
        'msg',
      ),
    );
    expect(error.message).toBe(
      'POST offer: code 10000 error [creative_sets: is required, too short]',
    );
  });
});
