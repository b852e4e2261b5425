/**
 * Material files for upload, over DriveApp (a file id) and UrlFetchApp (an https URL). The
 * platform's exceptions and HTTP statuses become the reasons a user can act on: no such file,
 * not shared with you, too large, not a file that can be uploaded, or not reachable now.
 */
import type {FileRead, FileReadOptions, FileRef, FileSource} from './ports';

type Blob = GoogleAppsScript.Base.Blob;
/** A read whose blob is Apps Script's own, so it can be renamed. */
type Read = Exclude<FileRead, {ok: true}> | {ok: true; blob: Blob};

/** The MIME types of Google Docs, Sheets, Slides, folders... */
const GOOGLE_NATIVE = 'application/vnd.google-apps.';

function messageOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'message' in e
    ? String((e as {message: unknown}).message)
    : String(e);
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function tooLarge(what: string, size: number, maxBytes: number): Read {
  return {
    ok: false,
    problem: 'too-large',
    reason: `${what} is ${megabytes(size)}; at most ${megabytes(maxBytes)} can be uploaded`,
  };
}

/**
 * DriveApp says the same for a missing file and one not shared with the user ("No item with
 * the given ID could be found, or you do not have permission to access it"), so that reason
 * names both; an explicit "Access denied" is no-access.
 */
function driveFailure(id: string, e: unknown): Read {
  const message = messageOf(e);
  if (
    /access denied|not have permission|permission denied/i.test(message) &&
    !/no item/i.test(message)
  ) {
    return {
      ok: false,
      problem: 'no-access',
      reason: `you may not open Drive file ${id}: ask its owner to share it with you`,
    };
  }
  if (
    /no item|not found|invalid argument|unexpected error while getting the method or property getFileById/i.test(
      message,
    )
  ) {
    return {
      ok: false,
      problem: 'missing',
      reason: `no Drive file with id ${id} can be opened: check the id, and that the file is shared with you`,
    };
  }
  return {
    ok: false,
    problem: 'unreachable',
    reason: `Drive file ${id} could not be read now (${message}): try again`,
  };
}

/**
 * A Drive file costs two round trips when it can be uploaded: the file, and its blob (which
 * carries name, content type and bytes). Drive is asked for details only to explain a
 * refusal: a blob that cannot be had (too large to load, a Google item with no file form),
 * or a PDF, which may be a Google document converted on the way.
 */
function readDriveFile(id: string, maxBytes: number): Read {
  let file: GoogleAppsScript.Drive.File;
  let blob: Blob;
  try {
    file = DriveApp.getFileById(id);
  } catch (e) {
    return driveFailure(id, e);
  }
  try {
    blob = file.getBlob();
  } catch (e) {
    const problem = detail(() => nativeItem(file) ?? oversize(file, maxBytes));
    return problem ?? driveFailure(id, e);
  }
  const size = blob.getBytes().length;
  if (size > maxBytes) {
    return tooLarge(`Drive file "${blob.getName()}"`, size, maxBytes);
  }
  const native =
    blob.getContentType() === 'application/pdf'
      ? detail(() => nativeItem(file))
      : undefined;
  return native ?? {ok: true, blob};
}

/** Details asked only to explain a refusal: none when Drive fails to give them. */
function detail(ask: () => Read | undefined): Read | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}

/** Google Docs, Sheets, Slides, folders...: no file to upload (getBlob converts to PDF). */
function nativeItem(file: GoogleAppsScript.Drive.File): Read | undefined {
  const mimeType = file.getMimeType();
  if (!mimeType.startsWith(GOOGLE_NATIVE)) return undefined;
  return {
    ok: false,
    problem: 'wrong-type',
    reason: `Drive file "${file.getName()}" is a Google ${mimeType.slice(GOOGLE_NATIVE.length)} item, not an image, video or playable file`,
  };
}

function oversize(
  file: GoogleAppsScript.Drive.File,
  maxBytes: number,
): Read | undefined {
  const size = file.getSize();
  return size > maxBytes
    ? tooLarge(`Drive file "${file.getName()}"`, size, maxBytes)
    : undefined;
}

function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last) || 'material';
  } catch {
    return last || 'material';
  }
}

function fetchFile(url: string, maxBytes: number): Read {
  let response: GoogleAppsScript.URL_Fetch.HTTPResponse;
  try {
    response = UrlFetchApp.fetch(url, {
      method: 'get',
      muteHttpExceptions: true,
      followRedirects: true,
    });
  } catch (e) {
    const message = messageOf(e);
    if (/too large|exceeds|maximum size/i.test(message)) {
      return {
        ok: false,
        problem: 'too-large',
        reason: `${url} is larger than Apps Script can fetch (50 MB)`,
      };
    }
    return {
      ok: false,
      problem: 'unreachable',
      reason: `${url} could not be fetched (${message}): check the link, or try again`,
    };
  }
  const status = response.getResponseCode();
  if (status === 404 || status === 410) {
    return {
      ok: false,
      problem: 'missing',
      reason: `${url} answered HTTP ${status}: there is no file there`,
    };
  }
  if (status === 401 || status === 403) {
    return {
      ok: false,
      problem: 'no-access',
      reason: `${url} answered HTTP ${status}: the link needs a sign-in; make it public or put the file in Drive`,
    };
  }
  if (status < 200 || status > 299) {
    return {
      ok: false,
      problem: 'unreachable',
      reason: `${url} answered HTTP ${status}: try again later`,
    };
  }
  const blob = response.getBlob();
  const size = blob.getBytes().length;
  if (size > maxBytes) return tooLarge(url, size, maxBytes);
  if (!blob.getName()) blob.setName(fileNameOf(url));
  return {ok: true, blob};
}

/** `name` with the extension of the file's own name, unless it already has one. */
export function nameWithExtension(
  name: string,
  original: string | null,
): string {
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(original ?? '')?.[0] ?? '';
  return /\.[A-Za-z0-9]{1,8}$/.test(name) ? name : `${name}${extension}`;
}

export const materialFiles: FileSource = {
  read(ref: FileRef, options: FileReadOptions): FileRead {
    const read =
      'driveId' in ref
        ? readDriveFile(ref.driveId, options.maxBytes)
        : fetchFile(ref.url, options.maxBytes);
    if (read.ok && options.name) {
      read.blob.setName(nameWithExtension(options.name, read.blob.getName()));
    }
    return read;
  },
};
