import { describe, expect, it } from "vitest";
import { challengeCategories, difficulties, generateChallenge, pointsFor } from "./templates";

describe("generateChallenge", () => {
  it("titles every challenge by its template alone, never by its difficulty (a field of its own)", () => {
    for (const category of challengeCategories) {
      for (const difficulty of difficulties) {
        for (const pick of [0, 0.5, 0.99]) {
          const challenge = generateChallenge(category, difficulty, () => pick);
          expect(challenge.difficulty).toBe(difficulty);
          expect(challenge.points).toBe(pointsFor[difficulty]);
          expect(challenge.title, `${category} ${difficulty}`).not.toMatch(new RegExp(`\\b(${difficulties.join("|")})\\b`, "i"));
          expect(challenge.title).not.toMatch(/[()]/);
          expect(challenge.title).toBe(generateChallenge(category, "easy", () => pick).title);
        }
      }
    }
  });
});
