/**
 * Upload answers short of what 4.1 names (data.creative_md5, data.creative_name): the row
 * never gets a stand-in such as `undefined` for an md5 or a name (offers would send it), a
 * missing name is looked up by md5, and a missing md5 is an ERROR saying so; the re-run's
 * upload then meets `already existed` and fills the row in.
 */
import type {Emulator} from '../../local/emulator';
import {driveFiles} from '../support/materials';
import {offerDesk, recordsOf, typeInto} from '../support/offer-desk';

const UPLOAD = '/api/open/v3/creatives/upload';
const SOURCE = '/api/open/v3/creatives/source';

function heroToUpload(fields: string[]) {
  const drive = driveFiles({'1HeroImageFileId': ['hero.png', 'hero image']});
  const {rt, emulator} = offerDesk({}, {drive});
  rt.call('uploadCreatives');
  typeInto(rt, 'Creatives', 2, 'file', '1HeroImageFileId');
  emulator.faults.add({kind: 'strip', fields, path: UPLOAD, count: 1});
  emulator.clearRequests();
  return {rt, emulator};
}

const sent = (emulator: Emulator) => emulator.requests.map(r => r.path);
const row = (rt: ReturnType<typeof offerDesk>['rt']) => {
  const [r] = recordsOf(rt, 'Creatives');
  return [r.creative_md5, r.creative_name, r.sync_status, r.sync_message];
};
const heroMd5 = (emulator: Emulator) =>
  [...emulator.account('demo_adv').materials.values()].find(
    m => m.creative_name === 'hero',
  )!.creative_md5;

describe('an upload answered without creative_md5', () => {
  it('fills in nothing and says so; the re-run fills md5 and name from "already existed"', () => {
    const {rt, emulator} = heroToUpload(['creative_md5']);

    expect(rt.call('uploadCreatives')).toMatchObject({ok: 0, error: 1});

    expect(sent(emulator)).toEqual([UPLOAD]);
    expect(row(rt)).toEqual([
      '',
      '',
      'ERROR',
      'The API answered "success, data {"creative_name":"hero"}" but named no creative_md5 that could be read, so nothing was filled in. Run Refresh creative materials: the material is listed in a row of its own; then delete this row.',
    ]);
    emulator.clearRequests();
    expect(rt.call('uploadCreatives')).toMatchObject({ok: 1, error: 0});
    const md5 = heroMd5(emulator);
    expect(row(rt).slice(0, 3)).toEqual([md5, 'hero', 'OK']);
  });
});

describe('an upload answered without creative_name', () => {
  it('fills the md5 in and looks its name up in creatives/source', () => {
    const {rt, emulator} = heroToUpload(['creative_name']);

    expect(rt.call('uploadCreatives')).toMatchObject({ok: 1, error: 0});

    const md5 = heroMd5(emulator);
    expect(sent(emulator)).toEqual([UPLOAD, SOURCE]);
    expect(row(rt)).toEqual([
      md5,
      'hero',
      'OK',
      `Already on the server (the API answered "success, data {"creative_md5":"${md5}"}", naming no creative_name, so the md5 was looked up): creative_md5 ${md5} and creative_name hero filled in.`,
    ]);
  });
});

describe('an upload answered without data', () => {
  it('fills in nothing and says so, instead of stopping the job', () => {
    const {rt} = heroToUpload(['data']);

    expect(rt.call('uploadCreatives')).toMatchObject({ok: 0, error: 1});

    expect(row(rt).slice(0, 3)).toEqual(['', '', 'ERROR']);
    expect(row(rt)[3]).toMatch(/^The API answered "success, data null" but/);
  });
});
