import {Realm} from './realm';

/** Text encodings Apps Script accepts by name ('UTF-8') or by Utilities.Charset member. */
export type TextEncoding = 'utf8' | 'ascii' | 'latin1';

const ENCODINGS: Record<string, TextEncoding> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  utf_8: 'utf8',
  'us-ascii': 'ascii',
  us_ascii: 'ascii',
  ascii: 'ascii',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
};

export function encodingByName(name: string): TextEncoding | undefined {
  return ENCODINGS[name.toLowerCase()];
}

export function encodeText(text: string, encoding: TextEncoding): Uint8Array {
  // Java's encoder writes '?' for what a charset cannot hold; node's ascii would keep low bits.
  const safe =
    encoding === 'utf8'
      ? text
      : text.replace(encoding === 'ascii' ? /[^\0-\x7f]/g : /[^\0-\xff]/g, '?');
  return new Uint8Array(Buffer.from(safe, encoding));
}

export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'ascii') {
    return Array.from(bytes, b =>
      b < 0x80 ? String.fromCharCode(b) : '\ufffd',
    ).join('');
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString(
    encoding,
  );
}

/** Java's byte[] as Apps Script hands it out: numbers from -128 to 127, in the add-on's realm. */
export function signedBytes(realm: Realm, bytes: Uint8Array): number[] {
  return realm.array(Array.from(bytes, b => (b > 127 ? b - 256 : b)));
}

/** A byte[] coming from the add-on (signed or not) as raw bytes; undefined if it is not one. */
export function bytesFromArray(value: unknown): Uint8Array | undefined {
  if (!Array.isArray(value)) return undefined;
  const out = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const b: unknown = value[i];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < -128 || b > 255) {
      return undefined;
    }
    out[i] = b & 0xff;
  }
  return out;
}
