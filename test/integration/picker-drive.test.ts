/**
 * Drive files under the drive.file scope, on the built bundle: "Choose files…" opens the Google
 * Picker dialog, the picked files become Creatives rows, and the upload reads them over the
 * Drive REST API with the user's own token; a file never picked is refused with its row
 * message, and one too large for a 50 MB POST is refused from its metadata, before any read.
 */
import {createHash} from 'node:crypto';
import {
  closeSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import {join} from 'node:path';
import {driveFiles} from '../support/materials';
import {DEMO_ACCOUNTS} from '../../local/emulator';
import {
  EMULATOR_URL,
  offerDesk,
  recordsOf,
  typeInto,
} from '../support/offer-desk';

const UPLOAD = '/api/open/v3/creatives/upload';
const DRIVE = 'https://www.googleapis.com/drive/v3/files';
const PICKED = '1PickedHeroImageFileId';
const UNPICKED = '1NeverPickedFileId0000';
const PICK_MESSAGE =
  'file: Drive file 1NeverPickedFileId0000 is not one Offer Desk may open: pick it with "Choose files…" (in the sidebar, or Extensions > Offer Desk > Create). Nothing was uploaded.';

/** A desk whose Drive holds two images, neither picked yet. */
function desk() {
  const {files} = driveFiles({
    [PICKED]: ['hero.png', 'hero image bytes'],
    [UNPICKED]: ['secret.png', 'not yours to read'],
  });
  const d = offerDesk(
    {offers: 5},
    {drive: {files}, users: ['ann@example.com', 'bob@example.com']},
  );
  d.rt.call('uploadCreatives');
  d.emulator.clearRequests();
  return {...d, files};
}

const token = (d: ReturnType<typeof desk>) =>
  d.rt.globals.ScriptApp.getOAuthToken();

describe('Choose files… and the Drive REST API', () => {
  it("opens the Picker dialog and hands it the user's token", () => {
    const d = desk();
    d.rt.call('showFilePicker');
    const dialog = d.rt.ui.events.filter(e => e.kind === 'dialog').pop();
    expect(dialog).toMatchObject({
      kind: 'dialog',
      modal: true,
      title: 'Choose material files',
      width: 900,
      height: 600,
    });
    const html = dialog!.kind === 'dialog' ? dialog!.html : '';
    expect(html).toContain('new google.picker.PickerBuilder()');
    expect(html).toContain('.setOAuthToken(token)');
    expect(html).toContain('.getPickerToken();');
    expect(html).toContain('.addPickedFiles(files);');
    expect(html).toContain(
      'https://apis.google.com/js/api.js?onload=onApiLoad',
    );
    expect(d.rt.call('getPickerToken')).toBe(token(d));
    expect(d.rt.logs.text()).not.toContain(token(d));
  });

  it("uploads a picked file read through the Drive REST API with the add-on's token", () => {
    const d = desk();
    // What the Picker does when Ann picks the file, then its callback.
    d.rt.drive.pick('ann@example.com', [PICKED]);
    const added = d.rt.call('addPickedFiles', [
      {id: PICKED, name: 'hero.png', mimeType: 'image/png'},
    ]);
    expect(added).toEqual({
      rows: [2],
      already: 0,
      message:
        '1 file added to Creatives (row 2). Run Upload creative materials to upload them.',
    });
    expect(recordsOf(d.rt, 'Creatives')).toMatchObject([
      {
        file: PICKED,
        creative_md5: '',
        sync_status: 'EDITED',
        sync_message:
          'Picked with "Choose files…" (hero.png): Upload creative materials uploads it.',
      },
    ]);
    // What no Picker sends is refused whole, naming the file.
    expect(() =>
      d.rt.call('addPickedFiles', [{id: PICKED}, {id: '../etc/passwd'}]),
    ).toThrow(
      'Choose files…: file 2 has no Drive id (got "../etc/passwd"); nothing was added.',
    );
    // Picking it again adds no second row.
    expect(d.rt.call('addPickedFiles', [{id: PICKED}])).toMatchObject({
      rows: [],
      already: 1,
      message: 'No row added; 1 file already in a row of Creatives.',
    });

    d.rt.call('uploadCreatives');

    const bearer = `Bearer ${token(d)}`;
    expect(d.rt.drive.requests).toEqual([
      {
        user: 'ann@example.com',
        method: 'GET',
        url: `${DRIVE}/${PICKED}?fields=name,mimeType,size&supportsAllDrives=true`,
        authorization: bearer,
        status: 200,
      },
      {
        user: 'ann@example.com',
        method: 'GET',
        url: `${DRIVE}/${PICKED}?alt=media&supportsAllDrives=true`,
        authorization: bearer,
        status: 200,
      },
    ]);
    const bytes = readFileSync(d.files[PICKED]);
    expect(d.emulator.requests.map(r => [r.method, r.path, r.body])).toEqual([
      [
        'POST',
        UPLOAD,
        {
          file: {
            filename: 'hero.png',
            contentType: 'image/png',
            bytes: bytes.length,
          },
        },
      ],
      // The one look-up that fills creative_type, resolution and size of what was uploaded.
      ['GET', '/api/open/v3/creatives/source', null],
    ]);
    const md5 = createHash('md5').update(bytes).digest('hex');
    expect(recordsOf(d.rt, 'Creatives')).toMatchObject([
      {
        file: PICKED,
        creative_md5: md5,
        creative_name: 'hero',
        sync_status: 'OK',
        sync_message: `Uploaded: creative_md5 ${md5}, creative_name hero.`,
      },
    ]);
  });

  it('refuses a Drive id nobody picked, and one another user picked, uploading nothing', () => {
    const d = desk();
    typeInto(d.rt, 'Creatives', 2, 'file', UNPICKED);
    d.rt.call('uploadCreatives');
    expect(
      recordsOf(d.rt, 'Creatives').map(r => [r.sync_status, r.sync_message]),
    ).toEqual([['INVALID', PICK_MESSAGE]]);
    expect(d.rt.drive.requests.map(r => [r.url, r.status])).toEqual([
      [
        `${DRIVE}/${UNPICKED}?fields=name,mimeType,size&supportsAllDrives=true`,
        404,
      ],
    ]);
    expect(d.emulator.requests).toEqual([]);

    // Ann picks it; Bob, who did not, still may not read it.
    d.rt.drive.pick('ann@example.com', [UNPICKED]);
    d.rt.setUser('bob@example.com');
    d.rt.call('saveSettings', {
      baseUrl: EMULATOR_URL,
      accessKey: DEMO_ACCOUNTS.main.accessKey,
      apiKey: DEMO_ACCOUNTS.main.apiKey,
    });
    d.rt.call('uploadCreatives');
    expect(recordsOf(d.rt, 'Creatives')[0].sync_message).toBe(PICK_MESSAGE);
    expect(d.rt.drive.requests.map(r => [r.user, r.status])).toEqual([
      ['ann@example.com', 404],
      ['bob@example.com', 404],
    ]);
    expect(d.emulator.requests.filter(r => r.path === UPLOAD)).toEqual([]);
  });
});

describe('other files', () => {
  it('uploads an https link, fetched alone, beside a picked Drive file', () => {
    const d = desk();
    const png = Buffer.from('a png from a cdn');
    const fetched: string[] = [];
    d.rt.setFetch(request => {
      if (!request.url.startsWith('https://cdn.example.com/')) {
        return d.emulator.handle(request);
      }
      fetched.push(`${request.method} ${request.url}`);
      return {
        kind: 'response',
        status: 200,
        headers: {'content-type': 'image/png'},
        body: new Uint8Array(png),
        latencyMs: 0,
      };
    });
    d.rt.drive.pick('ann@example.com', [PICKED]);
    d.rt.call('addPickedFiles', [{id: PICKED, name: 'hero.png'}]);
    typeInto(
      d.rt,
      'Creatives',
      3,
      'file',
      'https://cdn.example.com/art/promo%20card.png',
    );
    typeInto(d.rt, 'Creatives', 3, 'creative_name', 'promo');
    d.rt.call('uploadCreatives');
    expect(fetched).toEqual([
      'GET https://cdn.example.com/art/promo%20card.png',
    ]);
    expect(
      d.emulator.requests
        .filter(r => r.path === UPLOAD)
        .map(r => (r.body as {file: {filename: string}}).file.filename),
    ).toEqual(['hero.png', 'promo.png']);
    expect(recordsOf(d.rt, 'Creatives').map(r => r.sync_status)).toEqual([
      'OK',
      'OK',
    ]);
  });

  it('refuses a picked Google Doc from its metadata: no bytes asked, nothing uploaded', () => {
    const d = desk();
    const path = join(d.files[PICKED], '..', 'brief.gdoc');
    writeFileSync(path, '{}');
    d.files['1CampaignBriefDocId00'] = path;
    d.rt.drive.pick('ann@example.com', ['1CampaignBriefDocId00']);
    d.rt.call('addPickedFiles', [{id: '1CampaignBriefDocId00'}]);
    d.rt.call('uploadCreatives');
    expect(
      recordsOf(d.rt, 'Creatives').map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        'file: Drive file "brief.gdoc" is a Google document, not an image, video or playable file. Nothing was uploaded.',
      ],
    ]);
    expect(d.rt.drive.requests.map(r => r.url)).toEqual([
      `${DRIVE}/1CampaignBriefDocId00?fields=name,mimeType,size&supportsAllDrives=true`,
    ]);
    expect(d.emulator.requests).toEqual([]);
  });
});

describe('upload size', () => {
  it('refuses a 50 MB file from its Drive metadata, naming it and its size, before reading it', () => {
    const d = desk();
    const path = join(d.files[PICKED], '..', 'launch video.mp4');
    // A sparse file: 50 MB by its size, nothing on disk.
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 50 * 1024 * 1024);
    closeSync(fd);
    d.files['1LaunchVideoFileId0000'] = path;
    d.rt.drive.pick('ann@example.com', ['1LaunchVideoFileId0000']);
    d.rt.call('addPickedFiles', [{id: '1LaunchVideoFileId0000'}]);
    d.rt.call('uploadCreatives');
    expect(
      recordsOf(d.rt, 'Creatives').map(r => [r.sync_status, r.sync_message]),
    ).toEqual([
      [
        'INVALID',
        'file: Drive file "launch video.mp4" is 50.0 MB (52428800 bytes); at most 49.9 MB can be uploaded in one request. Nothing was uploaded.',
      ],
    ]);
    expect(d.rt.drive.requests.map(r => r.url)).toEqual([
      `${DRIVE}/1LaunchVideoFileId0000?fields=name,mimeType,size&supportsAllDrives=true`,
    ]);
    expect(d.emulator.requests).toEqual([]);
  });
});
