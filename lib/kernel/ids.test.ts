import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("is a prefix and a 26-character ULID, unique and time-sortable", () => {
    const ids = Array.from({ length: 5000 }, () => newId("req"));
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const later = newId("req");
    expect(later.slice(4, 14) >= ids[0].slice(4, 14)).toBe(true);
  });
});

describe("isIdShaped", () => {
  it("accepts what newId makes and nothing else", async () => {
    const { isIdShaped } = await import("./ids");
    expect(isIdShaped(newId("ctf"), "ctf")).toBe(true);
    for (const bad of [newId("dep"), "ctf_", "ctf_\u0000", `${newId("ctf")}x`, newId("ctf").toLowerCase(), "%ZZ", ""]) {
      expect(isIdShaped(bad, "ctf"), JSON.stringify(bad)).toBe(false);
    }
  });
});
