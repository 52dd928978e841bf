import { challengeCategories, type ChallengeCategory } from "@/lib/ctf/templates/catalog";

/**
 * CTFd's category is free text; ours is one of `challengeCategories`. A category equal to one
 * of ours (case and surrounding spaces aside) is kept; the usual names CTFs give ours are
 * mapped (`pwn` → binary exploitation…); anything else goes to FALLBACK_CATEGORY, and the
 * report says so.
 */
export const FALLBACK_CATEGORY: ChallengeCategory = "offsec";

/** Usual CTFd category names (lower case) → ours. */
export const categoryAliases: Record<string, ChallengeCategory> = {
  pwn: "binary exploitation",
  pwnable: "binary exploitation",
  binary: "binary exploitation",
  exploitation: "binary exploitation",
  exploit: "binary exploitation",
  rev: "reverse engineering",
  reversing: "reverse engineering",
  reverse: "reverse engineering",
  "web exploitation": "web",
  cryptography: "crypto",
  forensic: "forensics",
  steganography: "forensics",
  stego: "forensics",
  recon: "osint",
};

export function mapCategory(category: string | null | undefined): { category: ChallengeCategory; exact: boolean } {
  const key = (category ?? "").trim().toLowerCase();
  const same = challengeCategories.find((ours) => ours === key);
  if (same) return { category: same, exact: true };
  return { category: categoryAliases[key] ?? FALLBACK_CATEGORY, exact: false };
}
