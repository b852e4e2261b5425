/**
 * Material files for integration tests: files DriveApp serves, and materials put on the
 * emulator directly, before the add-on sees them.
 */
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Emulator} from '../../local/emulator';
import {EMULATOR_URL} from './offer-desk';

const UPLOAD = '/api/open/v3/creatives/upload';

/**
 * Material files in a local folder, served by the runtime's Drive under made-up ids, each one
 * picked with the Google Picker (what lets the add-on read it under drive.file).
 */
export function driveFiles(files: Record<string, [string, string]>) {
  const dir = mkdtempSync(join(tmpdir(), 'offer-desk-drive-'));
  const ids: Record<string, string> = {};
  for (const [id, [name, content]] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, content);
    ids[id] = path;
  }
  return {files: ids, picked: Object.keys(ids)};
}

/** A material put on the server before the add-on ever sees it (as the web console would). */
export function uploadDirectly(
  emulator: Emulator,
  filename: string,
  content: string,
): string {
  const boundary = 'direct-upload';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const outcome = emulator.handle({
    method: 'POST',
    url: `${EMULATOR_URL}${UPLOAD}`,
    headers: {
      ...emulator.signedHeaders(),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body: new Uint8Array(body),
  });
  if (outcome.kind !== 'response') throw new Error('upload dropped');
  return JSON.parse(Buffer.from(outcome.body).toString()).data.creative_md5;
}
