import { describe, expect, it } from "vitest";
import { generateApiKeySecret, hashApiKey, readApiKey } from "./secret";

describe("API key secrets", () => {
  it("are prefixed, high-entropy and unique", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { secret, prefix, hash } = generateApiKeySecret();
      expect(secret).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
      expect(secret.startsWith(prefix)).toBe(true);
      expect(prefix).toHaveLength(11);
      expect(hash).toBe(hashApiKey(secret));
      seen.add(secret);
    }
    expect(seen.size).toBe(200);
  });

  it("are stored as the SHA-256 hex digest, never as themselves", () => {
    expect(hashApiKey("ck_abc")).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey("ck_abc")).not.toContain("abc");
    expect(hashApiKey("ck_abc")).not.toBe(hashApiKey("ck_abd"));
    // Known vector: sha256("abc").
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("are read from X-API-KEY or Authorization: Bearer", () => {
    expect(readApiKey(new Headers({ "x-api-key": " ck_one " }))).toBe("ck_one");
    expect(readApiKey(new Headers({ authorization: "Bearer ck_two" }))).toBe("ck_two");
    expect(readApiKey(new Headers({ authorization: "bearer ck_two" }))).toBe("ck_two");
    expect(readApiKey(new Headers({ authorization: "Basic abc" }))).toBeUndefined();
    expect(readApiKey(new Headers({ authorization: "Bearer" }))).toBeUndefined();
    expect(readApiKey(new Headers())).toBeUndefined();
    expect(readApiKey(new Headers({ "x-api-key": "ck_a", authorization: "Bearer ck_b" }))).toBe("ck_a");
  });
});
