/**
 * Material files for upload: Drive files over the Drive REST API (UrlFetchApp with the user's
 * token), https links over UrlFetchApp. The add-on holds only the `drive.file` scope, so Drive
 * answers only for files the user picked with the Google Picker (or the add-on created):
 * DriveApp would need the restricted `drive.readonly`. HTTP statuses and exceptions become the
 * reasons a user can act on: pick the file, too large, not a file that can be uploaded, or not
 * reachable now.
 */
import type {
  FileCheck,
  FileFacts,
  FileRead,
  FileReadOptions,
  FileRefusal,
  FileSource,
  FileWanted,
} from './ports';

type Blob = GoogleAppsScript.Base.Blob;
type Response = GoogleAppsScript.URL_Fetch.HTTPResponse;
type Request = GoogleAppsScript.URL_Fetch.URLFetchRequest;

const DRIVE_FILES = 'https://www.googleapis.com/drive/v3/files/';
/** Files in shared drives answer 404 without it. */
const ALL_DRIVES = 'supportsAllDrives=true';

/** The MIME types of Google Docs, Sheets, Slides, folders, shortcuts... */
const GOOGLE_NATIVE = 'application/vnd.google-apps.';

const PICK_HINT =
  'pick it with "Choose files…" (in the sidebar, or Extensions > Offer Desk > Create)';

function messageOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'message' in e
    ? String((e as {message: unknown}).message)
    : String(e);
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function refused(problem: FileRefusal['problem'], reason: string): FileRefusal {
  return {ok: false, problem, reason};
}

function tooLarge(what: string, size: number, maxBytes: number): FileRefusal {
  return refused(
    'too-large',
    `${what} is ${megabytes(size)} (${size} bytes); at most ${megabytes(maxBytes)} can be uploaded in one request`,
  );
}

/** Drive's own words from its JSON error ({error: {message, errors: [{reason}]}}). */
function driveError(response: Response): {message: string; reason: string} {
  try {
    const body = JSON.parse(response.getContentText()) as {
      error?: {message?: unknown; errors?: Array<{reason?: unknown}>};
    };
    return {
      message: String(body.error?.message ?? ''),
      reason: String(body.error?.errors?.[0]?.reason ?? ''),
    };
  } catch {
    return {message: '', reason: ''};
  }
}

/**
 * Under drive.file Drive answers 404 for a file the user never picked as for one that does
 * not exist; 403 when it may see the file but not download it.
 */
function driveFailure(id: string, response: Response): FileRefusal {
  const status = response.getResponseCode();
  const {message} = driveError(response);
  const said = message ? ` (${message})` : '';
  if (status === 404) {
    return refused(
      'missing',
      `Drive file ${id} is not one Offer Desk may open: ${PICK_HINT}`,
    );
  }
  if (status === 403 && !/rate limit|quota/i.test(message)) {
    return refused(
      'no-access',
      `Drive refused Drive file ${id}${said}: ${PICK_HINT}, or ask its owner to let you download it`,
    );
  }
  if (status === 401) {
    return refused(
      'unreachable',
      `Drive did not accept Offer Desk's authorization for file ${id}: open the add-on again and allow it, then retry`,
    );
  }
  return refused(
    'unreachable',
    `Drive answered HTTP ${status} for file ${id}${said}: try again later`,
  );
}

/** A Drive REST request with the user's token (the manifest's scopes: drive.file). */
function driveRequest(id: string, query: string, token: string): Request {
  return {
    url: `${DRIVE_FILES}${encodeURIComponent(id)}?${query}&${ALL_DRIVES}`,
    method: 'get',
    headers: {Authorization: `Bearer ${token}`},
    muteHttpExceptions: true,
  };
}

/** The token, asked once per batch and only when the batch holds a Drive file. */
function lazyToken(): () => string {
  let token: string | undefined;
  return () => (token ??= ScriptApp.getOAuthToken());
}

/**
 * The answers to `requests`, sent together. UrlFetchApp.fetchAll throws for the whole batch
 * when one request fails on the network (or answers more than 50 MB): then each is sent alone,
 * so only the one that failed says so.
 */
function fetchEach(requests: Request[]): Array<Response | Error> {
  if (requests.length === 0) return [];
  try {
    return UrlFetchApp.fetchAll(requests);
  } catch (e) {
    if (requests.length === 1) return [new Error(messageOf(e))];
  }
  return requests.map(r => {
    try {
      return UrlFetchApp.fetch(r.url, r);
    } catch (e) {
      return new Error(messageOf(e));
    }
  });
}

/** `name` with the extension of the file's own name, unless it already has one. */
export function nameWithExtension(
  name: string,
  original: string | null,
): string {
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(original ?? '')?.[0] ?? '';
  return /\.[A-Za-z0-9]{1,8}$/.test(name) ? name : `${name}${extension}`;
}

interface DriveMetadata {
  name?: string;
  mimeType?: string;
  /** Drive answers the size as a string; none for Google Docs, folders and shortcuts. */
  size?: string;
}

function inspectDriveFile(
  wanted: FileWanted,
  id: string,
  answer: Response | Error,
  maxBytes: number,
): FileCheck {
  if (answer instanceof Error) {
    return refused(
      'unreachable',
      `Drive could not be asked about file ${id} (${answer.message}): try again`,
    );
  }
  if (answer.getResponseCode() !== 200) return driveFailure(id, answer);
  let meta: DriveMetadata;
  try {
    meta = JSON.parse(answer.getContentText()) as DriveMetadata;
  } catch {
    return refused(
      'unreachable',
      `Drive answered no metadata for file ${id}: try again`,
    );
  }
  const name = String(meta.name ?? id);
  const mimeType = String(meta.mimeType ?? '');
  if (mimeType.startsWith(GOOGLE_NATIVE) || meta.size === undefined) {
    return refused(
      'wrong-type',
      `Drive file "${name}" is a Google ${mimeType.slice(GOOGLE_NATIVE.length) || 'item'}, not an image, video or playable file`,
    );
  }
  const bytes = Number(meta.size);
  if (bytes > maxBytes)
    return tooLarge(`Drive file "${name}"`, bytes, maxBytes);
  return {
    ok: true,
    ...wanted,
    fileName: wanted.name ? nameWithExtension(wanted.name, name) : name,
    contentType: mimeType || null,
    bytes,
  };
}

function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last) || 'material';
  } catch {
    return last || 'material';
  }
}

function linkFailure(url: string, answer: Response | Error): FileRefusal {
  if (answer instanceof Error) {
    return /too large|exceeds|maximum size|limit exceeded/i.test(answer.message)
      ? refused(
          'too-large',
          `${url} is larger than Apps Script can fetch (50 MB)`,
        )
      : refused(
          'unreachable',
          `${url} could not be fetched (${answer.message}): check the link, or try again`,
        );
  }
  const status = answer.getResponseCode();
  if (status === 404 || status === 410) {
    return refused(
      'missing',
      `${url} answered HTTP ${status}: there is no file there`,
    );
  }
  if (status === 401 || status === 403) {
    return refused(
      'no-access',
      `${url} answered HTTP ${status}: the link needs a sign-in; make it public, or put the file in Drive and ${PICK_HINT}`,
    );
  }
  return refused(
    'unreachable',
    `${url} answered HTTP ${status}: try again later`,
  );
}

/** The bytes a request answered, as the blob to upload, or why not. */
function received(
  facts: FileFacts,
  answer: Response | Error,
  maxBytes: number,
): FileRead {
  const ref = facts.ref;
  if ('driveId' in ref) {
    if (answer instanceof Error) {
      return refused(
        'unreachable',
        `Drive file ${ref.driveId} could not be read (${answer.message}): try again`,
      );
    }
    if (answer.getResponseCode() !== 200)
      return driveFailure(ref.driveId, answer);
  } else if (answer instanceof Error || answer.getResponseCode() !== 200) {
    return linkFailure(ref.url, answer);
  }
  const blob: Blob = answer.getBlob();
  const size = blob.getBytes().length;
  const what =
    'driveId' in ref ? `Drive file "${facts.fileName}"` : `${ref.url}`;
  if (size > maxBytes) return tooLarge(what, size, maxBytes);
  if ('driveId' in ref) {
    blob.setName(facts.fileName ?? ref.driveId);
    if (facts.contentType) blob.setContentType(facts.contentType);
  } else {
    const own = blob.getName() || fileNameOf(ref.url);
    blob.setName(facts.name ? nameWithExtension(facts.name, own) : own);
  }
  return {ok: true, blob};
}

export const materialFiles: FileSource = {
  /** Drive metadata for every Drive file, in one batch; a link is known only once fetched. */
  inspect(files: readonly FileWanted[], options: FileReadOptions): FileCheck[] {
    const drive = files.flatMap((f, i) =>
      'driveId' in f.ref ? [{i, id: f.ref.driveId}] : [],
    );
    const token = lazyToken();
    const answers = fetchEach(
      drive.map(d => driveRequest(d.id, 'fields=name,mimeType,size', token())),
    );
    const checks: FileCheck[] = files.map(f => ({
      ok: true,
      ...f,
      fileName: null,
      contentType: null,
      bytes: null,
    }));
    drive.forEach((d, k) => {
      checks[d.i] = inspectDriveFile(
        files[d.i],
        d.id,
        answers[k],
        options.maxBytes,
      );
    });
    return checks;
  },

  readAll(files: readonly FileFacts[], options: FileReadOptions): FileRead[] {
    const token = lazyToken();
    const answers = fetchEach(
      files.map(f =>
        'driveId' in f.ref
          ? driveRequest(f.ref.driveId, 'alt=media', token())
          : {
              url: f.ref.url,
              method: 'get' as const,
              muteHttpExceptions: true,
              followRedirects: true,
            },
      ),
    );
    return files.map((f, i) => received(f, answers[i], options.maxBytes));
  },
};
