import {ApiError, OutcomeUnknownError} from './errors';
import {isObject} from './envelope';

/** What an `already existed` upload answer could be read to name. */
export interface ExistingMaterial {
  /** Absent when no md5 could be read from the answer. */
  creative_md5?: string;
  /** Absent when no name, or more than one, could be read from the answer. */
  creative_name?: string;
  /** The answer's text that says `already existed` (its msg, or a field's text). */
  message: string;
}

const ALREADY_EXISTED = /already exist(?:ed|s)\b/i;
const MD5 = /^[0-9a-f]{32}$/i;
const ANY_MD5 = /\b[0-9a-f]{32}\b/gi;
const MD5_KEY = /^(?:f|file_|creative_)?md5$/i;
const NAME_KEY = /^(?:f|file_|creative_)?name$/i;
const MD5_IN_TEXT =
  /\b(?:f|file_|creative_)?md5["']?\s*[:=]?\s*["']?([0-9a-f]{32})\b/gi;
const NAME_IN_TEXT = /\b(?:f|file_|creative_)?name["']?\s*[:=]\s*/gi;
/** After a comma or semicolon, the next `field:` of a `a: x, b: y` text. */
const NEXT_FIELD = /^\s*[A-Za-z_][\w.]*\s*[:=]/;
/** In a text without commas between fields (`name=x fmd5=y`), the md5 field ends the name. */
const MD5_FIELD = /^\s+(?:f|file_|creative_)?md5\s*[:=]/i;
/** What may follow the closing quote of a quoted value. */
const AFTER_QUOTE = /^\s*(?:[,;)}\]]|$)/;

/**
 * The material an `already existed` upload answer names (API part 1, rule 3), or undefined
 * for any other failure. Where fmd5 and name sit in the body is not shown, so every place a
 * server could put them is read: fields of `data` at any depth, JSON text inside a field,
 * and `fmd5: <md5>, name: <name>` in the msg or in a field's text. md5 is a 32-hex value
 * under a key named fmd5/md5/creative_md5/file_md5 (also as the last part of a dotted key
 * such as `file.fmd5`) or after such a word in a text, else the one 32-hex value of the whole
 * answer. The name is the value of a key named exactly name/fname/creative_name/file_name
 * (not `filename`: that may be the file sent, not the material's name), or what follows
 * `name:`/`name=` in a text, up to that text's next `, field:`, an md5 field, the
 * parenthesis that encloses it, or its end (a quoted value up to the quote that ends it);
 * spaces, dots and commas stay. A key is never read as a value, and a sentence such as
 * "The creative_name has already existed: x" names nothing. Two different candidates are no
 * answer: the caller looks the md5 up instead of guessing.
 */
export function parseAlreadyExisted(
  error: Error,
): ExistingMaterial | undefined {
  const api = answerOf(error);
  if (!api) return undefined;
  const found: Found = {md5s: new Set(), names: new Set(), texts: [api.msg]};
  const data = isObject(api.body) ? api.body.data : api.details;
  walk(data, undefined, found);
  const said = found.texts.find(text => ALREADY_EXISTED.test(text));
  if (said === undefined) return undefined;
  for (const text of found.texts) {
    for (const match of text.matchAll(MD5_IN_TEXT))
      found.md5s.add(low(match[1]));
    for (const name of namesInText(text)) found.names.add(name);
  }
  if (found.md5s.size === 0) {
    for (const text of found.texts) {
      for (const match of text.matchAll(ANY_MD5)) found.md5s.add(low(match[0]));
    }
  }
  const md5 = only(found.md5s);
  const name = only(found.names);
  return {
    message: said,
    ...(md5 ? {creative_md5: md5} : {}),
    ...(name ? {creative_name: name} : {}),
  };
}

/** A 5xx answer to a create is wrapped as unknown, yet its envelope may still say it all. */
function answerOf(error: Error): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof OutcomeUnknownError && error.cause instanceof ApiError) {
    return error.cause;
  }
  return undefined;
}

interface Found {
  md5s: Set<string>;
  names: Set<string>;
  /** Every text of the answer, the msg first, to be searched for `fmd5:` and `name:`. */
  texts: string[];
}

function walk(value: unknown, key: string | undefined, found: Found): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, undefined, found);
    return;
  }
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) walk(v, k, found);
    return;
  }
  // A name may come as a number (a file called 2024.png); no md5 can, so this takes nothing.
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const text = String(value).trim();
  if (text === '') return;
  const nested = jsonIn(text);
  if (nested !== undefined) {
    walk(nested, undefined, found);
    return;
  }
  const lastPart =
    key
      ?.split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? '';
  if (MD5_KEY.test(lastPart) && MD5.test(text)) {
    found.md5s.add(low(text));
  } else if (key && NAME_KEY.test(key) && !ALREADY_EXISTED.test(text)) {
    found.names.add(text);
  } else {
    found.texts.push(text);
  }
}

function jsonIn(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Each value after `name:` or `name=` in `text`. */
function namesInText(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(NAME_IN_TEXT)) {
    const start = match.index! + match[0].length;
    const name = valueAt(text, start, openParens(text.slice(0, match.index)));
    if (name && !ALREADY_EXISTED.test(name)) names.push(name);
  }
  return names;
}

/**
 * The value starting at `start`: a quoted one ends at its quote; a bare one at the next
 * `, field:` or `; field:`, before ` fmd5:`, at the parenthesis closing one that was open before it (when
 * `enclosed`), or at the end of the text.
 */
function valueAt(text: string, start: number, enclosed: boolean): string {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    // A quote inside the name (Bob's banner) is not the end: the end is followed by a separator.
    for (let end = text.indexOf(quote, start + 1); end >= 0;) {
      if (AFTER_QUOTE.test(text.slice(end + 1))) {
        return text.slice(start + 1, end).trim();
      }
      end = text.indexOf(quote, end + 1);
    }
    return '';
  }
  let depth = 0;
  let end = start;
  for (; end < text.length; end++) {
    const c = text[end];
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0 && enclosed) break;
      depth = Math.max(0, depth - 1);
    }
    if ((c === ',' || c === ';') && NEXT_FIELD.test(text.slice(end + 1))) {
      break;
    }
    if (MD5_FIELD.test(text.slice(end))) break;
  }
  return text.slice(start, end).trim();
}

function openParens(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
  }
  return depth > 0;
}

function only(values: Set<string>): string | undefined {
  return values.size === 1 ? [...values][0] : undefined;
}

function low(md5: string): string {
  return md5.toLowerCase();
}
