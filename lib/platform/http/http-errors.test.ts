import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, errorCodes } from "@/lib/kernel/errors";
import { codeToStatus, toErrorResponse } from "./http-errors";

describe("error mapping", () => {
  it("maps every code to one status", () => {
    for (const code of errorCodes) expect(codeToStatus[code]).toBeGreaterThanOrEqual(400);
    expect(codeToStatus.invalid_json).toBe(400);
    expect(codeToStatus.unauthorized).toBe(401);
    expect(codeToStatus.forbidden).toBe(403);
    expect(codeToStatus.not_found).toBe(404);
    expect(codeToStatus.plan_limit_exceeded).toBe(409);
    expect(codeToStatus.conflict).toBe(409);
    expect(codeToStatus.validation_failed).toBe(422);
    expect(codeToStatus.rate_limit_exceeded).toBe(429);
  });

  it("turns a ZodError into 422 with every field listed", async () => {
    const schema = z.object({ name: z.string(), domains: z.array(z.number().int()).min(1), nested: z.object({ x: z.number() }) });
    const parsed = schema.safeParse({ domains: ["a"], nested: {} });
    const response = toErrorResponse(parsed.error, "req_1");
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.request_id).toBe("req_1");
    expect(body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["domains.0", "name", "nested.x"]);
  });

  it("sets Retry-After and retry_after for rate limits", async () => {
    const response = toErrorResponse(new AppError("rate_limit_exceeded", "slow down", { retryAfter: 17 }), "req_2");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("17");
    expect((await response.json()).error).toEqual({ code: "rate_limit_exceeded", message: "slow down", request_id: "req_2", retry_after: 17 });
  });

  it("hides unexpected errors behind a 500 without their details", async () => {
    const response = toErrorResponse(new Error("password=hunter2 in a stack"), "req_3");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("hunter2");
  });

  it("maps a unique-constraint race to 409, also when wrapped", () => {
    const raw = Object.assign(new Error("duplicate key"), { code: "23505" });
    expect(toErrorResponse(raw, "req_5").status).toBe(409);
    expect(toErrorResponse(new Error("Failed query", { cause: raw }), "req_6").status).toBe(409);
  });

  it("maps a lost database connection to 503", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(toErrorResponse(error, "req_4").status).toBe(503);
  });

  it("answers a deadlock or serialization failure that outlived its retries with 503, never 500", async () => {
    for (const code of ["40P01", "40001", "55P03"]) {
      const wrapped = new Error("Failed query: insert …", { cause: Object.assign(new Error("deadlock detected"), { code }) });
      const response = toErrorResponse(wrapped, "req_7");
      expect(response.status, code).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
    }
  });

  it("maps every way of losing the database to 503", () => {
    for (const code of ["ECONNRESET", "CONNECT_TIMEOUT", "CONNECTION_CLOSED", "57014", "57P01", "57P03", "53300", "08006"]) {
      expect(toErrorResponse(Object.assign(new Error("down"), { code }), "req_8").status, code).toBe(503);
    }
  });

  it("answers text the database cannot store with 422, not 500", () => {
    for (const code of ["22021", "22P05"]) {
      expect(toErrorResponse(Object.assign(new Error("invalid byte sequence"), { code }), "req_9").status, code).toBe(422);
    }
  });
});

describe("error logs", () => {
  it("name the query and its code, never its parameter values or the message that quotes them", async () => {
    const { describeError } = await import("@/lib/kernel/log");
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "members_email"'), { code: "23505", constraint_name: "members_email" });
    const error = Object.assign(new Error("Failed query: insert into members (email) values ($1)\nparams: ada@example.com,ck_secret"), {
      name: "DrizzleQueryError",
      query: "insert into members (email) values ($1)",
      params: ["ada@example.com", "ck_secret"],
      cause,
    });
    const text = JSON.stringify(describeError(error));
    expect(text).not.toContain("ada@example.com");
    expect(text).not.toContain("ck_secret");
    expect(JSON.parse(text)).toMatchObject({ error: "DrizzleQueryError", code: "23505", query: "insert into members (email) values ($1)", constraint: "members_email" });
    expect(JSON.parse(text).stack).toMatch(/^\s+at /);
  });
});

