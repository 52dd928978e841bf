import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

/**
 * The shape of lib/ that `npm run lint` does not see by itself (docs/architecture.md):
 * - no folder circle at all, counting a folder and its sub-folders apart: dependency-cruiser's
 *   folder rule checks circles between folders, but a product's root file importing its wings
 *   while a wing imports a root file (as lib/ctf/step-handlers.ts once did with lib/ctf/challenges) is a
 *   circle too, and the one that crept back most easily;
 * - no folder of lib/ with more than 15 files at one level.
 * The layer rules themselves run in `npm run lint` (.dependency-cruiser.cjs).
 */

const root = join(import.meta.dirname, "../../..");
const MAX_FILES_PER_FOLDER = 15;

/** Strongly connected components with more than one node (Tarjan). */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the shape of lib/", () => {
  it("has no folder circle, a folder and its sub-folders counted apart", { timeout: 120_000 }, async () => {
    const require = createRequire(import.meta.url);
    const config = require(join(root, ".dependency-cruiser.cjs"));
    const result = await cruise([join(root, "lib"), join(root, "db")], { ...config.options, baseDir: root, validate: false }, undefined, {
      tsConfig: { fileName: join(root, "tsconfig.json") },
    });
    if (typeof result.output === "string") throw new Error("dependency-cruiser answered text, not modules");
    const edges = new Map<string, Set<string>>();
    const folderOf = (source: string) => dirname(source);
    for (const module of result.output.modules) {
      if (!/^(lib|db)\//.test(module.source)) continue;
      const from = folderOf(module.source);
      if (!edges.has(from)) edges.set(from, new Set());
      for (const dependency of module.dependencies) {
        if (!/^(lib|db)\//.test(dependency.resolved)) continue;
        const to = folderOf(dependency.resolved);
        if (to !== from) edges.get(from)!.add(to);
      }
    }
    expect(edges.size).toBeGreaterThan(30);
    expect(circles(edges)).toEqual([]);
  });

  it("finds a circle where there is one (the check itself)", () => {
    const edges = new Map([
      ["lib/ctf", new Set(["lib/ctf/challenges"])],
      ["lib/ctf/challenges", new Set(["lib/ctf", "lib/kernel"])],
      ["lib/kernel", new Set<string>()],
    ]);
    expect(circles(edges)).toEqual([["lib/ctf", "lib/ctf/challenges"]]);
  });

  it(`has no folder with more than ${MAX_FILES_PER_FOLDER} files at one level`, () => {
    const crowded: string[] = [];
    const walk = (dir: string) => {
      const entries = readdirSync(join(root, dir));
      const files = entries.filter((name) => statSync(join(root, dir, name)).isFile());
      if (files.length > MAX_FILES_PER_FOLDER) crowded.push(`${dir}: ${files.length}`);
      for (const name of entries) if (statSync(join(root, dir, name)).isDirectory()) walk(join(dir, name));
    };
    walk("lib");
    expect(crowded).toEqual([]);
  });
});
