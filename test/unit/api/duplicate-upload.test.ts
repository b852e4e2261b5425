import {ApiError, OutcomeUnknownError} from '../../../src/api/errors';
import {parseAlreadyExisted} from '../../../src/api/duplicate-upload';
import {openEnvelope} from '../../../src/api/envelope';

const MD5 = '0cc175b9c0f1b6a831c399e269772661';
const OTHER = '92eb5ffee6ae2fec3ad71c777531578f';
const NAME = 'My Banner, v2.0 (été) ☀.png';

/** The ApiError the client raises for this answer, as it comes off the wire. */
function answered(body: unknown, status = 200): ApiError {
  try {
    openEnvelope(
      'POST creatives/upload',
      {status, headers: {}, text: JSON.stringify(body)},
      'msg',
    );
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('the answer opened as a success');
}

describe('parseAlreadyExisted', () => {
  it.each([
    [
      'in the msg text',
      {
        code: 10008,
        msg: `file already existed, fmd5: ${MD5}, name: ${NAME}`,
        data: {},
      },
    ],
    [
      'in msg and data fields alike',
      {
        code: 10008,
        msg: `creative already existed, fmd5: ${MD5}, name: ${NAME}`,
        data: {fmd5: MD5, name: NAME},
      },
    ],
    [
      'in data fields',
      {code: 10008, msg: 'already existed', data: {fmd5: MD5, name: NAME}},
    ],
    [
      'as creative_* fields',
      {
        code: 10000,
        msg: 'file already existed!',
        data: {creative_md5: MD5.toUpperCase(), creative_name: NAME},
      },
    ],
    [
      'inside the text of a data value',
      {
        code: 10008,
        msg: 'already existed',
        data: {file: `The file already existed (fmd5: ${MD5}, name: ${NAME})`},
      },
    ],
    [
      'nested deeper in data',
      {
        code: 10008,
        msg: 'already existed',
        data: {existed: {fmd5: MD5, creative_name: NAME}},
      },
    ],
    [
      'as JSON text inside a data value',
      {
        code: 10008,
        msg: 'already existed',
        data: {creative: JSON.stringify({fmd5: MD5, fname: NAME})},
      },
    ],
    [
      'quoted in the msg',
      {
        code: 10008,
        msg: `already existed: {"fmd5": "${MD5}", "name": "${NAME}"}`,
        data: null,
      },
    ],
    [
      'with = signs and a quoted name',
      {
        code: 10008,
        msg: `already existed fmd5=${MD5} name='${NAME}'`,
        data: {},
      },
    ],
    [
      'in a data array',
      {
        code: 10008,
        msg: 'already existed',
        data: [{fmd5: MD5, file_name: NAME}],
      },
    ],
    [
      'name first, fields separated by spaces',
      {
        code: 10008,
        msg: `already existed name=${NAME} fmd5=${MD5}`,
        data: {},
      },
    ],
  ])('reads md5 and the whole name %s', (_, body) => {
    expect(parseAlreadyExisted(answered(body))).toMatchObject({
      creative_md5: MD5,
      creative_name: NAME,
    });
  });

  it('ends a quoted name at the quote that closes it, not at one inside it', () => {
    expect(
      parseAlreadyExisted(
        answered({
          code: 10008,
          msg: `already existed (fmd5: ${MD5}, name: 'Bob's banner, v2'), try another file`,
        }),
      ),
    ).toMatchObject({creative_md5: MD5, creative_name: "Bob's banner, v2"});
  });

  it('does not read a filename as the material name', () => {
    expect(
      parseAlreadyExisted(
        answered({
          code: 10008,
          msg: 'already existed',
          data: {fmd5: MD5, filename: 'banner.png'},
        }),
      ),
    ).toEqual({creative_md5: MD5, message: 'already existed'});
  });

  it('reads a name that comes as a number', () => {
    expect(
      parseAlreadyExisted(
        answered({
          code: 10008,
          msg: 'already existed',
          data: {fmd5: MD5, name: 2024},
        }),
      ),
    ).toMatchObject({creative_md5: MD5, creative_name: '2024'});
  });

  it.each([
    [
      'a validation map whose key names the field (the name is never the key, nor "The")',
      {
        code: 10000,
        msg: 'error',
        data: {
          file: `The file has already existed (fmd5 ${MD5}).`,
          'file.creative_name': `The creative_name has already existed: ${NAME}`,
        },
      },
      `The file has already existed (fmd5 ${MD5}).`,
    ],
    [
      'an md5 and no name anywhere',
      {code: 10008, msg: 'creative already existed', data: {fmd5: MD5}},
      'creative already existed',
    ],
    [
      'a dotted key holding the md5',
      {code: 10000, msg: 'already existed', data: {'file.fmd5': MD5}},
      'already existed',
    ],
    [
      'the only 32-hex value of the answer, after no keyword',
      {code: 10008, msg: `already existed ${MD5}`, data: {}},
      `already existed ${MD5}`,
    ],
    [
      'two different names (msg and data disagree)',
      {
        code: 10008,
        msg: `already existed, fmd5: ${MD5}, name: banner, v2: x`,
        data: {name: 'banner, v2: x'},
      },
      `already existed, fmd5: ${MD5}, name: banner, v2: x`,
    ],
  ])('reads the md5 only from %s', (_, body, message) => {
    expect(parseAlreadyExisted(answered(body))).toEqual({
      creative_md5: MD5,
      message,
    });
  });

  it.each([
    [
      'no md5 at all',
      {code: 10008, msg: 'already existed', data: {name: 'banner'}},
      {creative_name: 'banner'},
    ],
    [
      'two unlabelled 32-hex values',
      {code: 10008, msg: 'already existed', data: {ids: `${MD5} ${OTHER}`}},
      {},
    ],
    [
      'two labelled md5s that differ',
      {code: 10008, msg: 'already existed', data: {fmd5: MD5, md5: OTHER}},
      {},
    ],
  ])('gives no md5 for %s', (_, body, rest) => {
    expect(parseAlreadyExisted(answered(body))).toEqual({
      message: 'already existed',
      ...rest,
    });
  });

  it.each([200, 400, 409, 422])(
    'reads the answer whatever its HTTP status (%i)',
    status => {
      expect(
        parseAlreadyExisted(
          answered(
            {
              code: 10008,
              msg: 'already existed',
              data: {fmd5: MD5, name: NAME},
            },
            status,
          ),
        ),
      ).toMatchObject({creative_md5: MD5, creative_name: NAME});
    },
  );

  it('reads a 5xx answer that the client holds as an unknown outcome', () => {
    const cause = answered(
      {code: 10008, msg: `already existed, fmd5: ${MD5}, name: ${NAME}`},
      500,
    );
    expect(
      parseAlreadyExisted(
        new OutcomeUnknownError('POST creatives/upload', cause),
      ),
    ).toMatchObject({creative_md5: MD5, creative_name: NAME});
  });

  it('reads the details when the error carries no envelope', () => {
    expect(
      parseAlreadyExisted(
        new ApiError('POST creatives/upload', 200, 10008, 'already existed', {
          fmd5: MD5,
          name: NAME,
        }),
      ),
    ).toEqual({
      creative_md5: MD5,
      creative_name: NAME,
      message: 'already existed',
    });
  });

  it.each([
    [
      'another failure',
      {code: 10000, msg: 'error', data: {file: 'The file must not be empty.'}},
    ],
    [
      'a file type refusal naming an md5',
      {code: 10000, msg: `file type not allowed, fmd5: ${MD5}`},
    ],
  ])('ignores %s', (_, body) => {
    expect(parseAlreadyExisted(answered(body))).toBeUndefined();
  });

  it('ignores errors that are not answers', () => {
    expect(parseAlreadyExisted(new Error('already existed'))).toBeUndefined();
  });
});
