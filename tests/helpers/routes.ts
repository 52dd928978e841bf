import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AnyContract } from "@/lib/kernel/contract";

export type Handler = ((req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) & { contract?: AnyContract };

/** A route handler found on disk: the file's path as Next.js serves it, its method, and its contract (if it has one). */
export type ServedRoute = {
  method: string;
  /** The URL path template from the folders, e.g. "/api/v1/tests/{code}/recipients". */
  path: string;
  file: string;
  handler: Handler;
  contract?: AnyContract;
};

/**
 * Routes served by libraries with protocols of their own, or serving no input and no
 * database by design: they are not declared as contracts. Each one says why.
 */
export const infrastructureRoutes: Record<string, string> = {
  "/api/auth/[...nextauth]": "Auth.js's own protocol (sign-in, callbacks, session)",
  "/api/inngest": "Inngest's own protocol (registration and signed execution requests)",
  "/api/health": "liveness: must answer without the database, so it cannot go through the wrapper that opens it",
  "/api/openapi.json": "the document generated from the contracts themselves",
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A route file under app/api: its folders as Next.js serves them ("/api/v1/tests/[code]") and its exports. */
export type RouteFile = { file: string; module: Record<string, unknown> };

/** Every route file under app/api, found on disk, imported. */
export async function routeFiles(root = path.join(process.cwd(), "app", "api")): Promise<RouteFile[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") files.push(full);
    }
  };
  walk(root);
  const found: RouteFile[] = [];
  for (const file of files.sort()) {
    const folders = "/api/" + path.relative(root, path.dirname(file)).split(path.sep).join("/");
    found.push({ file: folders, module: (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown> });
  }
  return found;
}

/** Every route handler under app/api, found on disk: a route added tomorrow is found without anyone listing it. */
export async function servedRoutes(root = path.join(process.cwd(), "app", "api")): Promise<ServedRoute[]> {
  const routes: ServedRoute[] = [];
  for (const { file, module } of await routeFiles(root)) {
    for (const method of METHODS) {
      const handler = module[method] as (Handler & { unserved?: true }) | undefined;
      // A method the route does not serve answers 405 (lib/platform/http/unrouted.ts): not an endpoint.
      if (typeof handler !== "function" || handler.unserved) continue;
      routes.push({ method, path: file.replace(/\[(\w+)\]/g, "{$1}"), file, handler, contract: handler.contract });
    }
  }
  return routes;
}

/** The routes that go through the one wrapper, each with its contract. */
export async function contractRoutes(): Promise<(ServedRoute & { contract: AnyContract })[]> {
  return (await servedRoutes()).filter((route): route is ServedRoute & { contract: AnyContract } => route.contract !== undefined);
}

/** "/api/v1/tests/{code}" with { code: "K7Q2M9XR" } → "/api/v1/tests/K7Q2M9XR" (values encoded). */
export function pathWith(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? "0"));
}
