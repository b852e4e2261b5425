/**
 * A Creatives row copied and given another file, on the built dist/Code.js in the local runtime
 * against the emulator: the copy keeps the md5 (and OK) of the file it came from, so Upload
 * creative materials would find nothing to upload and the new file would never go.
 */
import {driveFiles} from '../support/materials';
import {offerDesk, recordsOf, sheetOf, typeInto} from '../support/offer-desk';

describe('uploadCreatives with a row copied and its file changed', () => {
  it('says on the copy which row it kept the md5 of; with it cleared, the next run uploads the new file', () => {
    const drive = driveFiles({'1A': ['a.png', 'aaa'], '1B': ['b.png', 'bbb']});
    const {rt, emulator} = offerDesk({offers: 2, materials: 1}, {drive});
    rt.call('uploadCreatives');
    typeInto(rt, 'Creatives', 2, 'file', '1A');
    rt.call('uploadCreatives');
    const sheet = sheetOf(rt, 'Creatives');
    const copied = sheet.getRange(2, 1, 1, sheet.getLastColumn()).getValues();
    sheet.getRange(3, 1, 1, sheet.getLastColumn()).setValues(copied);
    typeInto(rt, 'Creatives', 3, 'file', '1B');
    const md5 = recordsOf(rt, 'Creatives')[0].creative_md5 as string;
    emulator.clearRequests();

    const summary = rt.call('uploadCreatives') as Record<string, unknown>;

    expect(emulator.requests).toEqual([]);
    expect(summary).toMatchObject({ok: 0, invalid: 1});
    const rows = recordsOf(rt, 'Creatives').map(r => [
      r.file,
      r.creative_md5,
      r.sync_status,
      r.sync_message,
    ]);
    expect(rows).toEqual([
      ['1A', md5, 'OK', `Uploaded: creative_md5 ${md5}, creative_name a.`],
      [
        '1B',
        md5,
        'INVALID',
        `creative_md5 ${md5} is that of row 2, whose file is "1A": a copied row keeps the md5 of the file it was copied from, so this row's file was not uploaded. Clear creative_md5 here (and creative_name, if it is the other file's) to upload it, or delete the row. Nothing was uploaded.`,
      ],
    ]);

    typeInto(rt, 'Creatives', 3, 'creative_md5', '');
    rt.call('uploadCreatives');
    expect(
      emulator.requests.filter(r => r.method === 'POST').map(r => r.body),
    ).toHaveLength(1);
    const after = recordsOf(rt, 'Creatives');
    expect(after[1].creative_md5).not.toBe(md5);
    expect(after[1].sync_status).toBe('OK');
  });
});
