import { AsyncLocalStorage } from "node:async_hooks";
import NextAuth, { type Session } from "next-auth";
import type { Adapter } from "next-auth/adapters";
import Resend from "next-auth/providers/resend";
import { emailFrom } from "@/lib/kernel/config/email";
import { clientAddress } from "@/lib/platform/ratelimit/client-ip";
import { ensureWorkspace } from "@/lib/platform/workspaces";
import { databaseAdapter } from "./adapter";
import { authLogger } from "./logger";
import { authRedirect } from "./redirect";
import { authSecret } from "@/lib/platform/security/auth-secret";
import { sendSignInLink } from "./sign-in-link";
import { getDb } from "@/lib/platform/database";

/**
 * Auth.js v5: e-mail magic links, sessions in the database. The config is built lazily so
 * the database opens on the first request, not at import (or build) time. The magic link
 * goes through the project's own e-mail module, so the dev mailbox and Resend both see it.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(async () => {
  const db = await getDb();
  return {
    // Sessions stored hashed (./adapter.ts); failures recorded for readSession (below).
    adapter: reportingFailures(databaseAdapter(db)),
    providers: [
      Resend({
        from: emailFrom(),
        async sendVerificationRequest({ identifier, url, request }) {
          // Within the public-mail limits; past them nothing is sent and the answer is the same.
          await sendSignInLink(db, { to: identifier, url, client: clientAddress(request.headers) });
        },
      }),
    ],
    secret: authSecret(),
    trustHost: true,
    session: { strategy: "database" },
    pages: { signIn: "/signin", verifyRequest: "/signin/check", error: "/signin" },
    callbacks: {
      // Every return address Auth.js takes from input (callbackUrl field, query, cookie).
      redirect: authRedirect,
    },
    // Adapter errors carry Drizzle's "Failed query: … params: …" message (addresses,
    // tokens): log only what is safe to keep.
    logger: authLogger,
    events: {
      async createUser({ user }) {
        if (user.id) await ensureWorkspace(db, { id: user.id, email: user.email });
      },
    },
  };
});

/**
 * Auth.js catches an adapter error during the session lookup, logs it and answers "no
 * session": during a database outage every signed-in user would look signed out (and be
 * sent to /signin). The adapter below records its failures for the lookup in progress, so
 * `readSession` can tell "no session" from "could not look the session up".
 */
const lookup = new AsyncLocalStorage<{ error?: unknown }>();

function reportingFailures(adapter: Adapter): Adapter {
  const reporting: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(adapter)) {
    reporting[name] =
      typeof method === "function"
        ? async (...args: unknown[]) => {
            try {
              return await method.apply(adapter, args);
            } catch (error) {
              const store = lookup.getStore();
              if (store) store.error ??= error;
              throw error;
            }
          }
        : method;
  }
  return reporting as Adapter;
}

/** The session of the current request (server components, route handlers), or null when there is none. Throws when it could not be looked up. */
export async function readSession(): Promise<Session | null> {
  const store: { error?: unknown } = {};
  const session = await lookup.run(store, () => auth());
  if (store.error !== undefined) throw store.error;
  return session;
}
