import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { allContracts } from "@/lib/registry/routes";

/**
 * handle() parses a contract's params, query and body once, at the edge; lib/ takes the parsed
 * output and never parses it again (a second parse hides what the edge really hands over, and
 * made schemas accept their own output). Found from the source text: a call
 * `<name>.parse(` / `.safeParse(` (or their async forms) in lib/ whose name is bound to one of
 * the contracts' schema objects, by the schemas module that exports it or by an import of it.
 * Parsing what no contract declares (a provider's event, configuration, an event's payload) is
 * not concerned; neither are the wrapper itself (lib/platform/http, the contract language in
 * lib/kernel, the route registry) and those modules.
 */
const root = process.cwd();
const lib = path.join(root, "lib");
const excluded = [
  // the wrapper and the contract language (lib/api before issue 22)
  "lib/platform/http/",
  "lib/kernel/contract.ts",
  "lib/kernel/fields.ts",
  "lib/kernel/values.ts",
  "lib/kernel/paging.ts",
  "lib/kernel/to-app-error.ts",
  "lib/registry/",
  // configuration, the webhook events' payloads, a provider's events
  "lib/kernel/config/",
  "lib/platform/pipeline/channels/webhook/",
  "lib/platform/email/provider-events.ts",
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(root, file).split(path.sep).join("/");
const files = sourceFiles(lib);
const contractSchemas = new Set<unknown>(allContracts.flatMap((contract) => [contract.params, contract.query, contract.body]).filter(Boolean));

/** Each schemas module (lib/**\/schemas.ts, lib/**\/*-schemas.ts) → its exported names that are a contract's schema object. */
const schemaExports = new Map<string, Set<string>>();
for (const file of files.filter((f) => /(^|-)schemas\.ts$/.test(path.basename(f)))) {
  const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const names = Object.entries(exports).filter(([, value]) => contractSchemas.has(value)).map(([name]) => name);
  schemaExports.set(relative(file).replace(/\.ts$/, ""), new Set(names));
}

/** The module an import specifier names, as "lib/…" without extension (only @/ and relative ones matter here). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return relative(path.resolve(path.dirname(from), specifier));
  return undefined;
}

/** Names under which a file can reach a contract's schema: its own exports (a schemas module) and what it imports from one. */
function contractSchemaNames(file: string, source: string): Set<string> {
  const names = new Set(schemaExports.get(relative(file).replace(/\.ts$/, "")) ?? []);
  for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']([^"']+)["']/g)) {
    const module = resolveSpecifier(file, match[2]);
    const exported = module && schemaExports.get(module);
    if (!exported) continue;
    for (const specifier of match[1].split(",")) {
      const [imported, local = imported] = specifier.replace(/^\s*type\s+/, "").split(/\s+as\s+/).map((part) => part.trim());
      if (exported.has(imported)) names.add(local);
    }
  }
  return names;
}

/** Every `<name>.parse(` (safeParse, parseAsync, safeParseAsync) of a contract's schema in lib/ outside the exclusions, as "file:line name.method". */
function reparses(): string[] {
  const found: string[] = [];
  for (const file of files) {
    const name = relative(file);
    if (excluded.some((prefix) => name === prefix || name.startsWith(prefix))) continue;
    const source = fs.readFileSync(file, "utf8");
    const schemas = contractSchemaNames(file, source);
    if (!schemas.size) continue;
    for (const match of source.matchAll(/([A-Za-z_$][\w$]*)\s*\.\s*(parse|safeParse|parseAsync|safeParseAsync)\s*\(/g)) {
      if (!schemas.has(match[1])) continue;
      const line = source.slice(0, match.index).split("\n").length;
      found.push(`${name}:${line} ${match[1]}.${match[2]}`);
    }
  }
  return found;
}

describe("a contract's input is parsed once, at the edge", () => {
  it("finds the contracts' schemas among the schemas modules' exports (the check below sees them)", () => {
    const named = new Set([...schemaExports.values()].flatMap((names) => [...names]));
    // Spot checks: bodies of several areas are reachable by name.
    for (const name of ["createTestInput", "createCtfInput", "questionInput", "createApiKeyInput", "inviteMemberInput"]) expect(named, name).toContain(name);
  });

  it("never re-parses a contract's params, query or body schema in lib/", () => {
    expect(reparses()).toEqual([]);
  });
});
