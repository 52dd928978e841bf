import { png, zip } from "@/lib/ctf/templates/kit/png";
import { defineTemplate } from "@/lib/ctf/templates/kit/types";

/**
 * Layers (forensics): a valid PNG with something appended after its IEND chunk, which image
 * viewers ignore. easy: the flag as text; medium: base64; hard: a ZIP archive (stored);
 * insane: a ZIP archive, deflated, the file in a folder.
 */
export const layers = defineTemplate({
  key: "layers",
  build({ flag, difficulty, rng }) {
    const image = png(rng, 64, 48, { Software: "GIMP 2.10", Comment: "Nothing to see here." });
    const note = Buffer.from(`note to self: ${flag}\n`);
    const trailer = {
      easy: note,
      medium: Buffer.from(`${note.toString("base64")}\n`),
      hard: zip("secret.txt", note, false),
      insane: zip("backup/notes/secret.txt", note, true),
    }[difficulty];
    const how = {
      easy: "The bytes after IEND are text: the flag.",
      medium: "The bytes after IEND are base64: decode them.",
      hard: "The bytes after IEND are a ZIP archive (PK\\x03\\x04): `binwalk -e` or `unzip` extracts secret.txt.",
      insane: "The bytes after IEND are a deflated ZIP archive: `binwalk -e` or `unzip` extracts backup/notes/secret.txt.",
    }[difficulty];
    return {
      description: "An image hides more than pixels (layers.png). Peel the layers.",
      hints: ["Check the file's trailer: what comes after the image ends?", "binwalk is your friend."],
      solution: ["A PNG ends with its IEND chunk (`49 45 4E 44 AE 42 60 82`); anything after it is ignored by viewers.", how],
      file: { name: "layers.png", contentType: "image/png", data: Buffer.concat([image, trailer]) },
    };
  },
});
