import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/kernel/errors";
import { toErrorResponse } from "./http-errors";
import { isStorableText } from "@/lib/kernel/values";
import { MAX_BODY_BYTES, readJson, readQuery, rejectOversizedBody, rejectUnstorableParams } from "./parse";
import { isSameOrigin } from "./same-origin";

const codeOf = async (promise: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    return (error as AppError).code ?? (error as Error).name;
  }
  return "ok";
};

describe("reading a body", () => {
  it("refuses a body announced over the limit before reading it", async () => {
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(10));
      },
    });
    const req = { headers: new Headers({ "content-length": "20000000" }), body } as unknown as Request;
    expect(await codeOf(() => rejectOversizedBody(req))).toBe("payload_too_large");
    expect(await codeOf(readJson(req, z.object({})))).toBe("payload_too_large");
    expect(pulled, "not one chunk was read").toBeLessThanOrEqual(1);
  });

  it("stops reading a body without a length at the limit", async () => {
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
        if (sent > 50 * MAX_BODY_BYTES) controller.close();
      },
    });
    const req = new Request("http://localhost/x", { method: "POST", body, duplex: "half" } as RequestInit);
    expect(await codeOf(readJson(req, z.object({})))).toBe("payload_too_large");
    expect(sent).toBeLessThan(2 * MAX_BODY_BYTES);
  });

  it("names each field holding a NUL or an unpaired surrogate, keys included", async () => {
    const req = new Request("http://localhost/x", { method: "POST", body: '{"a":"x\\u0000","b":["ok","\\ud800"],"c":{"\\u0000":1},"d":"fine 😀"}' });
    try {
      await readJson(req, z.any());
      expect.fail("accepted");
    } catch (error) {
      expect((error as AppError).code).toBe("validation_failed");
      expect((error as AppError).fields!.map((f) => f.field).sort()).toEqual(["a", "b.1", "c.(key)"]);
    }
  });

  it("survives a body nested ten thousand levels deep", async () => {
    const req = new Request("http://localhost/x", { method: "POST", body: "[".repeat(10_000) + "]".repeat(10_000) });
    expect(await codeOf(readJson(req, z.object({})))).toBe("ZodError");
  });

  it("refuses NUL in a query string and in path parameters", async () => {
    expect(await codeOf(() => readQuery(new Request("http://localhost/x?search=%00"), z.object({ search: z.string() })))).toBe("validation_failed");
    expect(await codeOf(() => rejectUnstorableParams({ id: "\u0000" }))).toBe("not_found");
    expect(await codeOf(() => rejectUnstorableParams({ id: "\ud800" }))).toBe("not_found");
    expect(await codeOf(() => rejectUnstorableParams({ id: "ctf_01J" }))).toBe("ok");
    expect(isStorableText("ok 😀")).toBe(true);
  });
});

describe("the same-origin check", () => {
  const headers = (origin?: string) => new Headers({ host: "app.example", ...(origin === undefined ? {} : { origin }) });
  it("accepts only an origin naming this host", () => {
    expect(isSameOrigin(headers("https://app.example"))).toBe(true);
    for (const origin of [undefined, "null", "https://evil.example", "not a url", "file:///etc", "javascript:alert(1)", "https://app.example.evil.example"]) {
      expect(isSameOrigin(headers(origin)), String(origin)).toBe(false);
    }
  });
});

describe("a client that went away", () => {
  it("is answered 499, not a 500", async () => {
    const controller = new AbortController();
    const req = new Request("http://localhost/x", { method: "POST", body: "{}", signal: controller.signal });
    controller.abort();
    const response = toErrorResponse(new Error("aborted"), "req_1", req);
    expect(response.status).toBe(499);
    expect((await response.json()).error.code).toBe("client_closed_request");
  });
});
