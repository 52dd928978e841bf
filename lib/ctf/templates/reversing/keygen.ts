import { defineTemplate, textFile } from "@/lib/ctf/templates/kit/types";

/**
 * Keygen (reverse engineering): a license checker (Python source) transforms the key with a
 * few arithmetic steps and compares the result with a constant list. Every step can be
 * inverted: run them backwards over the list and the only valid key — the flag — appears.
 * easy: XOR with one byte; medium: XOR then add the position; hard: affine modulo 257;
 * insane: characters read in a shuffled order, each XORed with the previous output, then
 * multiplied modulo 257.
 */
const P = 257;

function transform(key: string, difficulty: string, k: { x: number; a: number; b: number; seed: number; perm: number[] }): number[] {
  const codes = [...key].map((char) => char.charCodeAt(0));
  switch (difficulty) {
    case "easy":
      return codes.map((c) => c ^ k.x);
    case "medium":
      return codes.map((c, i) => ((c ^ k.x) + i) % 256);
    case "hard":
      return codes.map((c) => (c * k.a + k.b) % P);
    default: {
      const out: number[] = [];
      let prev = k.seed;
      for (let i = 0; i < codes.length; i++) {
        const v = ((codes[k.perm[i]] ^ prev) * k.a) % P;
        out.push(v);
        prev = v & 0xff;
      }
      return out;
    }
  }
}

const checkers: Record<string, string> = {
  easy: `def transform(key):
    return [ord(c) ^ K for c in key]`,
  medium: `def transform(key):
    return [((ord(c) ^ K) + i) % 256 for i, c in enumerate(key)]`,
  hard: `def transform(key):
    return [(ord(c) * A + B) % 257 for c in key]`,
  insane: `def transform(key):
    out, prev = [], SEED
    for i in range(len(key)):
        v = ((ord(key[PERM[i]]) ^ prev) * A) % 257
        out.append(v)
        prev = v & 0xFF
    return out`,
};

export const keygen = defineTemplate({
  key: "keygen",
  build({ flag, difficulty, rng }) {
    const k = { x: rng.between(1, 255), a: rng.between(2, 256), b: rng.between(1, 256), seed: rng.between(1, 255), perm: rng.shuffle(Array.from({ length: flag.length }, (_, i) => i)) };
    const expected = transform(flag, difficulty, k);
    const constants = {
      easy: [`K = ${k.x}`],
      medium: [`K = ${k.x}`],
      hard: [`A = ${k.a}`, `B = ${k.b}`],
      insane: [`A = ${k.a}`, `SEED = ${k.seed}`, `PERM = [${k.perm.join(", ")}]`],
    }[difficulty];
    const program = `#!/usr/bin/env python3
"""ACME Suite license checker. Usage: check_key.py <key>"""
import sys

${constants.join("\n")}
EXPECTED = [${expected.join(", ")}]

${checkers[difficulty]}

def check(key):
    return len(key) == len(EXPECTED) and transform(key) == EXPECTED

if __name__ == "__main__":
    print("Valid license." if check(sys.argv[1]) else "Invalid license.")
`;
    const how = {
      easy: `XOR every number of EXPECTED with K = ${k.x}.`,
      medium: `For each position i: subtract i (mod 256), then XOR with K = ${k.x}.`,
      hard: `Each value is (c·A + B) mod 257: c = (v − B) · A⁻¹ mod 257, with A⁻¹ the inverse of ${k.a} modulo 257 (pow(A, -1, 257)).`,
      insane: `Walk EXPECTED in order: c = (v · A⁻¹ mod 257) XOR prev, with prev starting at SEED and becoming v & 0xFF; the i-th c is the key's character at PERM[i].`,
    }[difficulty];
    return {
      description: "A license checker (check_key.py) validates keys with a few arithmetic steps. Only one key passes: write it.",
      hints: ["Start from the comparison at the end and go backwards.", "Every step here has an inverse."],
      solution: ["Read check_key.py: the key's characters are transformed and compared with EXPECTED.", how, "The characters, in order, are the flag."],
      file: textFile("check_key.py", program),
    };
  },
});
