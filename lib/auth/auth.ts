import { DrizzleAdapter } from "@auth/drizzle-adapter";
import NextAuth from "next-auth";
import Resend from "next-auth/providers/resend";
import { createElement } from "react";
import { getDb } from "@/db";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { emailFrom } from "@/lib/email/config";
import { queueEmail } from "@/lib/email/send";
import { SignInEmail, signInText } from "@/lib/email/templates/sign-in";
import { ensureWorkspace } from "@/lib/workspaces";
import { authSecret } from "./secret";

/**
 * Auth.js v5: e-mail magic links, sessions in the database. The config is built lazily so
 * the database opens on the first request, not at import (or build) time. The magic link
 * goes through the project's own e-mail module, so the dev mailbox and Resend both see it.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(async () => {
  const db = await getDb();
  return {
    adapter: DrizzleAdapter(db, {
      usersTable: users,
      accountsTable: accounts,
      sessionsTable: sessions,
      verificationTokensTable: verificationTokens,
    }),
    providers: [
      Resend({
        from: emailFrom(),
        async sendVerificationRequest({ identifier, url }) {
          const host = new URL(url).host;
          await queueEmail(db, {
            kind: "sign_in",
            to: identifier,
            subject: `Sign in to Certify`,
            react: createElement(SignInEmail, { url, host }),
            text: signInText(url, host),
            links: [url],
          });
        },
      }),
    ],
    secret: authSecret(),
    trustHost: true,
    session: { strategy: "database" },
    pages: { signIn: "/signin", verifyRequest: "/signin/check", error: "/signin" },
    events: {
      async createUser({ user }) {
        if (user.id) await ensureWorkspace(db, { id: user.id, email: user.email });
      },
    },
  };
});
