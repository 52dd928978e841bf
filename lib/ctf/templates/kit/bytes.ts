/** Every byte XORed with one key (a new Buffer). */
export const xorByte = (bytes: Buffer, key: number): Buffer => Buffer.from(bytes.map((byte) => byte ^ key));
