import { createHmac, randomBytes } from "node:crypto";

/**
 * The randomness a template draws from. Deterministic from its seed (HMAC-SHA256 in counter
 * mode), so a test that injects a seed gets the same challenge every time; in production the
 * seed is 32 fresh random bytes, so flags and artifacts are unpredictable.
 */
export type Rng = {
  bytes(n: number): Buffer;
  /** An integer in [0, max). */
  int(max: number): number;
  /** An integer in [min, max], both included. */
  between(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
  shuffle<T>(list: readonly T[]): T[];
  /** `n` random bytes as lower-case hex. */
  hex(n: number): string;
};

export function seededRng(seed: string | Buffer): Rng {
  const key = typeof seed === "string" ? Buffer.from(seed, "utf8") : seed;
  let counter = 0;
  let pool = Buffer.alloc(0);
  const bytes = (n: number): Buffer => {
    while (pool.length < n) {
      const block = createHmac("sha256", key).update(String(counter++)).digest();
      pool = Buffer.concat([pool, block]);
    }
    const out = pool.subarray(0, n);
    pool = pool.subarray(n);
    return Buffer.from(out);
  };
  // Rejection sampling: no modulo bias.
  const int = (max: number): number => {
    if (!Number.isInteger(max) || max < 1 || max > 0x1_0000_0000) throw new RangeError(`rng.int: bad bound ${max}`);
    const limit = Math.floor(0x1_0000_0000 / max) * max;
    for (;;) {
      const value = bytes(4).readUInt32BE(0);
      if (value < limit) return value % max;
    }
  };
  const rng: Rng = {
    bytes,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick: (list) => list[int(list.length)],
    shuffle: (list) => {
      const copy = [...list];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy;
    },
    hex: (n) => bytes(n).toString("hex"),
  };
  return rng;
}

/** A fresh, unpredictable generator. */
export function randomRng(): Rng {
  return seededRng(randomBytes(32));
}
