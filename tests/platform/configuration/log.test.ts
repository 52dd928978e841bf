import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { logRequest } from "@/lib/platform/http/request-log";
import { logError, logger, writeLogsTo } from "@/lib/kernel/log";

let lines: Array<Record<string, unknown>>;

beforeEach(() => {
  lines = [];
  writeLogsTo((line) => lines.push(JSON.parse(line)));
});

afterEach(() => {
  writeLogsTo(undefined);
  vi.unstubAllEnvs();
});

const request = { method: "POST", url: "http://localhost/api/v1/tests?email=someone%40example.org", status: 201, durationMs: 12.345, requestId: "req_01TEST", keyPrefix: "ck_abcdefgh" };

describe("the request log", () => {
  it("is one JSON line with level, time, request id, path without the query, status and the key's prefix", () => {
    vi.stubEnv("API_LOG", "on");
    logRequest(request);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", context: "request", method: "POST", path: "/api/v1/tests", status: 201, ms: 12.3, request_id: "req_01TEST", key: "ck_abcdefgh", msg: "request" });
    expect(new Date(String(lines[0].time)).toISOString()).toBe(lines[0].time);
    expect(JSON.stringify(lines[0])).not.toContain("someone");
  });

  it("is silenced by API_LOG=off (the tests' setting) and by LOG_LEVEL", () => {
    vi.stubEnv("API_LOG", "off");
    logRequest(request);
    vi.stubEnv("API_LOG", "on");
    vi.stubEnv("LOG_LEVEL", "warn");
    logRequest(request);
    expect(lines).toEqual([]);
    vi.stubEnv("LOG_LEVEL", "info");
    logRequest(request);
    expect(lines).toHaveLength(1);
  });
});

describe("errors", () => {
  // What Drizzle throws: the message ends with the parameter values.
  function queryError() {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), { code: "23505", constraint_name: "users_email_unique", table_name: "users", detail: "Key (email)=(victim@example.org) already exists." });
    return Object.assign(new Error('Failed query: insert into "users" ("email") values ($1)\nparams: victim@example.org'), { name: "DrizzleQueryError", query: 'insert into "users" ("email") values ($1)', cause });
  }

  it("logs the class, SQLSTATE, query text, constraint and stack frames — never the message or the values", () => {
    logError("request", queryError(), { request_id: "req_01ERR" });
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: "error", context: "request", request_id: "req_01ERR", msg: "request" });
    expect(line.err).toMatchObject({ error: "DrizzleQueryError", code: "23505", query: 'insert into "users" ("email") values ($1)', constraint: "users_email_unique", table: "users" });
    expect(String((line.err as { stack: string }).stack)).toMatch(/^\s+at /);
    expect(JSON.stringify(line)).not.toContain("victim");
  });

  it("describes an Error given to the logger directly as `err` the same way", () => {
    logger().error({ err: queryError(), message_id: 42 }, "email batch failed");
    expect(lines[0]).toMatchObject({ level: "error", message_id: 42, err: { error: "DrizzleQueryError", code: "23505" } });
    expect(JSON.stringify(lines[0])).not.toContain("victim");
  });
});

describe("redaction", () => {
  it("writes secrets and personal data as [redacted], at the top level and nested", () => {
    logger().info(
      {
        delivery_id: "dlv_1",
        email: "a@example.org",
        to: ["b@example.org"],
        token: "tok",
        recipient: { name: "Ada", email: "c@example.org", link: "http://localhost/t/secret-token" },
        request: { headers: { authorization: "Bearer ck_x", cookie: "session=1", "x-api-key": "ck_y" } },
        endpoint: { secret: "whsec_1", url: "https://hook.example.org/?sig=1" },
        challenge: { flag: "CTF{x}" },
      },
      "delivery",
    );
    const text = JSON.stringify(lines[0]);
    for (const value of ["a@example.org", "b@example.org", "c@example.org", "Ada", "secret-token", "ck_x", "session=1", "ck_y", "whsec_1", "sig=1", "CTF{x}", '"tok"']) {
      expect(text).not.toContain(value);
    }
    expect(lines[0]).toMatchObject({ delivery_id: "dlv_1", email: "[redacted]", recipient: { email: "[redacted]" } });
  });
});
