import {randomBytes} from 'node:crypto';
import {FakeBlob} from './blob';
import {bytesFromArray, encodeText} from './bytes';
import {Env} from './env';
import {WireRequest} from '../http-types';

const URL_LIMIT = 2048;
const PAYLOAD_LIMIT = 50 * 1024 * 1024;
const METHODS = new Set(['get', 'delete', 'patch', 'post', 'put']);
const FORM = 'application/x-www-form-urlencoded';
const USER_AGENT =
  'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: UAEmdDd-offer-desk)';

/** A request ready for the wire, with the options that decide how its answer is handled. */
export interface PreparedRequest {
  wire: WireRequest;
  muteHttpExceptions: boolean;
  followRedirects: boolean;
  /** What UrlFetchApp.getRequest returns for it. */
  shown: Record<string, unknown>;
}

/** The params UrlFetchApp reads (others are ignored, as Apps Script ignores them). */
interface Params {
  method?: unknown;
  contentType?: unknown;
  headers?: unknown;
  payload?: unknown;
  muteHttpExceptions?: unknown;
  followRedirects?: unknown;
  validateHttpsCertificates?: unknown;
  escaping?: unknown;
}

export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  // Any realm's Object.prototype (its own prototype is null), or no prototype at all.
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Java's URLEncoder, which form payloads go through: space is '+', only *-._ stay bare. */
function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** With `escaping` on (the default) characters illegal in a URL are percent-encoded. */
function escapeUrl(url: string): string {
  return url.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, c =>
    encodeURIComponent(c),
  );
}

function multipart(fields: Record<string, unknown>): {
  body: Uint8Array;
  contentType: string;
} {
  const boundary = `----=_Part_${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const quoted = name.replace(/"/g, '%22');
    if (value instanceof FakeBlob) {
      const file =
        value.getName() === null
          ? ''
          : `; filename="${value.getName()!.replace(/"/g, '%22')}"`;
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quoted}"${file}\r\n` +
            `Content-Type: ${value.getContentType() ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.from(value.data()));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quoted}"\r\n\r\n${String(value)}`,
        ),
      );
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: new Uint8Array(Buffer.concat(chunks)),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The body and its default content type, from a payload in any form UrlFetchApp takes. */
function encodePayload(
  env: Env,
  payload: unknown,
): {body: Uint8Array; contentType: string} {
  if (typeof payload === 'string')
    return {body: encodeText(payload, 'utf8'), contentType: FORM};
  if (payload instanceof FakeBlob) {
    return {
      body: payload.data(),
      contentType: payload.getContentType() ?? FORM,
    };
  }
  const bytes = bytesFromArray(payload);
  if (bytes) return {body: bytes, contentType: FORM};
  if (isPlainObject(payload)) {
    if (Object.values(payload).some(v => v instanceof FakeBlob))
      return multipart(payload);
    const form = Object.entries(payload)
      .map(([k, v]) => `${formEncode(k)}=${formEncode(String(v))}`)
      .join('&');
    return {body: encodeText(form, 'ascii'), contentType: FORM};
  }
  if (Array.isArray(payload)) env.fail('Invalid argument: payload');
  return {body: encodeText(String(payload), 'utf8'), contentType: FORM};
}

/** Checks and encodes what UrlFetchApp.fetch(url, params) would send. */
export function prepareRequest(
  env: Env,
  url: unknown,
  params: unknown = {},
): PreparedRequest {
  if (typeof url !== 'string')
    env.fail(
      "The parameters don't match the method signature for UrlFetchApp.fetch.",
    );
  if (!isPlainObject(params)) env.fail('Invalid argument: params');
  const p = params as Params;
  const target = p.escaping === false ? url : escapeUrl(url);
  if (target.length > URL_LIMIT)
    env.fail('Limit Exceeded: URLFetch URL Length.');
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    return env.fail(`Invalid argument: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    env.fail(`Invalid argument: ${url}`);

  const method = String(p.method ?? 'get').toLowerCase();
  if (!METHODS.has(method)) env.fail('Invalid argument: method');

  const userHeaders: Record<string, string> = {};
  if (p.headers !== undefined && p.headers !== null) {
    if (!isPlainObject(p.headers)) env.fail('Invalid argument: headers');
    for (const [k, v] of Object.entries(p.headers)) userHeaders[k] = String(v);
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(userHeaders))
    headers[k.toLowerCase()] = v;

  const hasPayload = p.payload !== undefined && p.payload !== null;
  if (hasPayload && method === 'get') {
    env.fail(
      'Invalid argument: payload. A GET request carries no payload: send its parameters in the URL.',
    );
  }
  const encoded = hasPayload ? encodePayload(env, p.payload) : undefined;
  if (encoded && encoded.body.length > PAYLOAD_LIMIT)
    env.fail('Limit Exceeded: URLFetch POST Size.');
  const contentType =
    p.contentType !== undefined && p.contentType !== null
      ? String(p.contentType)
      : (headers['content-type'] ?? encoded?.contentType);
  if (contentType !== undefined && (encoded || p.contentType !== undefined))
    headers['content-type'] = contentType;
  headers['user-agent'] ??= USER_AGENT;

  const body = encoded?.body ?? new Uint8Array(0);
  const followRedirects = p.followRedirects !== false;
  return {
    wire: {method: method.toUpperCase(), url: target, headers, body},
    muteHttpExceptions: p.muteHttpExceptions === true,
    followRedirects,
    shown: {
      url: target,
      method,
      headers: userHeaders,
      payload: Buffer.from(body).toString('utf8'),
      contentType: contentType ?? FORM,
      followRedirects,
      validateHttpsCertificates: p.validateHttpsCertificates !== false,
      useIntranet: false,
    },
  };
}
