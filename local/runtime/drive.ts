import {existsSync, readFileSync, statSync} from 'node:fs';
import {basename, extname, join} from 'node:path';
import {FakeBlob} from './blob';
import {Env} from './env';
import {oauthTokenOf} from './script-app';
import {WireOutcome, WireRequest} from '../http-types';

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
  // Stand-ins for Google Docs and Sheets: Drive lists them with no size and no bytes to download.
  '.gdoc': 'application/vnd.google-apps.document',
  '.gsheet': 'application/vnd.google-apps.spreadsheet',
};

const GOOGLE_NATIVE = 'application/vnd.google-apps.';

function mimeTypeOf(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Where Drive finds files: `files` maps an id to a path; otherwise an id names a file in `dir`
 * (by its file name). `picked`: ids every user has picked with the Google Picker, which is
 * what lets an add-on holding only the drive.file scope read them over the Drive REST API.
 */
export interface DriveOptions {
  dir?: string;
  files?: Record<string, string>;
  picked?: readonly string[];
}

const FULL_DRIVE = [
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.readonly',
];
const DRIVE_FILE = 'https://www.googleapis.com/auth/drive.file';

/** A Drive REST request as the fake Drive API received it, and its answer's status. */
export interface DriveApiRequest {
  user: string;
  method: string;
  url: string;
  authorization: string | undefined;
  status: number;
}

/** The fake Drive's files, and the ones each user picked with the Google Picker. */
export class DriveStore {
  /** Every Drive REST request answered, in order, for tests to assert. */
  readonly requests: DriveApiRequest[] = [];
  private readonly picks = new Map<string, Set<string>>();
  private readonly pickedByAll: Set<string>;

  constructor(private readonly options: DriveOptions) {
    this.pickedByAll = new Set(options.picked ?? []);
  }

  /** The local file behind a Drive id, if there is one. */
  pathOf(id: string): string | undefined {
    const mapped = this.options.files?.[id];
    const inDir =
      this.options.dir !== undefined && !/[/\\]|^\.\.?$/.test(id)
        ? join(this.options.dir, id)
        : undefined;
    const path = mapped ?? inDir;
    return path && existsSync(path) && statSync(path).isFile()
      ? path
      : undefined;
  }

  /** What the Picker does when `user` picks files: the app may now open them for that user. */
  pick(user: string, ids: readonly string[]): void {
    const mine = this.picks.get(user) ?? new Set<string>();
    for (const id of ids) mine.add(id);
    this.picks.set(user, mine);
  }

  picked(user: string, id: string): boolean {
    return this.pickedByAll.has(id) || (this.picks.get(user)?.has(id) ?? false);
  }
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
    return mimeTypeOf(this.path);
  }
}

/**
 * The DriveApp global, read-only, over the fake Drive. DriveApp needs the drive or
 * drive.readonly scope: with a manifest that asks for neither (`scopes` known), it refuses as
 * Apps Script does.
 */
export class FakeDriveApp {
  constructor(
    private readonly env: Env,
    private readonly store: DriveStore,
    private readonly scopes: readonly string[] | undefined,
  ) {}

  getFileById(id: string): FakeFile {
    this.env.call('DriveApp', 'DriveApp.getFileById');
    if (this.scopes && !this.scopes.some(s => FULL_DRIVE.includes(s))) {
      this.env.fail(
        `You do not have permission to call DriveApp.getFileById. Required permissions: (${FULL_DRIVE[1]} || ${FULL_DRIVE[0]})`,
      );
    }
    const key = String(id);
    const path = this.store.pathOf(key);
    if (!path) this.env.fail(NOT_FOUND);
    return new FakeFile(this.env, key, path);
  }
}

const DRIVE_API =
  /^https:\/\/www\.googleapis\.com\/drive\/v3\/files(\/[^?#]*)?(?:\?[^#]*)?$/;

function json(status: number, body: unknown): WireOutcome {
  return {
    kind: 'response',
    status,
    headers: {'content-type': 'application/json; charset=UTF-8'},
    body: new Uint8Array(Buffer.from(JSON.stringify(body, null, 2))),
    latencyMs: 0,
  };
}

/** Drive's JSON error: {error: {code, message, errors: [{message, domain, reason, ...}]}}. */
function driveError(
  status: number,
  message: string,
  detail: Record<string, string>,
  statusName: string,
): WireOutcome {
  return json(status, {
    error: {
      code: status,
      message,
      errors: [
        {message: detail.message ?? message, domain: 'global', ...detail},
      ],
      status: statusName,
    },
  });
}

/**
 * The Drive REST API (v3 `files.get`, metadata and `alt=media`) as UrlFetchApp reaches it: the
 * Bearer token must be the user's ScriptApp.getOAuthToken(), and under the drive.file scope
 * only files that user picked are found; others answer 404 as Drive does. Answers undefined
 * for any other URL.
 */
export class FakeDriveApi {
  constructor(
    private readonly env: Env,
    private readonly store: DriveStore,
    private readonly scopes: readonly string[] | undefined,
  ) {}

  answer(request: WireRequest): WireOutcome | undefined {
    if (!DRIVE_API.test(request.url)) return undefined;
    this.env.meter.add('DriveApi.requests');
    const outcome = this.files(request);
    this.store.requests.push({
      user: this.env.user,
      method: request.method,
      url: request.url,
      authorization: request.headers['authorization'],
      status: outcome.kind === 'response' ? outcome.status : 0,
    });
    return outcome;
  }

  private files(request: WireRequest): WireOutcome {
    const match = DRIVE_API.exec(request.url)!;
    const url = new URL(request.url);
    if (
      request.headers['authorization'] !==
      `Bearer ${oauthTokenOf(this.env.user)}`
    ) {
      return driveError(
        401,
        'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        {
          message: 'Login Required.',
          reason: 'required',
          location: 'Authorization',
          locationType: 'header',
        },
        'UNAUTHENTICATED',
      );
    }
    const all =
      this.scopes === undefined ||
      this.scopes.some(s => FULL_DRIVE.includes(s));
    if (!all && !this.scopes!.includes(DRIVE_FILE)) {
      return driveError(
        403,
        'Request had insufficient authentication scopes.',
        {message: 'Insufficient Permission', reason: 'insufficientPermissions'},
        'PERMISSION_DENIED',
      );
    }
    const id = decodeURIComponent((match[1] ?? '').slice(1));
    if (request.method !== 'GET' || id === '' || id.includes('/')) {
      return driveError(
        400,
        "Offer Desk's fake Drive answers files.get only.",
        {reason: 'badRequest'},
        'INVALID_ARGUMENT',
      );
    }
    const path = this.store.pathOf(id);
    if (!path || (!all && !this.store.picked(this.env.user, id))) {
      return driveError(
        404,
        `File not found: ${id}.`,
        {reason: 'notFound', location: 'fileId', locationType: 'parameter'},
        'NOT_FOUND',
      );
    }
    const mimeType = mimeTypeOf(path);
    if (url.searchParams.get('alt') === 'media') {
      if (mimeType.startsWith(GOOGLE_NATIVE)) {
        return driveError(
          403,
          'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
          {
            reason: 'fileNotDownloadable',
            location: 'alt',
            locationType: 'parameter',
          },
          'PERMISSION_DENIED',
        );
      }
      const bytes = new Uint8Array(readFileSync(path));
      this.env.meter.add('DriveApi.bytesRead', bytes.length);
      return {
        kind: 'response',
        status: 200,
        headers: {
          'content-type': mimeType,
          'content-length': String(bytes.length),
        },
        body: bytes,
        latencyMs: 0,
      };
    }
    const all_fields: Record<string, unknown> = {
      kind: 'drive#file',
      id,
      name: basename(path),
      mimeType,
      ...(mimeType.startsWith(GOOGLE_NATIVE)
        ? {}
        : {size: String(statSync(path).size)}),
    };
    const fields = (url.searchParams.get('fields') ?? 'kind,id,name,mimeType')
      .split(',')
      .map(f => f.trim());
    return json(
      200,
      Object.fromEntries(
        Object.entries(all_fields).filter(([k]) => fields.includes(k)),
      ),
    );
  }
}
