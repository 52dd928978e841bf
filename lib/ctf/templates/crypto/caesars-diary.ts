import { defineTemplate, textFile } from "@/lib/ctf/templates/kit/types";

/**
 * Caesar's Diary (crypto): the diary's last page, every letter shifted by one secret key
 * (1–25). hard and insane shift the digits too (by the key modulo 10), so the flag's hex
 * digits need the key as well.
 */
const entries = [
  "Dear diary, the legions marched north again today and the weather was dreadful.",
  "Brutus smiled at me in the forum. I do not trust his smile.",
  "The senate argued for six hours about bread. I fell asleep twice.",
  "Cleopatra writes that the gardens in Alexandria are in bloom.",
  "I have hidden the key to the treasury where nobody will look.",
  "Tomorrow is the Ides. The augurs say I should stay at home.",
  "My new shift cipher is perfect: nobody will ever read these pages.",
];

export function caesarShift(text: string, key: number, digits: boolean): string {
  return text.replace(/[A-Za-z0-9]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code >= 65 && code <= 90) return String.fromCharCode(65 + ((code - 65 + key) % 26));
    if (code >= 97 && code <= 122) return String.fromCharCode(97 + ((code - 97 + key) % 26));
    return digits ? String.fromCharCode(48 + ((code - 48 + key) % 10)) : char;
  });
}

export const caesarsDiary = defineTemplate({
  key: "caesars-diary",
  build({ flag, difficulty, rng }) {
    const digits = difficulty === "hard" || difficulty === "insane";
    // A key that moves digits as well as letters when they are shifted.
    const key = digits ? rng.pick([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25]) : rng.between(1, 25);
    const page = [...rng.shuffle(entries).slice(0, difficulty === "easy" ? 3 : 5), `The code of the treasury is ${flag} and nobody must know it.`];
    const plain = difficulty === "insane" ? page.join(" ") : page.join("\n");
    return {
      description: digits
        ? "An ancient shift cipher guards the diary's last page (diary.txt). Every letter and every digit moved by the same key."
        : "An ancient shift cipher guards the diary's last page (diary.txt).",
      hints: ["There are only 25 keys.", digits ? "Digits move too, by the key modulo 10." : "Look for the word that must be CTF."],
      solution: [
        "Download diary.txt: the text is a shift (Caesar) cipher.",
        `Shift every letter back by ${key}${digits ? ` and every digit back by ${key % 10}` : ""} (or try all 25 keys and keep the readable one).`,
        "The last sentence holds the flag.",
      ],
      file: textFile("diary.txt", `${caesarShift(plain, key, digits)}\n`),
    };
  },
});
