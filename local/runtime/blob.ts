import {
  bytesFromArray,
  decodeText,
  encodeText,
  encodingByName,
  signedBytes,
} from './bytes';
import {Env} from './env';

/** Utilities.newBlob, DriveApp files and HTTP responses all hand out this Blob. */
export class FakeBlob {
  constructor(
    private readonly env: Env,
    private bytes: Uint8Array,
    private contentType: string | null,
    private name: string | null,
  ) {}

  /** The raw bytes, for the runtime's own use (multipart bodies, tests). */
  data(): Uint8Array {
    return this.bytes;
  }

  getBytes(): number[] {
    return signedBytes(this.env.realm, this.bytes);
  }

  setBytes(data: unknown): FakeBlob {
    this.bytes = toBytes(this.env, data, 'Blob.setBytes');
    return this;
  }

  getDataAsString(charset?: string): string {
    return decodeText(this.bytes, charsetArg(this.env, charset));
  }

  setDataFromString(text: string, charset?: string): FakeBlob {
    this.bytes = encodeText(String(text), charsetArg(this.env, charset));
    return this;
  }

  getContentType(): string | null {
    return this.contentType;
  }

  setContentType(contentType: string | null): FakeBlob {
    this.contentType = contentType;
    return this;
  }

  getName(): string | null {
    return this.name;
  }

  setName(name: string): FakeBlob {
    this.name = name;
    return this;
  }

  copyBlob(): FakeBlob {
    return new FakeBlob(
      this.env,
      this.bytes.slice(),
      this.contentType,
      this.name,
    );
  }

  /** Only a same-type conversion is possible without Google's converters. */
  getAs(contentType: string): FakeBlob {
    if (contentType !== this.contentType) {
      this.env.fail(
        `Converting from ${this.contentType} to ${contentType} is not supported.`,
      );
    }
    return this.copyBlob();
  }

  getBlob(): FakeBlob {
    return this;
  }

  isGoogleType(): boolean {
    return false;
  }

  toString(): string {
    return 'Blob';
  }
}

function charsetArg(env: Env, charset: string | undefined) {
  if (charset === undefined) return 'utf8';
  return (
    encodingByName(String(charset)) ?? env.fail('Invalid argument: charset')
  );
}

/** Blob data given as a string (UTF-8) or a byte[]. */
export function toBytes(env: Env, data: unknown, method: string): Uint8Array {
  if (typeof data === 'string') return encodeText(data, 'utf8');
  return (
    bytesFromArray(data) ??
    env.fail(
      `The parameters (${typeof data}) don't match the method signature for ${method}.`,
    )
  );
}
