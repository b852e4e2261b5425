import {ApiError} from '../../../src/api/errors';
import {parseAlreadyExisted} from '../../../src/api/duplicate-upload';

const MD5 = '0cc175b9c0f1b6a831c399e269772661';

describe('parseAlreadyExisted', () => {
  it.each([
    [
      'in the msg text',
      new ApiError(
        'POST creatives/upload',
        200,
        10000,
        `creative already existed, fmd5: ${MD5}, name: banner_01`,
        {},
      ),
    ],
    [
      'in data fields',
      new ApiError(
        'POST creatives/upload',
        200,
        10000,
        'creative already existed',
        {fmd5: MD5, name: 'banner_01'},
      ),
    ],
    [
      'as creative_* fields',
      new ApiError(
        'POST creatives/upload',
        200,
        10000,
        'file already existed!',
        {creative_md5: MD5, creative_name: 'banner_01'},
      ),
    ],
    [
      'as JSON nested in data',
      new ApiError('POST creatives/upload', 200, 10000, 'already existed', {
        creative: `{"fmd5":"${MD5.toUpperCase()}","name":"banner_01"}`,
      }),
    ],
    [
      'with = signs',
      new ApiError(
        'POST creatives/upload',
        200,
        10000,
        `already existed fmd5=${MD5} name=banner_01`,
        {},
      ),
    ],
  ])('finds md5 and name %s', (_, error) => {
    expect(parseAlreadyExisted(error)).toEqual({
      creative_md5: MD5,
      creative_name: 'banner_01',
    });
  });

  it('ignores other failures', () => {
    expect(
      parseAlreadyExisted(
        new ApiError(
          'POST creatives/upload',
          200,
          10000,
          'file type not allowed',
          {},
        ),
      ),
    ).toBeUndefined();
  });

  it('gives an empty name when only the md5 is carried', () => {
    expect(
      parseAlreadyExisted(
        new ApiError('x', 200, 1, `already existed ${MD5}`, {}),
      ),
    ).toEqual({creative_md5: MD5, creative_name: ''});
  });
});
