import type { Rng } from "./rng";

/** Integer arithmetic for the RSA template: modular power and primes drawn from a Rng. */

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

export const bytesToBigInt = (bytes: Buffer): bigint => (bytes.length ? BigInt(`0x${bytes.toString("hex")}`) : 0n);

const SMALL_PRIMES = [3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n, 43n, 47n, 53n, 59n, 61n, 67n, 71n, 73n, 79n, 83n, 89n, 97n];

/** Miller–Rabin with 24 bases from the Rng: a composite passes with probability below 4^-24. */
function isProbablePrime(n: bigint, rng: Rng): boolean {
  for (const p of SMALL_PRIMES) if (n % p === 0n) return n === p;
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  witness: for (let round = 0; round < 24; round++) {
    const a = 2n + (bytesToBigInt(rng.bytes(8)) % (n - 4n));
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    for (let i = 1; i < s; i++) {
      x = (x * x) % n;
      if (x === n - 1n) continue witness;
    }
    return false;
  }
  return true;
}

/** A prime of exactly `bits` bits with p ≡ 2 (mod 3), so that e = 3 is a valid RSA exponent. */
export function primeForE3(bits: number, rng: Rng): bigint {
  for (;;) {
    const bytes = rng.bytes(bits / 8);
    bytes[0] |= 0xc0; // top two bits: the product of two such primes has exactly 2·bits bits
    bytes[bytes.length - 1] |= 1;
    let candidate = bytesToBigInt(bytes);
    while (candidate % 3n !== 2n) candidate += 2n;
    if (isProbablePrime(candidate, rng)) return candidate;
  }
}
