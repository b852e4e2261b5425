import {createHash} from 'node:crypto';

/** Lowercase hex md5: the form of tokens, material md5s and derived keys. */
export function md5Hex(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}
