import {FakeBlob} from './blob';
import {decodeText, encodingByName, signedBytes} from './bytes';
import {Env} from './env';

/** UrlFetchApp's HTTPResponse. Header names come as the wire gave them (lowercase). */
export class FakeHttpResponse {
  constructor(
    private readonly env: Env,
    private readonly status: number,
    private readonly headers: Record<string, string>,
    private readonly body: Uint8Array,
  ) {}

  getResponseCode(): number {
    return this.status;
  }

  /** Decoded with `charset`, else the charset the Content-Type names, else UTF-8. */
  getContentText(charset?: string): string {
    const named =
      charset ??
      /charset=([^;\s]+)/i.exec(this.headers['content-type'] ?? '')?.[1];
    const encoding =
      named === undefined ? 'utf8' : encodingByName(named.replace(/"/g, ''));
    if (!encoding) this.env.fail(`Unsupported charset: ${named}`);
    return decodeText(this.body, encoding);
  }

  getContent(): number[] {
    return signedBytes(this.env.realm, this.body);
  }

  getBlob(): FakeBlob {
    const type = this.headers['content-type']?.split(';')[0].trim() || null;
    return new FakeBlob(this.env, this.body.slice(), type, null);
  }

  getAs(contentType: string): FakeBlob {
    return this.getBlob().getAs(contentType);
  }

  getHeaders(): Record<string, string> {
    return this.env.realm.object({...this.headers});
  }

  getAllHeaders(): Record<string, string> {
    return this.env.realm.object({...this.headers});
  }

  toString(): string {
    return 'HTTPResponse';
  }
}
