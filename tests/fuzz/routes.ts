import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Who may call a route: decides the credentials and headers a request carries. */
export type CallerKind = "api-key" | "session" | "token" | "public";

export type DiscoveredRoute = {
  method: string;
  /** "/api/v1/tests/[code]/recipients", as the file system names it. */
  path: string;
  /** Names of the dynamic segments, in order. */
  params: string[];
  kind: CallerKind;
  handler: Handler;
};

// Served by libraries with protocols of their own (Auth.js, Inngest) or serving no input at
// all (health, the OpenAPI document): they are not the project's input handling.
const notOurs = new Set(["/api/auth/[...nextauth]", "/api/inngest", "/api/health", "/api/openapi.json"]);

function kindOf(apiPath: string): CallerKind {
  if (apiPath.startsWith("/api/v1/")) return "api-key";
  if (apiPath.startsWith("/api/app/")) return "session";
  if (apiPath.startsWith("/api/t/")) return "token";
  return "public";
}

/**
 * Every route handler under app/api, found on disk: a route added tomorrow is fuzzed
 * without anyone listing it here.
 */
export async function discoverRoutes(root = path.join(process.cwd(), "app", "api")): Promise<DiscoveredRoute[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") files.push(full);
    }
  };
  walk(root);
  const routes: DiscoveredRoute[] = [];
  for (const file of files.sort()) {
    const apiPath = "/api/" + path.relative(root, path.dirname(file)).split(path.sep).join("/");
    if (notOurs.has(apiPath)) continue;
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
    const params = [...apiPath.matchAll(/\[(\w+)\]/g)].map((match) => match[1]);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      if (typeof mod[method] === "function") {
        routes.push({ method, path: apiPath, params, kind: kindOf(apiPath), handler: mod[method] as Handler });
      }
    }
  }
  return routes;
}

/** The resource a path parameter names, from its name and the segment before it. */
export function resourceOf(route: DiscoveredRoute, param: string): string {
  if (param !== "id") return param;
  const segments = route.path.split("/");
  const before = segments[segments.indexOf("[id]") - 1];
  return `${before}.id`;
}
