import { bytesToBigInt, modPow, primeForE3 } from "@/lib/ctf/templates/kit/bigint";
import { defineTemplate, textFile } from "@/lib/ctf/templates/kit/types";

/**
 * Tiny Exponent (crypto): textbook RSA with e = 3 and no padding. easy/medium: one 1024-bit
 * modulus, m³ < n, so c is m³ itself and its integer cube root is the flag; hard/insane: the
 * same message to three recipients with 512-bit moduli (Håstad's broadcast): the Chinese
 * remainder theorem gives m³, then the cube root.
 */
export const tinyExponent = defineTemplate({
  key: "tiny-exponent",
  build({ flag, difficulty, rng }) {
    const m = bytesToBigInt(Buffer.from(flag, "utf8"));
    const format = (value: bigint) => (difficulty === "medium" || difficulty === "insane" ? `0x${value.toString(16)}` : value.toString());
    const broadcast = difficulty === "hard" || difficulty === "insane";
    const recipients = broadcast ? 3 : 1;
    const lines = ["e = 3", ""];
    for (let i = 1; i <= recipients; i++) {
      const n = primeForE3(broadcast ? 256 : 512, rng) * primeForE3(broadcast ? 256 : 512, rng);
      const suffix = broadcast ? `${i}` : "";
      lines.push(`n${suffix} = ${format(n)}`, `c${suffix} = ${format(modPow(m, 3n, n))}`, "");
    }
    return {
      description: broadcast
        ? "The same short message went out with RSA, e = 3 and no padding, to three recipients (rsa.txt)."
        : "RSA with e = 3 and a short message, and no padding was used (rsa.txt).",
      hints: [broadcast ? "Three moduli, one message: the Chinese remainder theorem." : "m³ may be smaller than n.", "An integer cube root needs big integers (Python, or JavaScript's BigInt)."],
      solution: broadcast
        ? ["Combine c1, c2, c3 with the Chinese remainder theorem: the result is m³ exactly (m³ < n1·n2·n3).", "Take its integer cube root: m.", "Write m as bytes (big-endian): the flag."]
        : ["m³ is smaller than n, so the modular reduction never happened: c = m³.", "Take the integer cube root of c: m.", "Write m as bytes (big-endian): the flag."],
      file: textFile("rsa.txt", lines.join("\n")),
    };
  },
});
