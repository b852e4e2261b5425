/** Shared test plumbing: a controllable clock, signed in-process calls, upload bodies. */
import {
  createEmulator,
  DEMO_ACCOUNTS,
  type Emulator,
  type EmulatorOptions,
} from '../../local/emulator';
import type {WireOutcome} from '../../local/http-types';

/** 2026-01-01T00:00:00Z; tests move it by hand. */
export const T0_MS = 1767225600000;

export const MAIN: string = DEMO_ACCOUNTS.main.name;
export const SUB_A: string = DEMO_ACCOUNTS.subA.name;
export const SUB_B: string = DEMO_ACCOUNTS.subB.name;
export const OTHER: string = DEMO_ACCOUNTS.other.name;

export interface TestClock {
  ms: number;
}

export function setup(options: EmulatorOptions = {}) {
  const clock: TestClock = {ms: T0_MS};
  const emulator = createEmulator({now: () => clock.ms, ...options});
  return {emulator, clock};
}

export interface CallOptions {
  /** Query parameters; arrays repeat the key. */
  query?: Record<string, string | number | (string | number)[]>;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as is, with `contentType`. */
  body?: Uint8Array;
  contentType?: string;
  /** Signing account (default demo_adv); null sends no auth headers. */
  as?: string | null;
  /** Replace or add headers after signing. */
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

export function exchange(
  emulator: Emulator,
  method: string,
  path: string,
  options: CallOptions = {},
): WireOutcome {
  const url = new URL(path, 'http://emulator.test');
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const item of [value].flat())
      url.searchParams.append(key, String(item));
  }
  const as = options.as === undefined ? MAIN : options.as;
  const headers: Record<string, string> = as ? emulator.signedHeaders(as) : {};
  let body = options.body ?? new Uint8Array();
  if (options.json !== undefined) {
    body = new TextEncoder().encode(JSON.stringify(options.json));
    headers['content-type'] = 'application/json';
  }
  if (options.contentType) headers['content-type'] = options.contentType;
  Object.assign(headers, options.headers);
  return emulator.handle({method, url: url.href, headers, body});
}

export function call(
  emulator: Emulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Reply {
  const outcome = exchange(emulator, method, path, options);
  if (outcome.kind !== 'response') throw new Error('connection dropped');
  const text = new TextDecoder().decode(outcome.body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {status: outcome.status, headers: outcome.headers, json, text};
}

export const api = (name: string) => `/api/open/v3/${name}`;

export interface FilePart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array | string;
}

/** A multipart/form-data body as a browser or UrlFetchApp would send it. */
export function multipart(parts: FilePart[]): {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
} {
  const boundary = '----emulatorTestBoundary7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename =
      part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType
      ? `\r\nContent-Type: ${part.contentType}`
      : '';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: new Uint8Array(Buffer.concat(chunks)),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The start of a PNG (signature and IHDR): enough for a size; `salt` varies the md5. */
export function png(width: number, height: number, salt = ''): Uint8Array {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.writeUInt8(8, 24);
  header.writeUInt8(6, 25);
  return new Uint8Array(Buffer.concat([header, Buffer.from(salt)]));
}

export function upload(
  emulator: Emulator,
  file: FilePart,
  as: string = MAIN,
): Reply {
  const {body, contentType} = multipart([file]);
  return call(emulator, 'POST', api('creatives/upload'), {
    body,
    contentType,
    as,
  });
}
