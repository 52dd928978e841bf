import { randomBytes } from "node:crypto";

export const challengeCategories = ["web", "crypto", "forensics", "osint", "offsec", "binary exploitation", "reverse engineering"] as const;
export type ChallengeCategory = (typeof challengeCategories)[number];
export const difficulties = ["easy", "medium", "hard", "insane"] as const;
export type Difficulty = (typeof difficulties)[number];

export const pointsFor: Record<Difficulty, number> = { easy: 100, medium: 250, hard: 500, insane: 1000 };

type Template = { title: string; description: string; hints: string[] };

/** Shipped templates: a few per category; difficulty changes the wording, points and hints. */
const templates: Record<ChallengeCategory, Template[]> = {
  web: [
    { title: "Cookie Jar", description: "The admin panel trusts a cookie a little too much. Convince it you are the admin.", hints: ["Look at what the server sets after login.", "Base64 is not encryption."] },
    { title: "Search Party", description: "A product search box builds its SQL by hand. Find the hidden product.", hints: ["What happens with a single quote?", "UNION has friends."] },
    { title: "Redirect Roulette", description: "An open redirect hides a token in its chain. Follow it carefully.", hints: ["Read every Location header."] },
  ],
  crypto: [
    { title: "Caesar's Diary", description: "An ancient shift cipher guards the diary's last page.", hints: ["There are only 25 keys."] },
    { title: "Reused Pad", description: "Two messages were encrypted with the same one-time pad.", hints: ["XOR the ciphertexts together.", "Crib-drag with common words."] },
    { title: "Tiny Exponent", description: "RSA with e = 3 and a short message. No padding was used.", hints: ["m^3 may be smaller than n."] },
  ],
  forensics: [
    { title: "Packet Whispers", description: "A capture of a login over plain HTTP. Who logged in, and with what?", hints: ["Follow the TCP stream."] },
    { title: "Layers", description: "An image hides more than pixels. Peel the layers.", hints: ["Check the file's trailer.", "binwalk is your friend."] },
  ],
  osint: [
    { title: "Holiday Snap", description: "From one holiday photo, find the name of the café across the street.", hints: ["Shadows and signs tell a lot."] },
    { title: "Old Handle", description: "A developer's old username leads to a forgotten repository.", hints: ["Commit history never forgets."] },
  ],
  offsec: [
    { title: "Weak Service", description: "A legacy service on the box runs with a default password. Get a shell.", hints: ["Enumerate every open port."] },
    { title: "Cron Job", description: "A writable script runs as root every minute.", hints: ["Check /etc/cron.d and file permissions."] },
  ],
  "binary exploitation": [
    { title: "Overflow 101", description: "A fixed-size buffer and gets(). Reach the win() function.", hints: ["Find the offset to the return address."] },
    { title: "Format Fiasco", description: "printf(user_input) leaks more than it should.", hints: ["%p walks the stack."] },
  ],
  "reverse engineering": [
    { title: "Keygen", description: "A license checker validates keys with a few arithmetic steps. Write a valid key.", hints: ["Start from the comparison at the end."] },
    { title: "Packed", description: "The binary unpacks itself at run time; the flag is checked afterwards.", hints: ["Let it unpack, then dump memory."] },
  ],
};

export type GeneratedChallenge = { title: string; category: ChallengeCategory; difficulty: Difficulty; description: string; points: number; flag: string; hints: { text: string; cost: number }[] };

/**
 * Builds a challenge from a template of the category, scaled to the difficulty, with a fresh flag.
 * The title is the template's, whatever the difficulty: the difficulty is its own field, shown beside it.
 */
export function generateChallenge(category: ChallengeCategory, difficulty: Difficulty, pick = Math.random): GeneratedChallenge {
  const list = templates[category];
  const template = list[Math.floor(pick() * list.length) % list.length];
  const points = pointsFor[difficulty];
  const hintCount = { easy: template.hints.length, medium: Math.min(1, template.hints.length), hard: Math.min(1, template.hints.length), insane: 0 }[difficulty];
  return {
    title: template.title,
    category,
    difficulty,
    description: `${template.description}${difficulty === "insane" ? " No hints, no mercy." : ""}`,
    points,
    flag: `CTF{${randomBytes(12).toString("hex")}}`,
    hints: template.hints.slice(0, hintCount).map((text, index) => ({ text, cost: Math.round(points * 0.1 * (index + 1)) })),
  };
}
