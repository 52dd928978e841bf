import { describe, expect, it } from "vitest";
import { pathParams } from "@/lib/kernel/contract";
import { openApiDocument } from "@/lib/registry/openapi-document";
import { allContracts } from "@/lib/registry/routes";
import { infrastructureRoutes, routeFiles, servedRoutes } from "../../helpers/routes";

const routes = await servedRoutes();
const files = await routeFiles();

describe("every route is declared once, as a contract", () => {
  it("serves no route without a contract, except the infrastructure routes, each with its reason", () => {
    const undeclared = routes.filter((route) => !route.contract && !(route.file in infrastructureRoutes));
    expect(undeclared.map((route) => `${route.method} ${route.file}`)).toEqual([]);
    // The exceptions are real routes (a stale entry would hide nothing, but would mislead).
    for (const file of Object.keys(infrastructureRoutes)) expect(routes.some((route) => route.file === file), file).toBe(true);
  });

  it("serves each contract at its own method and path, with the folders named as its parameters", () => {
    for (const route of routes.filter((r) => r.contract)) {
      expect(`${route.contract!.method} ${route.contract!.path}`, route.file).toBe(`${route.method} ${route.path}`);
    }
  });

  it("lists every served contract in lib/registry/routes.ts, and serves every contract listed there exactly once", () => {
    const served = routes.filter((r) => r.contract).map((r) => r.contract!.id);
    expect(new Set(served).size).toBe(served.length);
    expect([...served].sort()).toEqual(allContracts.map((c) => c.id).sort());
    expect(new Set(allContracts.map((c) => c.id)).size).toBe(allContracts.length);
  });

  it("declares a params schema exactly for the paths that have parameters", () => {
    for (const contract of allContracts) {
      const names = pathParams(contract.path);
      if (!names.length) {
        expect(contract.params, contract.id).toBeUndefined();
        continue;
      }
      expect(contract.params, contract.id).toBeDefined();
      const shape = (contract.params as unknown as { shape?: Record<string, unknown> }).shape;
      expect(Object.keys(shape ?? {}).sort(), contract.id).toEqual([...names].sort());
    }
  });

  it("documents every contract in the OpenAPI document, with its status, body and scope", () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; requestBody?: unknown; description?: string }>> };
    for (const contract of allContracts.filter((c) => !c.docs.hidden)) {
      const operation = doc.paths[contract.path]?.[contract.method.toLowerCase()];
      expect(operation, `${contract.method} ${contract.path}`).toBeDefined();
      expect(operation.operationId).toBe(contract.id);
      expect(Object.keys(operation.responses)).toContain(String(contract.status));
      if (contract.body) expect(operation.requestBody, contract.id).toBeDefined();
      if (contract.scope) expect(operation.description, contract.id).toContain(contract.scope);
    }
  });
});

describe("every answer under /api is JSON: unknown paths and unserved methods", () => {
  const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
  type Exported = ((req: Request) => Response | Promise<Response>) & { unserved?: true };
  const CATCH_ALL = "/api/[[...path]]";
  const at = (file: string) => `http://localhost${file.replace(/\[\[?(?:\.\.\.)?(\w+)\]?\]/g, "x$1")}`;

  async function expectError(response: Response, status: number, code: string, what: string) {
    expect(response.status, what).toBe(status);
    expect(response.headers.get("content-type"), what).toContain("application/json");
    expect(response.headers.get("cache-control"), what).toBe("no-store");
    const body = await response.json();
    expect(body, what).toEqual({ error: { code, message: expect.any(String), request_id: response.headers.get("x-request-id") } });
    expect(body.error.request_id, what).toMatch(/^req_[0-9A-Z]{26}$/);
  }

  it("every route file exports every method: its endpoints, and 405 method_not_allowed naming them in Allow for the others", async () => {
    const checked = files.filter(({ file }) => file !== CATCH_ALL);
    expect(checked.length).toBeGreaterThan(60);
    for (const { file, module } of checked) {
      const exported = (method: string) => module[method] as Exported | undefined;
      const served = METHODS.filter((method) => typeof exported(method) === "function" && !exported(method)!.unserved);
      expect(served.length, file).toBeGreaterThan(0);
      // Next.js answers HEAD with GET; OPTIONS is always allowed.
      const allow = [...served, ...(served.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
      for (const method of METHODS.filter((m) => !served.includes(m))) {
        const handler = exported(method);
        expect(typeof handler, `${method} ${file} is exported`).toBe("function");
        const response = await handler!(new Request(at(file), { method, ...(method === "GET" ? {} : { body: "{}" }) }));
        await expectError(response, 405, "method_not_allowed", `${method} ${file}`);
        expect(response.headers.get("allow"), `${method} ${file}`).toBe(allow);
        expect(response.headers.get("x-ratelimit-limit"), `${method} ${file}`).toBe(file.startsWith("/api/v1/") ? "120" : null);
      }
      const options = await exported("OPTIONS")!(new Request(at(file), { method: "OPTIONS" }));
      expect(options.status, `OPTIONS ${file}`).toBe(204);
      expect(options.headers.get("allow"), `OPTIONS ${file}`).toBe(allow);
      expect(options.headers.get("x-request-id"), `OPTIONS ${file}`).toMatch(/^req_[0-9A-Z]{26}$/);
      expect(options.headers.get("x-ratelimit-limit"), `OPTIONS ${file}`).toBe(file.startsWith("/api/v1/") ? "120" : null);
    }
  });

  it("a path no route serves is a 404 not_found in the error shape, whatever the method", async () => {
    const catchAll = files.find(({ file }) => file === CATCH_ALL);
    expect(catchAll, "app/api/[[...path]]/route.ts").toBeDefined();
    for (const method of [...METHODS, "OPTIONS"]) {
      for (const path of ["/api", "/api/v1/no-such-thing", "/api/v1/tests/K7Q2M9XR/nothing/here", "/api/t/abc/unknown"]) {
        const handler = catchAll!.module[method] as Exported;
        const response = await handler(new Request(`http://localhost${path}`, { method, ...(method === "GET" || method === "OPTIONS" ? {} : { body: "{}" }) }));
        await expectError(response, 404, "not_found", `${method} ${path}`);
        // Every /api/v1 answer carries the rate-limit headers; nothing was counted (no key was looked at).
        const limited = path.startsWith("/api/v1/");
        expect(response.headers.get("x-ratelimit-limit"), `${method} ${path}`).toBe(limited ? "120" : null);
        expect(response.headers.get("x-ratelimit-remaining"), `${method} ${path}`).toBe(limited ? "120" : null);
        if (limited) expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 5);
      }
    }
  });
});
