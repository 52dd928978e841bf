import { redirect } from "next/navigation";
import { PublicFrame } from "@/components/ui/public-frame";
import { Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { signIn } from "@/lib/platform/auth/auth";
import { safeRedirectPath } from "@/lib/platform/auth/redirect";
import { currentUser } from "@/lib/platform/auth/session";
import { devMailboxEnabled } from "@/lib/kernel/config/email";
import { appUrl } from "@/lib/kernel/config/config";
import { checkPath } from "./check/check-path";
import { SendLinkButton } from "./send-link-button";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string; email?: string | string[]; joining?: string | string[] }> }) {
  const { callbackUrl, error, email: invited, joining } = await searchParams;
  // From a class invitation (app/join/[token]): shown and pre-filled, never trusted for anything else.
  const shown = (value: string | string[] | undefined) => (typeof value === "string" ? value.trim().slice(0, 200) : "");
  const joiningClass = shown(joining);
  // Only a path of this app may be returned to after sign-in (see lib/platform/auth/redirect.ts).
  const redirectTo = safeRedirectPath(callbackUrl, appUrl());
  if (await currentUser()) redirect(redirectTo);

  async function sendLink(formData: FormData) {
    "use server";
    const email = String(formData.get("email") ?? "").trim();
    // Auth.js answers with its "check your e-mail" address once the link is sent (else its error
    // page, /signin?error=…): the app's own page names the address instead (./check/page.tsx).
    const next = await signIn("resend", { email, redirectTo, redirect: false });
    if (new URL(String(next), appUrl()).pathname.endsWith("/verify-request")) redirect(checkPath(email, redirectTo));
    redirect(String(next));
  }

  return (
    <PublicFrame>
      <h1 className="text-xl font-semibold wrap-anywhere">{joiningClass ? `Sign in to join ${joiningClass}` : "Sign in"}</h1>
      <p className="mt-1 text-sm text-slate-600">We e-mail you a link that signs you in. No password needed.</p>
      {error ? (
        <div className="mt-4">
          <Notice tone="error">That sign-in link is invalid or has expired. Ask for a new one.</Notice>
        </div>
      ) : null}
      <form action={sendLink} className="mt-5 space-y-4">
        <TextField label="E-mail address" id="email" name="email" type="email" autoComplete="email" required placeholder="you@example.com" defaultValue={shown(invited)} />
        <SendLinkButton />
      </form>
      {devMailboxEnabled() ? (
        <p className="mt-4 text-xs text-slate-500">
          Development: e-mails land in the <a className="underline" href="/dev/mailbox">dev mailbox</a>.
        </p>
      ) : null}
    </PublicFrame>
  );
}
