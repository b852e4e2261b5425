import {createHash, createHmac, randomUUID} from 'node:crypto';
import {types} from 'node:util';
import {FakeBlob, toBytes} from './blob';
import {bytesFromArray, encodeText, signedBytes, TextEncoding} from './bytes';
import {makeEnum, enumName, EnumValue} from './enums';
import {Env} from './env';
import {formatJavaDate} from './java-date-format';
import {isTimeZone} from './time-zone';

export const Charset = makeEnum(['US_ASCII', 'UTF_8'] as const);
export const DigestAlgorithm = makeEnum([
  'MD2',
  'MD5',
  'SHA_1',
  'SHA_256',
  'SHA_384',
  'SHA_512',
] as const);
export const MacAlgorithm = makeEnum([
  'HMAC_MD5',
  'HMAC_SHA_1',
  'HMAC_SHA_256',
  'HMAC_SHA_384',
  'HMAC_SHA_512',
] as const);

const NODE_DIGEST: Record<string, string | undefined> = {
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
};

/** Apps Script caps one sleep at five minutes. */
const MAX_SLEEP_MS = 300000;

/** The Utilities service. Digests and encodings hand out signed bytes, as Java does. */
export class FakeUtilities {
  readonly Charset = Charset;
  readonly DigestAlgorithm = DigestAlgorithm;
  readonly MacAlgorithm = MacAlgorithm;

  constructor(private readonly env: Env) {}

  computeDigest(
    algorithm: EnumValue,
    value: unknown,
    charset?: EnumValue,
  ): number[] {
    this.env.call('Utilities', 'Utilities.computeDigest');
    const name = enumName(DigestAlgorithm, algorithm);
    const node = name && NODE_DIGEST[name];
    if (!node) this.env.fail('Invalid argument: algorithm');
    const hash = createHash(node).update(
      this.input(value, charset, 'computeDigest'),
    );
    return signedBytes(this.env.realm, new Uint8Array(hash.digest()));
  }

  computeHmacSignature(
    algorithm: EnumValue,
    value: unknown,
    key: unknown,
    charset?: EnumValue,
  ): number[] {
    this.env.call('Utilities', 'Utilities.computeHmacSignature');
    const name = enumName(MacAlgorithm, algorithm);
    if (!name) this.env.fail('Invalid argument: algorithm');
    return this.hmac(NODE_DIGEST[name.slice(5)]!, value, key, charset);
  }

  computeHmacSha256Signature(
    value: unknown,
    key: unknown,
    charset?: EnumValue,
  ): number[] {
    this.env.call('Utilities', 'Utilities.computeHmacSha256Signature');
    return this.hmac('sha256', value, key, charset);
  }

  base64Encode(data: unknown, charset?: EnumValue): string {
    this.env.call('Utilities', 'Utilities.base64Encode');
    return Buffer.from(this.input(data, charset, 'base64Encode')).toString(
      'base64',
    );
  }

  base64EncodeWebSafe(data: unknown, charset?: EnumValue): string {
    this.env.call('Utilities', 'Utilities.base64EncodeWebSafe');
    return Buffer.from(this.input(data, charset, 'base64EncodeWebSafe'))
      .toString('base64')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  }

  base64Decode(encoded: string): number[] {
    this.env.call('Utilities', 'Utilities.base64Decode');
    return this.decode64(encoded, /^[A-Za-z0-9+/]*={0,2}$/);
  }

  base64DecodeWebSafe(encoded: string): number[] {
    this.env.call('Utilities', 'Utilities.base64DecodeWebSafe');
    return this.decode64(encoded, /^[A-Za-z0-9_-]*={0,2}$/);
  }

  newBlob(data: unknown, contentType?: string, name?: string): FakeBlob {
    this.env.call('Utilities', 'Utilities.newBlob');
    return new FakeBlob(
      this.env,
      toBytes(this.env, data, 'Utilities.newBlob'),
      contentType ?? null,
      name ?? null,
    );
  }

  formatDate(date: unknown, timeZone: string, format: string): string {
    this.env.call('Utilities', 'Utilities.formatDate');
    if (!types.isDate(date) || arguments.length < 3) {
      this.env.fail(
        "The parameters don't match the method signature for Utilities.formatDate.",
      );
    }
    // Java's TimeZone.getTimeZone falls back to GMT for names it does not know.
    const zone = isTimeZone(String(timeZone)) ? String(timeZone) : 'UTC';
    try {
      return formatJavaDate((date as Date).getTime(), zone, String(format));
    } catch (e) {
      return this.env.fail(`Invalid argument: ${(e as Error).message}`);
    }
  }

  getUuid(): string {
    this.env.call('Utilities', 'Utilities.getUuid');
    return randomUUID();
  }

  /** Sleeps on the virtual clock: no real waiting. */
  sleep(milliseconds: number): void {
    this.env.call('Utilities', 'Utilities.sleep');
    if (
      typeof milliseconds !== 'number' ||
      !(milliseconds >= 0) ||
      milliseconds > MAX_SLEEP_MS
    ) {
      this.env.fail('Invalid argument: milliseconds');
    }
    this.env.clock.advance(milliseconds);
  }

  jsonStringify(value: unknown): string {
    this.env.call('Utilities', 'Utilities.jsonStringify');
    return JSON.stringify(value);
  }

  jsonParse(text: string): unknown {
    this.env.call('Utilities', 'Utilities.jsonParse');
    return (
      this.env.realm.run('JSON.parse', 'utilities') as (t: string) => unknown
    )(text);
  }

  private hmac(
    algorithm: string,
    value: unknown,
    key: unknown,
    charset?: EnumValue,
  ): number[] {
    const mac = createHmac(
      algorithm,
      this.input(key, charset, 'computeHmacSignature'),
    ).update(this.input(value, charset, 'computeHmacSignature'));
    return signedBytes(this.env.realm, new Uint8Array(mac.digest()));
  }

  private decode64(encoded: string, alphabet: RegExp): number[] {
    const text = String(encoded).replace(/\s/g, '');
    if (!alphabet.test(text)) this.env.fail('Could not decode string.');
    const standard = text.replace(/-/g, '+').replace(/_/g, '/');
    return signedBytes(
      this.env.realm,
      new Uint8Array(Buffer.from(standard, 'base64')),
    );
  }

  /** A string (in `charset`, UTF-8 by default) or a byte[]. */
  private input(
    value: unknown,
    charset: EnumValue | undefined,
    method: string,
  ): Uint8Array {
    if (typeof value === 'string')
      return encodeText(value, this.encoding(charset));
    return (
      bytesFromArray(value) ??
      this.env.fail(
        `The parameters don't match the method signature for Utilities.${method}.`,
      )
    );
  }

  private encoding(charset: EnumValue | undefined): TextEncoding {
    if (charset === undefined) return 'utf8';
    const name = enumName(Charset, charset);
    if (!name) this.env.fail('Invalid argument: charset');
    return name === 'UTF_8' ? 'utf8' : 'ascii';
  }
}
