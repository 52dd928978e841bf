import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/kernel/errors";
import { difficulties, generateChallenge, templateCatalog, templateFor } from "./generate";
import { runQuery, SqlError } from "./web/mini-sql";
import { seededRng } from "./kit/rng";
import { targetQueryNames } from "./kit/target-query";

/**
 * The web targets take players' input by design: whatever the page and query, a target
 * answers a page or refuses with an AppError (the one error shape), never anything else —
 * a TypeError here would be a 500. The shared fuzz suite reaches the route; this reaches
 * every template's pages with every query parameter they read.
 */

const pages = ["index", "login", "admin", "search", "start", "hop", "end", "nearby", "place", "user", "repo", "commit", "manual", "files", "run", "echo", "__proto__", "constructor"];
const nasty = fc.oneof(
  fc.string({ maxLength: 500 }),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.constantFrom("'", "' OR 1=1 --", "' UNION SELECT name, sql FROM sqlite_master --", "%n%s%p%9999$s", "../../../root/.token", "__proto__", "constructor", "-1", "1e309", "NaN", "((((((((((", "%99999999d"),
);
const query = fc.record(Object.fromEntries(targetQueryNames.map((name) => [name, nasty])), { requiredKeys: [] });

describe.each(templateCatalog.filter((entry) => entry.artifact.includes("target")).map((entry) => ({ ...entry })))("$key's target", ({ key, category }) => {
  it.each([...difficulties])("%s: answers any page and query with a page or an AppError", (difficulty) => {
    const template = templateFor(key)!;
    const challenge = generateChallenge(category, difficulty, { rng: seededRng(`fuzz-${key}-${difficulty}`), template: key });
    fc.assert(
      fc.property(fc.constantFrom(...pages), query, fc.dictionary(fc.constantFrom("jar_session", "x"), fc.string({ maxLength: 200 })), (page, values, cookies) => {
        try {
          const reply = template.serve!(challenge.target!, { page, query: values, cookie: (name) => cookies[name], flag: challenge.flag, basePath: "/t" });
          expect([200, 302]).toContain(reply.status ?? 200);
          expect((reply.text ?? "").length).toBeLessThan(20_000);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("mini-sql", () => {
  const tables = { products: { columns: ["id", "name"], rows: [[1, "Lamp"]] } };
  it("answers any text with rows or a SqlError", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (tail) => {
        try {
          runQuery(`SELECT name, id FROM products WHERE name LIKE '%${tail}%'`, tables);
        } catch (error) {
          if (!(error instanceof SqlError)) throw error;
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reproduces the injection's behaviour and SQLite's messages", () => {
    const q = (tail: string) => runQuery(`SELECT name, id FROM products WHERE id = 0 AND name LIKE '%${tail}%'`, tables);
    expect(q("").rows).toEqual([]);
    expect(q("' OR 1=1 --").rows).toEqual([["Lamp", 1]]);
    expect(() => q("'")).toThrow(/unrecognized token/);
    expect(() => q("' UNION SELECT name FROM products --")).toThrow("SELECTs to the left and right of UNION do not have the same number of result columns");
    expect(() => q("' UNION SELECT a, b FROM nope --")).toThrow("no such table: nope");
    expect(() => q("' UNION SELECT a, b FROM __proto__ --")).toThrow("no such table: __proto__");
    expect(() => q("' UNION SELECT secret, id FROM products --")).toThrow("no such column: secret");
    // Counting the columns the usual way: a SELECT without FROM.
    expect(q("' UNION SELECT 'x', 2 --").rows).toEqual([["x", 2]]);
    expect(() => q("' UNION SELECT 1 --")).toThrow(/same number of result columns/);
  });
});
