import {refreshCreatives} from '../../../src/jobs/refresh/refresh-creatives';
import {uploadCreatives} from '../../../src/jobs/create/upload-creatives';
import {CREATIVES} from '../../../src/sheets/schemas/creatives';
import {createPlatform, fill} from './create-support';

const UPLOAD = '/api/open/v3/creatives/upload';
const SOURCE = '/api/open/v3/creatives/source';

describe('uploadCreatives', () => {
  it('uploads each row with a file and no md5, under the name typed for it, and fills md5 and name', () => {
    const env = createPlatform();
    env.files.add('drive-a', 'IMG_0001.png', 'first image');
    env.files.add(
      'https://cdn.example.com/v/clip.mp4',
      'clip.mp4',
      'a video',
      'video/mp4',
    );
    fill(env.workbook, CREATIVES, [
      {
        file: 'https://drive.google.com/file/d/drive-a/view?usp=sharing',
        creative_name: 'spring_banner',
      },
      {file: 'https://cdn.example.com/v/clip.mp4'},
    ]);
    const summary = uploadCreatives(env.platform);
    const uploads = env.emulator.requests.filter(r => r.path === UPLOAD);
    expect(
      uploads.map(r => (r.body as {file: {filename: string}}).file.filename),
    ).toEqual(['spring_banner.png', 'clip.mp4']);
    const rows = env.workbook.records('Creatives');
    expect(
      rows.map(r => [r.creative_name, r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'spring_banner',
        'OK',
        `Uploaded: creative_md5 ${rows[0].creative_md5}, creative_name spring_banner.`,
      ],
      [
        'clip',
        'OK',
        `Uploaded: creative_md5 ${rows[1].creative_md5}, creative_name clip.`,
      ],
    ]);
    expect(
      env.emulator
        .account('demo_adv')
        .materials.get(rows[1].creative_md5 as string),
    ).toMatchObject({
      creative_type: 'VIDEO',
    });
    expect(summary).toMatchObject({
      job: 'uploadCreatives',
      ok: 2,
      requests: 3,
      account: 'main account',
    });
  });

  it('fills in md5 and name from an "already existed" answer, and is OK with that message', () => {
    const env = createPlatform();
    env.files.add('drive-a', 'a.png', 'same bytes');
    env.files.add('drive-b', 'b.png', 'same bytes');
    fill(env.workbook, CREATIVES, [{file: 'drive-a'}]);
    uploadCreatives(env.platform);
    env.workbook.edit('Creatives', 1, 'file', 'drive-b');
    uploadCreatives(env.platform);
    const [a, b] = env.workbook.records('Creatives');
    expect(b).toMatchObject({
      creative_md5: a.creative_md5,
      creative_name: 'a',
      sync_status: 'OK',
    });
    expect(b.sync_message).toBe(
      `Already on the server (the API answered "creative already existed, fmd5: ${a.creative_md5}, name: a"): creative_md5 ${a.creative_md5} and creative_name a filled in. Creatives row 2 is the same material: delete one of the two rows.`,
    );
  });

  it('looks up the md5s that "already existed" answers leave unnamed, at most 200 per request and 2,048 characters per URL, in one batch', () => {
    const env = createPlatform({duplicateUploadShape: 'md5Only'});
    const rows = Array.from({length: 201}, (_, i) => {
      env.files.add(`drive-${i}`, `m${i}.png`, `material ${i}`);
      return {file: `drive-${i}`};
    });
    fill(env.workbook, CREATIVES, rows);
    uploadCreatives(env.platform);
    const first = env.workbook.records('Creatives');
    fill(env.workbook, CREATIVES, rows);
    env.emulator.clearRequests();
    const batches = jest.spyOn(env.transport, 'sendAll');

    const summary = uploadCreatives(env.platform);

    const lookups = env.emulator.requests.filter(r => r.path === SOURCE);
    const asked = lookups.map(r => String(r.query.creative_md5).split(','));
    // 200 md5s (API 4.9) would make a 7 KB URL: they go 55 a request.
    expect(asked.map(md5s => md5s.length)).toEqual([55, 55, 55, 35, 1]);
    expect(asked.flat()).toEqual(first.map(r => r.creative_md5));
    const sent = batches.mock.calls.map(([requests]) => requests);
    expect(sent.map(requests => requests.length)).toEqual([100, 100, 1, 5]);
    for (const request of sent[3])
      expect(request.url.length).toBeLessThanOrEqual(2048);
    expect(
      env.workbook
        .records('Creatives')
        .map(r => [r.creative_md5, r.creative_name, r.sync_status]),
    ).toEqual(first.map(r => [r.creative_md5, r.creative_name, 'OK']));
    expect(summary).toMatchObject({ok: 201, requests: 206});
  });

  it('says why a file cannot be uploaded, and sends nothing for it', () => {
    const env = createPlatform();
    env.files.add('drive-doc', 'notes.pdf', 'pdf', 'application/pdf');
    env.files.files.set('drive-locked', {
      ok: false,
      problem: 'no-access',
      reason:
        'you may not open Drive file drive-locked: ask its owner to share it with you',
    });
    env.files.files.set('https://cdn.example.com/down.png', {
      ok: false,
      problem: 'unreachable',
      reason:
        'https://cdn.example.com/down.png answered HTTP 503: try again later',
    });
    fill(env.workbook, CREATIVES, [
      {file: 'drive-missing'},
      {file: 'drive-doc'},
      {file: 'drive-locked'},
      {file: 'http://cdn.example.com/a.png'},
      {file: 'my picture.png'},
      {file: 'https://cdn.example.com/down.png'},
    ]);
    const summary = uploadCreatives(env.platform);
    expect(env.emulator.requests).toEqual([]);
    expect(
      env.workbook
        .records('Creatives')
        .map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        'file: Drive file drive-missing is not one Offer Desk may open. Nothing was uploaded.',
      ],
      [
        'INVALID',
        'file is of type application/pdf, not an image, video or playable (HTML or zip) file. Nothing was uploaded.',
      ],
      [
        'INVALID',
        'file: you may not open Drive file drive-locked: ask its owner to share it with you. Nothing was uploaded.',
      ],
      [
        'INVALID',
        'file must be an https:// link: http:// is refused (http://cdn.example.com/a.png). Nothing was uploaded.',
      ],
      [
        'INVALID',
        'file must be a Drive file id, a Drive link (https://drive.google.com/file/d/...) or an https:// link to the file (got "my picture.png"). Nothing was uploaded.',
      ],
      [
        'ERROR',
        'file: https://cdn.example.com/down.png answered HTTP 503: try again later. Nothing was uploaded.',
      ],
    ]);
    expect(summary).toMatchObject({ok: 0, invalid: 5, error: 1});
    expect(summary.message).toBe(
      '0 OK, 5 invalid, 1 error, 0 unchanged creative rows (main account). See sync_message in Creatives.',
    );
  });

  it('with nothing to upload, says how to add a material', () => {
    const env = createPlatform();
    expect(uploadCreatives(env.platform).message).toBe(
      'Nothing to upload (main account): add rows to Creatives with a file (a Drive file id or link, or an https link) and no creative_md5.',
    );
    expect(env.workbook.grid('Creatives')[0]).toEqual([
      'account',
      'file',
      'creative_type',
      'creative_md5',
      'creative_name',
      'resolution',
      'size',
      'language',
      'platform',
      'sync_status',
      'sync_message',
      'synced_at',
    ]);
  });
});

describe('refreshCreatives', () => {
  it('lists the materials and keeps rows waiting for upload, and the file of uploaded ones, as they are', () => {
    const env = createPlatform({materials: 3});
    env.files.add('drive-a', 'a.png', 'uploaded before');
    fill(env.workbook, CREATIVES, [
      {file: 'drive-a'},
      {file: 'drive-later', creative_name: 'later_one'},
    ]);
    env.files.files.delete('drive-later');
    uploadCreatives(env.platform);
    const [uploaded, waiting] = env.workbook.records('Creatives');
    const summary = refreshCreatives(env.platform);
    const rows = env.workbook.records('Creatives');
    const server = [...env.emulator.account('demo_adv').materials.values()];
    expect(rows).toHaveLength(server.length + 1);
    expect(rows[0]).toMatchObject({
      file: 'drive-a',
      creative_md5: uploaded.creative_md5,
      sync_status: 'OK',
    });
    expect(rows[1]).toEqual(waiting);
    expect(rows.slice(2).map(r => r.creative_md5)).toEqual(
      server
        .map(m => m.creative_md5)
        .filter(md5 => md5 !== uploaded.creative_md5),
    );
    expect(summary).toMatchObject({
      job: 'refreshCreatives',
      ok: server.length,
      invalid: 0,
      requests: 1,
    });
  });
});
