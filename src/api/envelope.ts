import {ApiError, FieldDetails} from './errors';
import type {HttpResponse} from '../platform/ports';

/** Which envelope field carries the text: the creative-ad list names it `message` (2.1). */
export type MessageField = 'msg' | 'message';

const SNIPPET = 200;

/**
 * Opens the response envelope of 2.1: code 200 gives `data`; any other code, also under
 * HTTP 200, and any answer that is not an envelope at all, is an ApiError.
 */
export function openEnvelope(
  operation: string,
  response: HttpResponse,
  messageField: MessageField,
): unknown {
  const body = jsonOrUndefined(response.text);
  if (!isObject(body) || !('code' in body)) {
    throw new ApiError(
      operation,
      response.status,
      null,
      notAnEnvelope(response.text),
      {},
    );
  }
  const code = Number(body.code);
  if (code === 200 && response.status < 400) return body.data;
  const msg = asText(body[messageField] ?? body.msg ?? body.message);
  throw new ApiError(
    operation,
    response.status,
    Number.isFinite(code) ? code : null,
    msg,
    fieldDetails(body.data),
    body,
  );
}

/**
 * What a person can read of an answer that is not the API's: a gateway's or proxy's HTML
 * page by its title (else its text, tags left out), so a cell says "502 Bad Gateway", not
 * markup; any other text as it came, white space folded.
 */
function notAnEnvelope(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'empty answer';
  if (!/^<(?:!doctype|html|head|body|title|h\d|p|div)\b/i.test(flat)) {
    return `unexpected answer: ${flat.slice(0, SNIPPET)}`;
  }
  const title = /<title[^>]*>(.*?)<\/title>/i.exec(flat)?.[1];
  const words = (
    title ??
    flat
      .replace(/<(script|style)\b[^>]*>.*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
  )
    .replace(/\s+/g, ' ')
    .trim();
  return `unexpected answer, an HTML page${words ? `: ${words.slice(0, SNIPPET)}` : ''}`;
}

/** A validation error's data maps field names to texts (part 7); other shapes are shown whole. */
export function fieldDetails(data: unknown): FieldDetails {
  if (data === null || data === undefined || data === '') return {};
  if (Array.isArray(data)) {
    return data.length ? {data: data.map(asText).join(', ')} : {};
  }
  if (!isObject(data)) return {data: asText(data)};
  const details: FieldDetails = {};
  for (const [field, value] of Object.entries(data)) {
    const text = Array.isArray(value)
      ? value.map(asText).join(', ')
      : asText(value);
    if (text !== '') details[field] = text;
  }
  return details;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
