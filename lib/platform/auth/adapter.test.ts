import type { Adapter, AdapterSession } from "@auth/core/adapters";
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/platform/security/tokens";
import { hashingSessionTokens } from "./adapter";

/** An adapter that keeps sessions in a map, as given: what reaches the database. */
function memoryAdapter() {
  const stored = new Map<string, AdapterSession>();
  const adapter: Adapter = {
    createSession: async (session) => (stored.set(session.sessionToken, session), session),
    getSessionAndUser: async (token) => {
      const session = stored.get(token);
      return session ? { session, user: { id: session.userId, email: "ann@example.test", emailVerified: null } } : null;
    },
    updateSession: async (session) => {
      const found = stored.get(session.sessionToken);
      if (!found) return null;
      const updated = { ...found, ...session };
      stored.set(session.sessionToken, updated);
      return updated;
    },
    deleteSession: async (token) => {
      const found = stored.get(token);
      stored.delete(token);
      return found ?? null;
    },
  };
  return { stored, adapter };
}

describe("sessions stored hashed (hashingSessionTokens)", () => {
  it("stores and looks up the SHA-256 of the cookie's token, and answers Auth.js with the token itself", async () => {
    const { stored, adapter } = memoryAdapter();
    const hashed = hashingSessionTokens(adapter);
    const expires = new Date(Date.now() + 60_000);
    expect(await hashed.createSession!({ sessionToken: "cookie-token", userId: "u1", expires })).toEqual({ sessionToken: "cookie-token", userId: "u1", expires });
    expect([...stored.keys()]).toEqual([hashToken("cookie-token")]);
    expect(await hashed.getSessionAndUser!("cookie-token")).toMatchObject({ session: { sessionToken: "cookie-token", userId: "u1" }, user: { id: "u1" } });
    // The stored hash is no cookie: presented as one, it finds nothing.
    expect(await hashed.getSessionAndUser!(hashToken("cookie-token"))).toBeNull();
    const later = new Date(Date.now() + 120_000);
    expect(await hashed.updateSession!({ sessionToken: "cookie-token", expires: later })).toMatchObject({ sessionToken: "cookie-token", expires: later });
    expect(stored.get(hashToken("cookie-token"))?.expires).toEqual(later);
    expect(await hashed.deleteSession!("cookie-token")).toMatchObject({ sessionToken: "cookie-token" });
    expect(stored.size).toBe(0);
    expect(await hashed.deleteSession!("cookie-token")).toBeNull();
  });

  it("lets the adapter's failures through unchanged (the outage wrapper of auth.ts must see them)", async () => {
    const outage = new Error("connection refused");
    const failing: Adapter = {
      getSessionAndUser: async () => {
        throw outage;
      },
    };
    await expect(hashingSessionTokens(failing).getSessionAndUser!("cookie-token")).rejects.toBe(outage);
  });

  it("leaves the other methods as they are", () => {
    const getUser = async () => null;
    const hashed = hashingSessionTokens({ getUser });
    expect(hashed.getUser).toBe(getUser);
    expect(hashed.createSession).toBeUndefined();
  });
});
