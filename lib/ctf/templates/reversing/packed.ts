import { xorByte } from "@/lib/ctf/templates/kit/bytes";
import type { Rng } from "@/lib/ctf/templates/kit/rng";
import { defineTemplate, textFile } from "@/lib/ctf/templates/kit/types";

/**
 * Packed (reverse engineering): a JavaScript checker wrapped in layers that each unpack the
 * next at run time with eval — base64, character codes, hex XOR, reversed text. Peel them
 * (without running the file) to reach the check and its flag. easy: 1 layer; medium: 2;
 * hard: 4; insane: 6, and the innermost check compares character codes.
 */
type Layer = "base64" | "charcodes" | "xor" | "reverse";

function wrap(code: string, layer: Layer, rng: Rng): string {
  switch (layer) {
    case "base64":
      return `eval(atob("${Buffer.from(code, "utf8").toString("base64")}"));`;
    case "charcodes":
      return `eval(String.fromCharCode(${[...code].map((char) => char.charCodeAt(0)).join(",")}));`;
    case "xor": {
      const key = rng.between(1, 255);
      const hex = xorByte(Buffer.from(code, "utf8"), key).toString("hex");
      return `eval(((h, k) => new TextDecoder().decode(Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16) ^ k)))("${hex}", ${key}));`;
    }
    case "reverse":
      return `eval(${JSON.stringify([...code].reverse().join(""))}.split("").reverse().join(""));`;
  }
}

export const packed = defineTemplate({
  key: "packed",
  build({ flag, difficulty, rng }) {
    const inner =
      difficulty === "insane"
        ? `const answer = prompt("License key?");\nconst codes = [${[...flag].map((char) => char.charCodeAt(0)).join(", ")}];\nconsole.log(answer === String.fromCharCode(...codes) ? "Correct!" : "Nope.");\n`
        : `const answer = prompt("License key?");\nconsole.log(answer === "${flag}" ? "Correct!" : "Nope.");\n`;
    const count = { easy: 1, medium: 2, hard: 4, insane: 6 }[difficulty];
    // Character codes triple the size: at most one such layer keeps the file small.
    const pool: Layer[] = ["charcodes", "xor", "reverse", "base64", "xor", "reverse"];
    const layers: Layer[] = ["base64", ...rng.shuffle(pool).slice(0, count - 1)];
    let code = inner;
    for (const layer of layers) code = wrap(code, layer, rng);
    return {
      description: "The checker (packed.js) unpacks itself at run time; the key is checked afterwards. Unpack it without running it blind.",
      hints: ["Replace eval with console.log: each layer prints the next.", "Layers: base64, character codes, XOR with one byte, reversed text."],
      solution: [
        `packed.js is ${count} layer${count === 1 ? "" : "s"} of \`eval(…)\`: ${[...layers].reverse().join(" → ")} (outermost first).`,
        "Decode each layer's argument instead of evaluating it (or swap eval for console.log) until plain code remains.",
        difficulty === "insane" ? "The check compares with a list of character codes: turn them into text." : "The check compares the input with the flag in clear.",
      ],
      file: textFile("packed.js", `// ACME license check — packed build\n${code}\n`),
    };
  },
});
