/**
 * Reading a request's parameters: the query string, and the body as JSON or multipart. GET
 * parameters may come either way (4, General); where both name a field the body wins.
 */
import {isPlainObject, type Params} from './checks';
import {validationError} from './envelope';
import {multipartBoundary, parseMultipart, type FormPart} from './multipart';

export type Query = Record<string, string | string[]>;

/** Repeated keys become arrays; a PHP-style `ad_ids[]` key counts as `ad_ids`. */
export function readQuery(url: URL): Query {
  const query: Query = {};
  for (const [rawKey, value] of url.searchParams) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const previous = query[key];
    query[key] =
      previous === undefined
        ? rawKey.endsWith('[]')
          ? [value]
          : value
        : [...[previous].flat(), value];
  }
  return query;
}

export interface RequestBody {
  params: Params;
  form: FormPart[];
  /** What the request log shows: the parsed JSON, or the form without file bytes. */
  recorded: unknown;
  /** Why the body could not be read; reported after authentication. */
  error?: ReturnType<typeof validationError>;
}

export function readBody(
  headers: Record<string, string>,
  body: Uint8Array,
  multipart: boolean,
): RequestBody {
  const contentType = headers['content-type'] ?? '';
  return multipart ? readForm(contentType, body) : readJson(contentType, body);
}

function readJson(contentType: string, body: Uint8Array): RequestBody {
  if (body.length === 0) return {params: {}, form: [], recorded: null};
  const text = new TextDecoder().decode(body);
  const failed = (field: string, reason: string): RequestBody => ({
    params: {},
    form: [],
    recorded: text,
    error: validationError({[field]: reason}),
  });
  if (!/^application\/json\b/i.test(contentType.trim())) {
    return failed(
      'content-type',
      'A request body must be sent as Content-Type application/json.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return failed('body', 'The request body is not valid JSON.');
  }
  if (!isPlainObject(parsed)) {
    return failed('body', 'The request body must be a JSON object.');
  }
  return {params: parsed, form: [], recorded: parsed};
}

/** Text fields become parameters; files stay parts, logged by name, type, size and md5. */
function readForm(contentType: string, body: Uint8Array): RequestBody {
  const boundary = multipartBoundary(contentType);
  const form = boundary ? parseMultipart(body, boundary) : undefined;
  if (!form) {
    return {
      params: {},
      form: [],
      recorded: null,
      error: validationError({file: 'The file field is required.'}),
    };
  }
  const params: Params = {};
  const recorded: Record<string, unknown> = {};
  for (const part of form) {
    if (part.filename === undefined) {
      params[part.name] = new TextDecoder().decode(part.data);
      recorded[part.name] = params[part.name];
    } else {
      recorded[part.name] = {
        filename: part.filename,
        contentType: part.contentType ?? null,
        bytes: part.data.length,
      };
    }
  }
  return {params, form, recorded};
}
