/**
 * Hex from digest bytes. Apps Script's Utilities.computeDigest answers signed bytes
 * (-128..127), so a byte must be masked before it is printed.
 */
export function bytesToHex(bytes: readonly number[]): string {
  let hex = '';
  for (const b of bytes) hex += (b & 0xff).toString(16).padStart(2, '0');
  return hex;
}
