import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, parseConfig } from "@/lib/kernel/config/config";
import { currentSealPrefix, reseal, seal, unseal } from "./sealing";
import { hashToken, storedToken } from "./tokens";

const AUTH = `auth-secret-${"a".repeat(40)}`;
const OLD = `old-data-key-${"o".repeat(40)}`;
const NEW = `new-data-key-${"n".repeat(40)}`;

function useKeys(keys?: string) {
  vi.stubEnv("AUTH_SECRET", AUTH);
  vi.stubEnv("DATA_ENCRYPTION_KEYS", keys ?? "");
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("sealing with the application key", () => {
  it("opens what it sealed, for the same purpose only; each seal is fresh", () => {
    useKeys();
    const sealed = seal("recipients.token", "the-token");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain("the-token");
    expect(unseal("recipients.token", sealed)).toBe("the-token");
    expect(seal("recipients.token", "the-token")).not.toBe(sealed);
    // Moved to another column, it does not open.
    expect(() => unseal("members.token", sealed)).toThrow(/sealed for another purpose/);
  });

  it("refuses an altered value and anything that is not a sealed value", () => {
    useKeys();
    const parts = seal("webhook_endpoints.secret", "whsec_x").split(".");
    const body = Buffer.from(parts[3], "base64url");
    body[0] ^= 1;
    expect(() => unseal("webhook_endpoints.secret", [...parts.slice(0, 3), body.toString("base64url"), parts[4]].join("."))).toThrow(/altered/);
    expect(() => unseal("webhook_endpoints.secret", "whsec_plain")).toThrow(/Not a sealed value/);
  });

  it("derives its key from AUTH_SECRET by default: another AUTH_SECRET does not open it", () => {
    useKeys();
    const sealed = seal("members.token", "m");
    expect(sealed.startsWith(currentSealPrefix())).toBe(true);
    vi.stubEnv("AUTH_SECRET", `another-auth-secret-${"b".repeat(40)}`);
    expect(() => unseal("members.token", sealed)).toThrow(/not configured/);
    // Listing the old AUTH_SECRET in DATA_ENCRYPTION_KEYS opens it again (the documented way to change AUTH_SECRET).
    vi.stubEnv("DATA_ENCRYPTION_KEYS", `${NEW},${AUTH}`);
    expect(unseal("members.token", sealed)).toBe("m");
  });

  it("DATA_ENCRYPTION_KEYS: the first seals, every one and AUTH_SECRET open; re-sealing moves a value to the first", () => {
    useKeys();
    const underAuth = seal("class_invitations.token", "a");
    useKeys(OLD);
    const underOld = seal("class_invitations.token", "o");
    expect(underOld.split(".")[1]).not.toBe(underAuth.split(".")[1]);
    useKeys(`${NEW}, ${OLD}`);
    const underNew = seal("class_invitations.token", "n");
    expect(underNew.startsWith(currentSealPrefix())).toBe(true);
    expect([underAuth, underOld, underNew].map((value) => unseal("class_invitations.token", value))).toEqual(["a", "o", "n"]);

    const moved = reseal("class_invitations.token", underOld);
    expect(moved.startsWith(currentSealPrefix())).toBe(true);
    useKeys(NEW);
    expect(unseal("class_invitations.token", moved)).toBe("o");
    expect(() => unseal("class_invitations.token", underOld)).toThrow(/not configured/);
  });

  it("stores a token as its SHA-256 and a sealed copy, never as it is", () => {
    useKeys();
    const stored = storedToken("recipients.token", "tok_123");
    // sha256sum of "tok_123"
    expect(stored.tokenHash).toBe("a1dad7fbad36f56788c709d0b068082f8275ed26ca172e5289066f07144cb69b");
    expect(hashToken("tok_123")).toBe(stored.tokenHash);
    expect(JSON.stringify(stored)).not.toContain("tok_123");
    expect(unseal("recipients.token", stored.tokenSealed)).toBe("tok_123");
  });
});

describe("DATA_ENCRYPTION_KEYS in the configuration", () => {
  const problem = (value: string) => {
    try {
      parseConfig({ DATA_ENCRYPTION_KEYS: value });
      return undefined;
    } catch (error) {
      return (error as ConfigError).problems.find((p) => p.variable === "DATA_ENCRYPTION_KEYS")?.message;
    }
  };

  it("takes a comma-separated list of keys of at least 32 characters, none twice, and never echoes one", () => {
    expect(parseConfig({ DATA_ENCRYPTION_KEYS: ` ${NEW} , ${OLD} ` }).dataEncryptionKeys).toEqual([NEW, OLD]);
    expect(parseConfig({}).dataEncryptionKeys).toEqual([]);
    expect(problem(`${NEW},short-key`)).toMatch(/each at least 32 characters/);
    expect(problem(`${NEW},${NEW}`)).toMatch(/lists a key twice/);
    expect(problem(`${NEW},short-key`)).not.toContain("short-key");
  });
});
