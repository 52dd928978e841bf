import { describe, expect, it } from "vitest";
import { seededRng } from "./kit/rng";
import { challengeCategories, difficulties, generateChallenge, pointsFor, templateCatalog, templateFor } from "./generate";

describe("generateChallenge", () => {
  it("titles every challenge by its template alone, never by its difficulty (a field of its own)", () => {
    for (const category of challengeCategories) {
      for (const difficulty of difficulties) {
        for (const seed of ["a", "b", "c"]) {
          const challenge = generateChallenge(category, difficulty, { rng: seededRng(seed) });
          expect(challenge.difficulty).toBe(difficulty);
          expect(challenge.points).toBe(pointsFor[difficulty]);
          expect(challenge.title, `${category} ${difficulty}`).not.toMatch(new RegExp(`\\b(${difficulties.join("|")})\\b`, "i"));
          expect(challenge.title).not.toMatch(/[()]/);
          expect(challenge.title).toBe(generateChallenge(category, "easy", { rng: seededRng(seed) }).title);
        }
      }
    }
  });

  it("ships at least one template per category, and draws only the category's", () => {
    for (const category of challengeCategories) {
      const own = templateCatalog.filter((template) => template.category === category).map((template) => template.key);
      expect(own.length, category).toBeGreaterThan(0);
      for (let seed = 0; seed < 12; seed++) expect(own).toContain(generateChallenge(category, "medium", { rng: seededRng(`s${seed}`) }).template);
    }
    expect(() => generateChallenge("web", "easy", { template: "layers" })).toThrow(/not a web template/);
  });

  it.each(templateCatalog.map((entry) => ({ ...entry })))("$key: deterministic from a seed, with its artifact, a fresh flag and solution steps", ({ key, category, artifact }) => {
    for (const difficulty of difficulties) {
      const one = generateChallenge(category, difficulty, { rng: seededRng(`${key}-${difficulty}`), template: key });
      const again = generateChallenge(category, difficulty, { rng: seededRng(`${key}-${difficulty}`), template: key });
      const other = generateChallenge(category, difficulty, { rng: seededRng(`other-${key}-${difficulty}`), template: key });
      expect(again).toEqual(one);
      expect(one.flag).toMatch(/^CTF\{[0-9a-f]{24}\}$/);
      expect(other.flag).not.toBe(one.flag);
      expect(one.solution.length).toBeGreaterThanOrEqual(2);
      expect(one.hints.length).toBe(difficulty === "insane" ? 0 : difficulty === "easy" ? 2 : 1);
      expect(Boolean(one.file)).toBe(artifact.includes("file"));
      expect(Boolean(one.target)).toBe(artifact.includes("target"));
      expect(Boolean(templateFor(key)!.serve)).toBe(artifact.includes("target"));
      // Small enough to live in the database beside the challenge.
      if (one.file) expect(one.file.data.length, `${key} ${difficulty}`).toBeLessThan(64 * 1024);
      // A target's state never holds the flag: the host hands it over per request.
      if (one.target) expect(JSON.stringify(one.target)).not.toContain(one.flag.slice(4, -1));
      for (const step of one.solution) expect(step).not.toContain(one.flag);
    }
  });
});
