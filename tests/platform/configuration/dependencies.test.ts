import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// Dependency hygiene: what the code imports is what package.json declares, and the installed
// tree satisfies every declared range (a package hoisted from another's dependencies can
// vanish with any update of that other package).

const root = join(import.meta.dirname, "../../..");
const folders = ["app", "components", "db", "lib", "scripts", "tests", "e2e", "bench"];
const topFiles = ["next.config.mjs", "playwright.config.ts", "vitest.config.ts", "drizzle.config.ts", "eslint.config.mjs", "postcss.config.mjs", "proxy.ts", "instrumentation.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "artifacts" || name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The package a bare specifier names ("@scope/name/sub" → "@scope/name", "next/server" → "next"). */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("@/") || specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return builtinModules.includes(name) ? null : name;
}

function importedPackages(): Map<string, string> {
  const found = new Map<string, string>();
  const files = [...folders.flatMap((folder) => sourceFiles(join(root, folder))), ...topFiles.map((file) => join(root, file))];
  const pattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(pattern)) {
      const name = packageOf(match[1] ?? match[2] ?? match[3]);
      if (name && !found.has(name)) found.set(name, relative(root, file));
    }
  }
  return found;
}

describe("dependencies", () => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);

  it("every package the code imports is declared in package.json", () => {
    const undeclared = [...importedPackages()].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it("the PostCSS plugins, named by string in postcss.config.mjs, and postcss itself are declared", async () => {
    const { default: config } = (await import(pathToFileURL(join(root, "postcss.config.mjs")).href)) as { default: { plugins: Record<string, unknown> } };
    const plugins = Object.keys(config.plugins);
    expect(plugins.length).toBeGreaterThan(0);
    for (const name of [...plugins, "postcss"]) expect(declared.has(name), name).toBe(true);
  });

  it("the packages the code imports are found: the scan reads real imports", () => {
    const imported = importedPackages();
    for (const name of ["next", "react", "drizzle-orm", "zod", "@auth/core", "vitest", "@playwright/test"]) expect(imported.has(name), name).toBe(true);
  });

  it("npm ls --all finds no missing, invalid or extraneous package", async () => {
    const run = promisify(execFile);
    const outcome = await run("npm", ["ls", "--all", "--json"], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? "" }),
    );
    const problems = (JSON.parse(outcome.stdout || "{}") as { problems?: string[] }).problems ?? [];
    expect(problems).toEqual([]);
    expect(outcome.code).toBe(0);
  });
});
