import { randomBytes } from "node:crypto";
import { ulid } from "ulid";

// One pool of random bytes, refilled 4 KiB at a time: a request id costs no system call
// (ulid's default source asks the platform for every character).
let pool = randomBytes(4096);
let offset = 0;

function prng(): number {
  if (offset + 4 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const value = pool.readUInt32BE(offset);
  offset += 4;
  return value / 0x1_0000_0000;
}

/** A prefixed, sortable identifier: `req_01J…`, `ws_01J…`, `key_01J…`. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid(Date.now(), prng)}`;
}

export { isIdShaped } from "@/lib/kernel/values";
