/**
 * The playground's Google Drive: a temporary folder whose files the runtime's Drive serves
 * under Drive-like ids. A few demo images are written at startup; the page adds more (a file
 * chooser or a drop). The add-on reads only the files picked in the page's stand-in Picker,
 * as it reads only the files picked with Google's Picker under drive.file.
 */
import {createHash} from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, extname, join} from 'node:path';
import {encodePng} from './png';
import type {DriveFileView} from './protocol';

/** What the browser needs to show a thumbnail. */
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
};

interface StoredFile extends DriveFileView {
  path: string;
}

/** Drive ids are long runs of letters, digits, '-' and '_'; these are derived from the file. */
function driveId(name: string, bytes: Uint8Array): string {
  const hash = createHash('sha256').update(name).update(bytes).digest();
  return `1${hash.toString('base64url').slice(0, 32)}`;
}

/** Letters, digits, dots, dashes and underscores; what is left of a name a browser sent. */
export function safeFileName(name: string): string | null {
  const base = basename(name.replace(/\\/g, '/')).replace(
    /[^A-Za-z0-9._ -]/g,
    '_',
  );
  return /^[^.]/.test(base) && base.length <= 200 ? base : null;
}

export class PlaygroundDrive {
  readonly dir = mkdtempSync(join(tmpdir(), 'offer-desk-playground-drive-'));
  private readonly files = new Map<string, StoredFile>();

  /** Stores a file; the same name and bytes give the same id. */
  add(name: string, bytes: Uint8Array): DriveFileView {
    const id = driveId(name, bytes);
    const folder = join(this.dir, id);
    mkdirSync(folder, {recursive: true});
    const path = join(folder, name);
    writeFileSync(path, bytes);
    const file: StoredFile = {
      id,
      name,
      bytes: bytes.length,
      image: extname(name).toLowerCase() in IMAGE_TYPES,
      path,
    };
    this.files.set(id, file);
    return view(file);
  }

  list(): DriveFileView[] {
    return [...this.files.values()].map(view);
  }

  /** id -> path, as the runtime's Drive takes it. */
  paths(): Record<string, string> {
    return Object.fromEntries(
      [...this.files.values()].map(f => [f.id, f.path]),
    );
  }

  pathOf(id: string): string | undefined {
    return this.files.get(id)?.path;
  }

  /** The bytes and content type of an image, for the page's thumbnails. */
  image(id: string): {bytes: Buffer; type: string} | undefined {
    const file = this.files.get(id);
    if (!file?.image) return undefined;
    return {
      bytes: readFileSync(file.path),
      type: IMAGE_TYPES[extname(file.name).toLowerCase()],
    };
  }

  remove(): void {
    rmSync(this.dir, {recursive: true, force: true});
  }
}

function view(file: StoredFile): DriveFileView {
  return {id: file.id, name: file.name, bytes: file.bytes, image: file.image};
}

/** Three banners in the sizes ad networks use, each a gradient of its own colours. */
export function addDemoImages(drive: PlaygroundDrive): DriveFileView[] {
  const gradient =
    (from: [number, number, number], to: [number, number, number]) =>
    (width: number, height: number) =>
      encodePng(width, height, (x, y) => {
        const t = (x / width + y / height) / 2;
        const mix = (i: number) => Math.round(from[i] + (to[i] - from[i]) * t);
        return [mix(0), mix(1), mix(2)];
      });
  return [
    drive.add(
      'banner_320x50.png',
      gradient([26, 115, 232], [52, 168, 83])(320, 50),
    ),
    drive.add(
      'interstitial_320x480.png',
      gradient([234, 67, 53], [251, 188, 4])(320, 480),
    ),
    drive.add(
      'icon_512x512.png',
      gradient([103, 58, 183], [0, 150, 136])(512, 512),
    ),
  ];
}
