import { deflateRawSync, deflateSync } from "node:zlib";
import type { Rng } from "./rng";

/** Small binary formats built by hand for the file artifacts: CRC-32, PNG (RGB, tEXt chunks) and ZIP. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of `width`×`height`: a sky-to-street picture with random colours (so no two
 * are alike), and `text` as tEXt chunks (keyword, Latin-1 text), as cameras and editors write
 * metadata.
 */
export function png(rng: Rng, width: number, height: number, text: Record<string, string> = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, adaptive filters, no interlace
  const [sky, ground] = [rng.bytes(3), rng.bytes(3)];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0: none
    const base = y < height * 0.6 ? sky : ground;
    for (let x = 0; x < width; x++) {
      const noise = rng.int(24);
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.min(255, base[c] + noise + Math.floor((y * 40) / height));
    }
    rows.push(row);
  }
  const texts = Object.entries(text).map(([keyword, value]) => chunk("tEXt", Buffer.concat([Buffer.from(keyword, "latin1"), Buffer.from([0]), Buffer.from(value, "latin1")])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    ...texts,
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A ZIP archive of one file, stored or deflated, as `zip` would write it (local header, central directory, end record). */
export function zip(name: string, content: Buffer, deflate: boolean): Buffer {
  const data = deflate ? deflateRawSync(content) : content;
  const nameBytes = Buffer.from(name, "utf8");
  const crc = crc32(content);
  const dosTime = (12 << 11) | (0 << 5);
  const dosDate = ((2024 - 1980) << 9) | (3 << 5) | 15;
  // The fields both headers carry, in the same order: flags, method, time, date, CRC, sizes, name length.
  const entry = (header: Buffer, at: number) => {
    header.writeUInt16LE(0, at);
    header.writeUInt16LE(deflate ? 8 : 0, at + 2);
    header.writeUInt16LE(dosTime, at + 4);
    header.writeUInt16LE(dosDate, at + 6);
    header.writeUInt32LE(crc, at + 8);
    header.writeUInt32LE(data.length, at + 12);
    header.writeUInt32LE(content.length, at + 16);
    header.writeUInt16LE(nameBytes.length, at + 20);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  entry(local, 6);
  local.writeUInt16LE(0, 28);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  entry(central, 8);
  central.writeUInt32LE(0, 42); // offset of the local header
  const centralOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}
