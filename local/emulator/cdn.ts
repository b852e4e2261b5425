/**
 * The host that creative_url names (2.6): a GET of `/creatives/<md5>.<ext>` answers the
 * material's bytes, whose md5 is creative_md5, so a material fetched there and uploaded into
 * another account keeps its md5. Unsigned, as a CDN is; not an operation of the API, so not in
 * the requests log.
 */
import type {WireOutcome} from '../http-types';
import {CDN_HOST} from './present';
import type {Store} from './store';

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  html: 'text/html',
  htm: 'text/html',
  zip: 'application/zip',
};

export function isCdnUrl(url: URL): boolean {
  return url.hostname === CDN_HOST;
}

/** The material's file, or 404 for a path no material of any account has. */
export function serveMaterial(
  store: Store,
  method: string,
  url: URL,
): WireOutcome {
  const md5 = /^\/creatives\/([0-9a-f]{32})\.[A-Za-z0-9]+$/.exec(
    url.pathname,
  )?.[1];
  const material = md5
    ? store
        .accounts()
        .map(account => account.materials.get(md5))
        .find(found => found !== undefined)
    : undefined;
  if (method !== 'GET' || !material) {
    return {
      kind: 'response',
      status: 404,
      headers: {'content-type': 'text/plain'},
      body: new TextEncoder().encode('Not Found'),
      latencyMs: 0,
    };
  }
  return {
    kind: 'response',
    status: 200,
    headers: {
      'content-type':
        CONTENT_TYPES[material.extension] ?? 'application/octet-stream',
    },
    body: material.bytes,
    latencyMs: 0,
  };
}
