/**
 * Pixel size of an uploaded image, read from its header. The campaign icon rule (512x512) needs
 * a material's real resolution, so it comes from the bytes, not from what the client claims.
 */

export interface Dimensions {
  width: number;
  height: number;
}

export function imageDimensions(data: Uint8Array): Dimensions | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < 26) return undefined;
  if (bytes.readUInt32BE(0) === 0x89504e47) {
    return {width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20)};
  }
  if (bytes.toString('latin1', 0, 4) === 'GIF8') {
    return {width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8)};
  }
  if (bytes.toString('latin1', 0, 2) === 'BM') {
    return {
      width: Math.abs(bytes.readInt32LE(18)),
      height: Math.abs(bytes.readInt32LE(22)),
    };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegDimensions(bytes);
  return undefined;
}

/** Walks the JPEG segments up to the first start-of-frame marker. */
function jpegDimensions(bytes: Buffer): Dimensions | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    const isStartOfFrame =
      marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isStartOfFrame) {
      return {
        height: bytes.readUInt16BE(offset + 5),
        width: bytes.readUInt16BE(offset + 7),
      };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}
