import type {Emulator} from '../../local/emulator';
import {CONTROL_PREFIX, handleControl} from '../../local/emulator/control';
import {md5Hex} from '../../local/emulator/digest';
import {api, call, MAIN, multipart, png, setup, SUB_A, upload} from './helpers';

describe('POST creatives/upload', () => {
  it('stores the md5 of the bytes, names it after the file, infers type and size', () => {
    const {emulator} = setup();
    const data = png(1080, 1920, 'a');
    const reply = upload(emulator, {
      name: 'file',
      filename: 'My Banner-1.png',
      contentType: 'image/png',
      data,
    });
    expect(reply.json).toEqual({
      code: 200,
      msg: 'success',
      data: {creative_md5: md5Hex(data), creative_name: 'My_Banner_1'},
    });
    const listed = call(emulator, 'GET', api('creatives/source'), {
      query: {creative_md5: md5Hex(data)},
    }).json.data.list;
    expect(listed).toEqual([
      {
        creative_type: 'IMAGE',
        creative_md5: md5Hex(data),
        creative_name: 'My_Banner_1',
        resolution: '1080x1920',
        size: 0.03,
        language: null,
        platform: null,
      },
    ]);
  });

  it('reads the resolution of GIF, BMP and JPEG images', () => {
    const {emulator} = setup();
    const gif = Buffer.alloc(32);
    gif.write('GIF89a', 0, 'latin1');
    gif.writeUInt16LE(320, 6);
    gif.writeUInt16LE(50, 8);
    const bmp = Buffer.alloc(32);
    bmp.write('BM', 0, 'latin1');
    bmp.writeInt32LE(300, 18);
    bmp.writeInt32LE(-250, 22);
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
    const frame = Buffer.from([
      0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x00, 0x02, 0x00,
    ]);
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      app0,
      frame,
      Buffer.alloc(16),
    ]);
    const resolutions = [
      ['a.gif', gif],
      ['b.bmp', bmp],
      ['c.jpg', jpeg],
    ].map(([filename, data]) => {
      const {creative_md5} = upload(emulator, {
        name: 'file',
        filename: filename as string,
        data: data as Buffer,
      }).json.data;
      return emulator.account(MAIN).materials.get(creative_md5)!.resolution;
    });
    expect(resolutions).toEqual(['320x50', '300x250', '512x512']);
  });

  it('infers VIDEO and PLAYABLE from content type or extension', () => {
    const {emulator} = setup();
    const video = upload(emulator, {
      name: 'file',
      filename: 'clip.bin',
      contentType: 'video/mp4',
      data: 'video bytes',
    }).json.data;
    const playable = upload(emulator, {
      name: 'file',
      filename: 'game.zip',
      contentType: 'application/octet-stream',
      data: 'zip bytes',
    }).json.data;
    const types = call(emulator, 'GET', api('creatives/source'), {
      query: {creative_md5: `${video.creative_md5},${playable.creative_md5}`},
    }).json.data.list.map((m: {creative_type: string}) => m.creative_type);
    expect(types).toEqual(['VIDEO', 'PLAYABLE']);
  });

  it('answers a second upload of the same bytes with already existed, fmd5 and name', () => {
    const {emulator} = setup();
    const file = {
      name: 'file',
      filename: 'logo.png',
      contentType: 'image/png',
      data: png(64, 64),
    };
    const md5 = upload(emulator, file).json.data.creative_md5;
    expect(upload(emulator, {...file, filename: 'again.png'}).json).toEqual({
      code: 10008,
      msg: `creative already existed, fmd5: ${md5}, name: logo`,
      data: {fmd5: md5, name: 'logo'},
    });
    expect(upload(emulator, file, SUB_A).json.code).toBe(200);
  });

  describe('already existed, in the shape the options choose', () => {
    const NAME = 'My Banner, v2.0 (été) ☀.png';
    const file = {
      name: 'file',
      filename: 'logo.png',
      contentType: 'image/png',
      data: png(64, 64),
    };
    /** Uploads the file, names the stored material NAME, and uploads it again. */
    function duplicate(emulator: Emulator) {
      const md5 = upload(emulator, file).json.data.creative_md5;
      emulator.account('demo_adv').materials.get(md5)!.creative_name = NAME;
      return {md5, reply: upload(emulator, file)};
    }

    it.each([
      [
        'msg',
        (md5: string) => ({
          code: 10008,
          msg: `file already existed, fmd5: ${md5}, name: ${NAME}`,
          data: {},
        }),
      ],
      [
        'data',
        (md5: string) => ({
          code: 10008,
          msg: 'already existed',
          data: {fmd5: md5, name: NAME},
        }),
      ],
      [
        'dataText',
        (md5: string) => ({
          code: 10008,
          msg: 'already existed',
          data: {
            file: `The file already existed (fmd5: ${md5}, name: ${NAME})`,
          },
        }),
      ],
      [
        'validation',
        (md5: string) => ({
          code: 10000,
          msg: 'error',
          data: {
            file: `The file has already existed (fmd5 ${md5}).`,
            'file.creative_name': `The creative_name has already existed: ${NAME}`,
          },
        }),
      ],
      [
        'md5Only',
        (md5: string) => ({
          code: 10008,
          msg: 'creative already existed',
          data: {fmd5: md5},
        }),
      ],
      [
        'nested',
        (md5: string) => ({
          code: 10008,
          msg: 'already existed',
          data: {existed: {fmd5: md5, creative_name: NAME}},
        }),
      ],
    ] as const)('%s', (shape, expected) => {
      const {emulator} = setup({duplicateUploadShape: shape});
      const {md5, reply} = duplicate(emulator);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual(expected(md5));
    });

    it('answers with the HTTP status the options choose, and a reset takes the constructor options again', () => {
      const {emulator} = setup({duplicateUploadStatus: 409});
      expect(duplicate(emulator).reply.status).toBe(409);
      emulator.reset({
        duplicateUploadShape: 'data',
        duplicateUploadStatus: 400,
      });
      const {md5, reply} = duplicate(emulator);
      expect([reply.status, reply.json]).toEqual([
        400,
        {code: 10008, msg: 'already existed', data: {fmd5: md5, name: NAME}},
      ]);
      emulator.reset();
      expect(duplicate(emulator).reply.status).toBe(409);
    });

    it('takes the shape and status from the control API reset', () => {
      const {emulator} = setup();
      const reply = handleControl(
        emulator,
        'POST',
        new URL(`http://emulator.test${CONTROL_PREFIX}reset`),
        new TextEncoder().encode(
          JSON.stringify({
            duplicateUploadShape: 'nested',
            duplicateUploadStatus: 409,
          }),
        ),
      );
      expect(reply.status).toBe(200);
      const {md5, reply: again} = duplicate(emulator);
      expect([again.status, again.json]).toEqual([
        409,
        {
          code: 10008,
          msg: 'already existed',
          data: {existed: {fmd5: md5, creative_name: NAME}},
        },
      ]);
    });

    it('refuses a shape or status it does not know', () => {
      expect(() => setup({duplicateUploadShape: 'xml' as 'msg'})).toThrow(
        'duplicateUploadShape is one of msgAndData, msg, data, dataText, validation, md5Only, nested',
      );
      expect(() => setup({duplicateUploadStatus: 99})).toThrow(
        'duplicateUploadStatus is an HTTP status, 200-599',
      );
    });
  });

  it.each([
    [
      'an unsupported type',
      {
        name: 'file',
        filename: 'notes.txt',
        contentType: 'text/plain',
        data: 'x',
      },
      'The file must be a file of type: jpg, jpeg, png, gif, bmp, mp4, mov, webm, html, htm, zip.',
    ],
    [
      'an empty file',
      {name: 'file', filename: 'a.png', contentType: 'image/png', data: ''},
      'The file must not be empty.',
    ],
    [
      'a file in another field',
      {name: 'upload', filename: 'a.png', contentType: 'image/png', data: 'x'},
      'The file field is required.',
    ],
  ])('refuses %s with 10000', (_name, file, text) => {
    const {emulator} = setup();
    expect(upload(emulator, file).json).toEqual({
      code: 10000,
      msg: 'error',
      data: {file: text},
    });
  });

  it('refuses a body that is not multipart, and a file over the size limit', () => {
    const {emulator} = setup({maxUploadBytes: 10});
    const json = call(emulator, 'POST', api('creatives/upload'), {
      json: {file: 'x'},
    });
    expect(json.json.data).toEqual({file: 'The file field is required.'});
    const big = upload(emulator, {
      name: 'file',
      filename: 'big.png',
      contentType: 'image/png',
      data: png(10, 10),
    });
    expect(big.json.data).toEqual({
      file: 'The file may not be greater than 0 kilobytes.',
    });
  });

  it('reads a form with text fields beside the file', () => {
    const {emulator} = setup();
    const {body, contentType} = multipart([
      {name: 'note', data: 'hello'},
      {
        name: 'file',
        filename: 'x.gif',
        contentType: 'image/gif',
        data: 'GIF89a..',
      },
    ]);
    const reply = call(emulator, 'POST', api('creatives/upload'), {
      body,
      contentType,
    });
    expect(reply.json.code).toBe(200);
    expect(emulator.requests.at(-1)!.body).toEqual({
      note: 'hello',
      file: {filename: 'x.gif', contentType: 'image/gif', bytes: 8},
    });
  });
});

describe('GET creatives/source', () => {
  const {emulator} = setup({materials: 250});
  const list = (query: Record<string, string | number> = {}, as = MAIN) =>
    call(emulator, 'GET', api('creatives/source'), {query, as}).json;
  const materials = [...emulator.account(MAIN).materials.values()];

  it('lists 200 by default, at most 200, with the true total', () => {
    expect(list().data).toMatchObject({page: 1, limit: 200, total: 250});
    expect(list().data.list).toHaveLength(200);
    expect(list({limit: 1000}).data.limit).toBe(200);
    expect(list({page: 2}).data.list).toHaveLength(50);
  });

  it('filters by md5s (at most 200), exact name, type and resolutions', () => {
    const md5s = materials.slice(0, 3).map(m => m.creative_md5);
    expect(list({creative_md5: md5s.join(',')}).data.total).toBe(3);
    const tooMany = materials
      .slice(0, 201)
      .map(m => m.creative_md5)
      .join(',');
    expect(list({creative_md5: tooMany}).data).toEqual({
      creative_md5: 'The creative_md5 may not have more than 200 items.',
    });
    expect(list({creative_name: materials[0].creative_name}).data.total).toBe(
      1,
    );
    expect(list({creative_name: 'image'}).data.total).toBe(0);
    expect(list({creative_name: 'has space'}).data).toEqual({
      creative_name: 'The creative_name format is invalid.',
    });
    const videos = materials.filter(m => m.creative_type === 'VIDEO').length;
    expect(list({creative_type: 'VIDEO'}).data.total).toBe(videos);
    expect(list({creative_type: 'AUDIO'}).data).toEqual({
      creative_type: 'The selected creative_type is invalid.',
    });
    const square = materials.filter(m => m.resolution === '512x512').length;
    expect(list({resolution: '512x512'}).data.total).toBe(square);
  });

  it('shows an account only its own materials', () => {
    expect(list({}, SUB_A).data.total).toBe(63);
    expect(
      list({creative_md5: materials[0].creative_md5}, SUB_A).data.total,
    ).toBe(0);
  });
});

describe('creative_url (2.6)', () => {
  it("serves the material's bytes, whose md5 is the material's, unsigned and outside the log", () => {
    const {emulator} = setup();
    const data = png(64, 64, 'cdn');
    upload(emulator, {
      name: 'file',
      filename: 'cdn.png',
      contentType: 'image/png',
      data,
    });
    const [seeded] = [...emulator.account(MAIN).materials.values()];
    emulator.clearRequests();
    for (const [md5, extension] of [
      [md5Hex(data), 'png'],
      [seeded.creative_md5, seeded.extension],
    ]) {
      const reply = emulator.handle({
        method: 'GET',
        url: `https://cdn.emulator.invalid/creatives/${md5}.${extension}`,
        headers: {},
        body: new Uint8Array(),
      });
      if (reply.kind !== 'response') throw new Error('dropped');
      expect([reply.status, md5Hex(reply.body)]).toEqual([200, md5]);
    }
    const missing = emulator.handle({
      method: 'GET',
      url: `https://cdn.emulator.invalid/creatives/${'0'.repeat(32)}.png`,
      headers: {},
      body: new Uint8Array(),
    });
    expect(missing.kind === 'response' && missing.status).toBe(404);
    expect(emulator.requests).toEqual([]);
  });
});
