/**
 * Material files in a temporary folder, served by the runtime's Drive under made-up Drive
 * ids, all picked with the Google Picker (the add-on reads them over the Drive REST API). Every file has its own bytes (the API keeps one material per content, so twins would
 * answer `already existed` instead of being uploaded).
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {DriveOptions} from '../local/runtime';

export interface MaterialFile {
  /** The Drive id a Creatives row names. */
  id: string;
  /** The creative_name the row gives it (also the file's name, without extension). */
  name: string;
}

export interface MaterialFolder {
  files: MaterialFile[];
  drive: DriveOptions;
  remove(): void;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A 64x64 PNG header followed by bytes of its own. */
function png(unique: string): Buffer {
  const header = Buffer.alloc(8 + 8 + 13);
  Buffer.from(PNG_SIGNATURE).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(64, 16);
  header.writeUInt32BE(64, 20);
  header.writeUInt8(8, 24);
  header.writeUInt8(6, 25);
  return Buffer.concat([header, Buffer.from(unique)]);
}

/** `names` as PNG files in a new temporary folder. */
export function materialFolder(names: readonly string[]): MaterialFolder {
  const dir = mkdtempSync(join(tmpdir(), 'offer-desk-bench-'));
  const paths: Record<string, string> = {};
  const files = names.map((name, i) => {
    const id = `1BenchMaterial${String(i).padStart(6, '0')}`;
    const path = join(dir, `${name}.png`);
    writeFileSync(path, png(`offer desk bench material ${name}`));
    paths[id] = path;
    return {id, name};
  });
  return {
    files,
    drive: {files: paths, picked: Object.keys(paths)},
    remove: () => rmSync(dir, {recursive: true, force: true}),
  };
}
