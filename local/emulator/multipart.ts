/** A small multipart/form-data reader (RFC 7578), enough for the material upload. */

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array;
}

/** The boundary of a multipart/form-data Content-Type, or undefined for any other type. */
export function multipartBoundary(contentType: string): string | undefined {
  const [type, ...rest] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  return headerParams(rest.join(';')).boundary || undefined;
}

/** The parts of a body, or undefined when the body does not follow the boundary framing. */
export function parseMultipart(
  body: Uint8Array,
  boundary: string,
): FormPart[] | undefined {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  let cursor = bytes.indexOf(delimiter);
  if (cursor < 0) return undefined;
  cursor += delimiter.length;
  const parts: FormPart[] = [];
  for (;;) {
    if (bytes.subarray(cursor, cursor + 2).toString() === '--') return parts;
    if (bytes.subarray(cursor, cursor + 2).toString() !== '\r\n')
      return undefined;
    const headerEnd = bytes.indexOf('\r\n\r\n', cursor + 2);
    if (headerEnd < 0) return undefined;
    const dataEnd = bytes.indexOf(nextDelimiter, headerEnd + 2);
    if (dataEnd < 0) return undefined;
    const part = partOf(
      bytes.subarray(cursor + 2, headerEnd).toString('utf8'),
      bytes.subarray(headerEnd + 4, dataEnd),
    );
    if (!part) return undefined;
    parts.push(part);
    cursor = dataEnd + nextDelimiter.length;
  }
}

function partOf(headerText: string, data: Uint8Array): FormPart | undefined {
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers.set(
        line.slice(0, colon).trim().toLowerCase(),
        line.slice(colon + 1).trim(),
      );
    }
  }
  const disposition = headers.get('content-disposition') ?? '';
  const [kind, ...rest] = disposition.split(';');
  if (kind.trim().toLowerCase() !== 'form-data') return undefined;
  const params = headerParams(rest.join(';'));
  if (params.name === undefined) return undefined;
  return {
    name: params.name,
    filename: params.filename,
    contentType: headers.get('content-type'),
    data,
  };
}

/** `a=1; b="x;y"` -> {a: '1', b: 'x;y'}; keys lowercased. */
function headerParams(text: string): Record<string, string | undefined> {
  const params: Record<string, string> = {};
  const pattern = /\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)\s*;?/g;
  for (const [, key, raw] of text.matchAll(pattern)) {
    params[key.toLowerCase()] = raw.startsWith('"')
      ? raw.slice(1, -1).replace(/\\(.)/g, '$1')
      : raw.trim();
  }
  return params;
}
