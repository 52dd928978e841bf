import { describe, expect, it } from "vitest";
import { seededRng } from "@/lib/ctf/templates/kit/rng";
import { difficulties, generateChallenge, templateCatalog, templateFor } from "@/lib/ctf/templates/generate";
import { AppError } from "@/lib/kernel/errors";
import { solvers, type Page } from "@/tests/helpers/solvers";

/**
 * The players' solvers (tests/helpers/solvers.ts) against many seeds of every template and difficulty,
 * without HTTP: each template's target is called as the route calls it (its refusals, thrown
 * AppErrors, become their status). A seed that built an unsolvable challenge — a magic value
 * gets() cannot read, a shift that does not read, two cafés at the same distance — fails here
 * by name, and the seed reproduces it. The HTTP path is covered once per template and
 * difficulty by tests/ctf/templates/templates-solved.test.ts.
 */

const SEEDS = 8;
const statusOf: Record<string, number> = { forbidden: 403, not_found: 404, validation_failed: 422 };

describe.each(templateCatalog.map((entry) => ({ ...entry })))("$key", ({ key, category }) => {
  it.each([...difficulties])(`%s: ${SEEDS} seeds, each solved by the player's solver`, async (difficulty) => {
    const template = templateFor(key)!;
    for (let seed = 0; seed < SEEDS; seed++) {
      const challenge = generateChallenge(category, difficulty, { rng: seededRng(`${key}/${difficulty}/${seed}`), template: key });
      const target = async (page: string, query: Record<string, string> = {}, cookies: Record<string, string> = {}): Promise<Page> => {
        try {
          const reply = template.serve!(challenge.target!, { page, query, cookie: (name) => cookies[name], flag: challenge.flag, basePath: "/t" });
          const headers = new Headers();
          for (const cookie of reply.setCookies ?? []) headers.append("set-cookie", cookie);
          if (reply.status === 302) headers.set("location", reply.location);
          return { status: reply.status ?? 200, text: reply.text ?? "", headers };
        } catch (error) {
          if (error instanceof AppError) return { status: statusOf[error.code] ?? 400, text: error.message, headers: new Headers() };
          throw error;
        }
      };
      const solved = await solvers[key]({ description: challenge.description, file: challenge.file?.data ?? null, target }).catch((error: Error) => {
        throw new Error(`${key} ${difficulty} seed ${seed}: ${error.message}`);
      });
      expect(solved, `${key} ${difficulty} seed ${seed}`).toBe(challenge.flag);
    }
  });
});
