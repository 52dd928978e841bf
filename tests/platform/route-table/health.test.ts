import { describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";

describe("GET /api/health", () => {
  it("answers 200 {status: ok}, uncached, without a key or a database", async () => {
    const response = healthRoute.GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
