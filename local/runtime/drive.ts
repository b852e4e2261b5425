import {existsSync, readFileSync, statSync} from 'node:fs';
import {basename, extname, join} from 'node:path';
import {FakeBlob} from './blob';
import {Env} from './env';

const NOT_FOUND =
  'No item with the given ID could be found, or you do not have permission to access it.';

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.zip': 'application/zip',
  '.html': 'text/html',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.pdf': 'application/pdf',
};

/**
 * Where DriveApp finds files: `files` maps an id to a path; otherwise an id names a file in
 * `dir` (by its file name).
 */
export interface DriveOptions {
  dir?: string;
  files?: Record<string, string>;
}

class FakeFile {
  constructor(
    private readonly env: Env,
    private readonly id: string,
    private readonly path: string,
  ) {}

  getId(): string {
    this.env.call('DriveApp', 'File.getId');
    return this.id;
  }

  getName(): string {
    this.env.call('DriveApp', 'File.getName');
    return basename(this.path);
  }

  getSize(): number {
    this.env.call('DriveApp', 'File.getSize');
    return statSync(this.path).size;
  }

  getMimeType(): string {
    this.env.call('DriveApp', 'File.getMimeType');
    return this.mimeType();
  }

  /** A local file is never in the trash. */
  isTrashed(): boolean {
    this.env.call('DriveApp', 'File.isTrashed');
    return false;
  }

  getLastUpdated(): Date {
    this.env.call('DriveApp', 'File.getLastUpdated');
    return this.env.realm.date(statSync(this.path).mtimeMs);
  }

  getUrl(): string {
    this.env.call('DriveApp', 'File.getUrl');
    return `https://drive.google.com/file/d/${this.id}/view`;
  }

  getBlob(): FakeBlob {
    this.env.call('DriveApp', 'File.getBlob');
    const bytes = new Uint8Array(readFileSync(this.path));
    this.env.meter.add('DriveApp.bytesRead', bytes.length);
    return new FakeBlob(this.env, bytes, this.mimeType(), basename(this.path));
  }

  getAs(contentType: string): FakeBlob {
    return this.getBlob().getAs(contentType);
  }

  toString(): string {
    return basename(this.path);
  }

  private mimeType(): string {
    return (
      MIME_TYPES[extname(this.path).toLowerCase()] ?? 'application/octet-stream'
    );
  }
}

/** The DriveApp global, read-only, over a local folder. */
export class FakeDriveApp {
  constructor(
    private readonly env: Env,
    private readonly options: DriveOptions,
  ) {}

  getFileById(id: string): FakeFile {
    this.env.call('DriveApp', 'DriveApp.getFileById');
    const key = String(id);
    const mapped = this.options.files?.[key];
    const inDir =
      this.options.dir !== undefined && !/[/\\]|^\.\.?$/.test(key)
        ? join(this.options.dir, key)
        : undefined;
    const path = mapped ?? inDir;
    if (!path || !existsSync(path) || !statSync(path).isFile())
      this.env.fail(NOT_FOUND);
    return new FakeFile(this.env, key, path);
  }
}
