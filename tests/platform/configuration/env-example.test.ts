import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolingVariables, variables } from "@/lib/kernel/config/config";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** Variable names in the first column of README's "Environment variables" table. */
function readmeVariables(): string[] {
  const section = read("README.md").split(/^## Environment variables\s*$/m)[1]?.split(/^## /m)[0] ?? "";
  const names = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));
  return [...new Set(names)];
}

/** Names assigned in .env.example, commented out or not (`# NAME=…`). */
function exampleVariables(): string[] {
  return [...new Set([...read(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]))];
}

// Set by Node.js and Next.js themselves, never by an operator's env file.
const runtimeOnly = new Set(["NODE_ENV", "NEXT_PHASE"]);

describe("the documented variables", () => {
  it("README's table is not empty (the parser still finds it)", () => {
    expect(readmeVariables().length).toBeGreaterThan(20);
    expect(readmeVariables()).toContain("DATABASE_URL");
  });

  it("every variable README lists is in .env.example", () => {
    const example = new Set(exampleVariables());
    expect(readmeVariables().filter((name) => !example.has(name))).toEqual([]);
  });

  it("every variable in .env.example is one the configuration reads (or the tooling's)", () => {
    const known = new Set<string>([...Object.keys(variables), ...toolingVariables]);
    expect(exampleVariables().filter((name) => !known.has(name))).toEqual([]);
  });

  it("every variable the configuration reads is in README's table", () => {
    const readme = new Set(readmeVariables());
    expect(Object.keys(variables).filter((name) => !runtimeOnly.has(name) && !readme.has(name))).toEqual([]);
  });

  it("every variable the configuration reads is in .env.example", () => {
    const example = new Set(exampleVariables());
    expect(Object.keys(variables).filter((name) => !runtimeOnly.has(name) && !example.has(name))).toEqual([]);
  });
});
