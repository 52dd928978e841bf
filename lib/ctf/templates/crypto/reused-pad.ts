import { defineTemplate, textFile } from "@/lib/ctf/templates/kit/types";

/**
 * Reused Pad (crypto): two messages XORed with the same one-time pad, and the first one is
 * public. The pad is the first ciphertext XOR the known text; the second message follows.
 * easy: hex; medium: base64; hard: the second message used the pad from an unknown offset
 * (try each); insane: as hard, in base64, with a third, decoy message.
 */
const bulletins = [
  "GOOD MORNING TEAM. THE CANTEEN IS CLOSED ON FRIDAY FOR CLEANING. PLEASE BRING YOUR OWN LUNCH AND REMEMBER THAT THE FIRE DRILL STARTS AT TEN SHARP.",
  "NOTICE TO ALL STAFF: THE PARKING GARAGE WILL BE REPAINTED NEXT WEEK. USE THE NORTH ENTRANCE AND DO NOT LEAVE BICYCLES IN THE STAIRWELL, THANK YOU.",
  "WEEKLY BULLETIN: THE COFFEE MACHINE ON THE THIRD FLOOR IS FIXED AT LAST. THE QUARTERLY MEETING MOVES TO THURSDAY AFTERNOON IN THE LARGE HALL.",
];

const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((byte, index) => byte ^ b[index]));

export const reusedPad = defineTemplate({
  key: "reused-pad",
  build({ flag, difficulty, rng }) {
    const known = Buffer.from(rng.pick(bulletins));
    const secret = Buffer.from(`Agent, the vault opens with ${flag} tonight.`);
    const pad = rng.bytes(known.length);
    const shifted = difficulty === "hard" || difficulty === "insane";
    const offset = shifted ? rng.between(3, known.length - secret.length - 3) : 0;
    const encode = (bytes: Buffer) => (difficulty === "medium" || difficulty === "insane" ? bytes.toString("base64") : bytes.toString("hex"));
    const lines = [
      "Intercepted on the embassy's line. Both messages used the same one-time pad.",
      `Message 1 is the public bulletin everyone received: "${known.toString("utf8")}"`,
      "",
      `c1 = ${encode(xor(known, pad))}`,
      `c2 = ${encode(xor(secret, pad.subarray(offset)))}`,
    ];
    if (difficulty === "insane") lines.push(`c3 = ${encode(xor(Buffer.from(rng.pick(bulletins).slice(0, 40)), pad.subarray(rng.between(0, 20))))}`);
    if (shifted) lines.push("", "(The second message did not start at the beginning of the pad.)");
    return {
      description: "Two messages were encrypted with the same one-time pad, and one of them is no secret (intercepted.txt).",
      hints: ["XOR the known message with its ciphertext: that is the pad.", "A one-time pad used twice is a two-time pad."],
      solution: [
        `Decode the ciphertexts (${difficulty === "medium" || difficulty === "insane" ? "base64" : "hex"}).`,
        "pad = c1 XOR the bulletin's text.",
        shifted ? `c2 XOR the pad starting at offset ${offset} reads in clear (try each offset until it does).` : "c2 XOR the pad reads in clear: it holds the flag.",
      ],
      file: textFile("intercepted.txt", `${lines.join("\n")}\n`),
    };
  },
});
