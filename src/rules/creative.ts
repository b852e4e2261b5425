/**
 * The `file` cell of a Creatives row (a Drive file id, a Drive link or an https URL) and what
 * may be uploaded as a material (4.1: types and size limits are not shown, so the limits here
 * are the platform's and the kinds of 2.5: IMAGE, VIDEO, PLAYABLE).
 */
import type {FileRef} from '../platform/ports';
import {excerpt, textOf} from './values';

/** UrlFetchApp sends at most 50 MB in one POST (Apps Script quotas: "URL Fetch POST size"). */
export const MAX_POST_BYTES = 50 * 1024 * 1024;

/**
 * Room in that POST for the multipart envelope around the file: boundaries and the part's
 * headers, its file name included (a creative_name of up to 4,000 characters is 12 KB of UTF-8).
 */
export const MULTIPART_RESERVE_BYTES = 64 * 1024;

/** The largest material whose upload request stays within the POST limit. */
export const MAX_MATERIAL_BYTES = MAX_POST_BYTES - MULTIPART_RESERVE_BYTES;

const DRIVE_ID = /^[A-Za-z0-9_-]+$/;
const DRIVE_HOSTS = /^(drive|docs)\.google\.com$/i;

export type FileCell = {ref: FileRef} | {problem: string};

const FORMS =
  'must be a Drive file id, a Drive link (https://drive.google.com/file/d/...) or an https:// link to the file';

/** scheme, host, path and query of a URL (Apps Script has no URL class). */
const URL_PARTS =
  /^([a-z][a-z0-9+.-]*):\/\/([^/?#:]+)(?::\d+)?([^?#]*)(\?[^#]*)?(#.*)?$/i;

/** Reads a non-blank `file` cell. */
export function readFileCell(value: unknown): FileCell {
  const text = textOf(value);
  if (DRIVE_ID.test(text)) return {ref: {driveId: text}};
  const parts = URL_PARTS.exec(text);
  if (!parts || /\s/.test(text))
    return {problem: `${FORMS} (got ${excerpt(text)})`};
  const [, scheme, host, path, query = ''] = parts;
  if (DRIVE_HOSTS.test(host)) {
    const id =
      /\/d\/([A-Za-z0-9_-]+)/.exec(path)?.[1] ??
      /[?&]id=([A-Za-z0-9_-]+)/.exec(query)?.[1] ??
      '';
    return id
      ? {ref: {driveId: id}}
      : {
          problem: `is a Google Drive link without a file id: copy the file's own link (${excerpt(text, false)})`,
        };
  }
  if (scheme.toLowerCase() !== 'https') {
    return {
      problem: `must be an https:// link: ${scheme}:// is refused (${excerpt(text, false)})`,
    };
  }
  return {ref: {url: text}};
}

/** Content types that can be an IMAGE, VIDEO or PLAYABLE material (2.5). */
export function materialTypeProblem(
  contentType: string | null,
): string | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (
    type === '' ||
    type.startsWith('image/') ||
    type.startsWith('video/') ||
    [
      'text/html',
      'application/zip',
      'application/x-zip-compressed',
      'application/octet-stream',
    ].includes(type)
  ) {
    return undefined;
  }
  return `is of type ${type}, not an image, video or playable (HTML or zip) file`;
}
