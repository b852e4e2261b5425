/**
 * The runtime's Drive REST API (files.get) behind UrlFetchApp: the user's own token, the
 * drive.file rule (only picked files), Drive's JSON errors, and DriveApp refused without a
 * full Drive scope, as Google answers them.
 */
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createRuntime} from '../../local/runtime';

const FILES = 'https://www.googleapis.com/drive/v3/files';

function runtime(scopes?: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-drive-api-'));
  writeFileSync(join(dir, 'banner.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(dir, 'notes.gdoc'), '{}');
  const rt = createRuntime({
    distDir: null,
    users: ['ann@example.com', 'bob@example.com'],
    scopes,
    drive: {
      files: {
        '1Banner': join(dir, 'banner.png'),
        '1Notes': join(dir, 'notes.gdoc'),
      },
    },
    fetch: () => {
      throw new Error('no other host is reachable');
    },
  });
  const get = (url: string, token = rt.globals.ScriptApp.getOAuthToken()) => {
    const r = rt.globals.UrlFetchApp.fetch(url, {
      headers: {Authorization: `Bearer ${token}`},
      muteHttpExceptions: true,
    });
    return {
      status: r.getResponseCode(),
      text: r.getContentText(),
      bytes: r.getBlob().getBytes(),
    };
  };
  return {rt, get};
}

const DRIVE_FILE = [
  'https://www.googleapis.com/auth/script.external_request',
  'https://www.googleapis.com/auth/drive.file',
];

describe('the Drive REST API under drive.file', () => {
  it("answers a picked file's metadata (the fields asked) and bytes, to the user who picked it", () => {
    const {rt, get} = runtime(DRIVE_FILE);
    rt.drive.pick('ann@example.com', ['1Banner']);
    const meta = get(`${FILES}/1Banner?fields=name,mimeType,size`);
    expect([meta.status, JSON.parse(meta.text)]).toEqual([
      200,
      {name: 'banner.png', mimeType: 'image/png', size: '4'},
    ]);
    const media = get(`${FILES}/1Banner?alt=media&supportsAllDrives=true`);
    expect([media.status, media.bytes]).toEqual([200, [-119, 80, 78, 71]]);

    rt.setUser('bob@example.com');
    expect(JSON.parse(get(`${FILES}/1Banner?alt=media`).text)).toEqual({
      error: {
        code: 404,
        message: 'File not found: 1Banner.',
        errors: [
          {
            message: 'File not found: 1Banner.',
            domain: 'global',
            reason: 'notFound',
            location: 'fileId',
            locationType: 'parameter',
          },
        ],
        status: 'NOT_FOUND',
      },
    });
  });

  it("refuses another token with 401, and a Google Doc's bytes with 403", () => {
    const {rt, get} = runtime(DRIVE_FILE);
    rt.drive.pick('ann@example.com', ['1Banner', '1Notes']);
    expect(get(`${FILES}/1Banner?alt=media`, 'ya29.someone-else').status).toBe(
      401,
    );
    expect(
      JSON.parse(get(`${FILES}/1Notes?fields=name,mimeType,size`).text),
    ).toEqual({
      name: 'notes.gdoc',
      mimeType: 'application/vnd.google-apps.document',
    });
    const doc = get(`${FILES}/1Notes?alt=media`);
    expect([doc.status, JSON.parse(doc.text).error.errors[0].reason]).toEqual([
      403,
      'fileNotDownloadable',
    ]);
    expect(rt.drive.requests.map(r => r.status)).toEqual([401, 200, 403]);
  });

  it('answers 403 to a token without any Drive scope; with drive.readonly every file is found', () => {
    const none = runtime([
      'https://www.googleapis.com/auth/script.external_request',
    ]);
    none.rt.drive.pick('ann@example.com', ['1Banner']);
    expect(
      JSON.parse(none.get(`${FILES}/1Banner?alt=media`).text).error,
    ).toMatchObject({
      code: 403,
      message: 'Request had insufficient authentication scopes.',
    });
    const full = runtime(['https://www.googleapis.com/auth/drive.readonly']);
    expect(full.get(`${FILES}/1Banner?alt=media`).status).toBe(200);
  });

  it('refuses DriveApp when the manifest has no drive or drive.readonly scope', () => {
    const {rt} = runtime(DRIVE_FILE);
    expect(() => rt.globals.DriveApp.getFileById('1Banner')).toThrow(
      'You do not have permission to call DriveApp.getFileById. Required permissions: (https://www.googleapis.com/auth/drive.readonly || https://www.googleapis.com/auth/drive)',
    );
  });
});
