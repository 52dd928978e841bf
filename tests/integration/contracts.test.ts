import { describe, expect, it } from "vitest";
import { pathParams } from "@/lib/api/contract";
import { openApiDocument } from "@/lib/api/openapi-document";
import { allContracts } from "@/lib/api/routes";
import { infrastructureRoutes, servedRoutes } from "../helpers/routes";

const routes = await servedRoutes();

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

  it("lists every served contract in lib/api/routes.ts, and serves every contract listed there exactly once", () => {
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
