import Link from "next/link";
import { PublicFrame } from "@/components/ui/public-frame";
import { devMailboxEnabled } from "@/lib/kernel/config/email";
import { appUrl } from "@/lib/kernel/config/config";
import { safeRedirectPath } from "@/lib/platform/auth/redirect";

export const dynamic = "force-dynamic";
export const metadata = { title: "Check your e-mail" };

type Query = { email?: string | string[]; callbackUrl?: string | string[] };

/**
 * Where the sign-in form leads once a link is sent (and Auth.js's own verify-request page,
 * `pages.verifyRequest`): the address the link went to, as text, and a way to use another one.
 */
export default async function CheckEmailPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { email, callbackUrl } = await searchParams;
  // Shown only when it reads as an address: the page is ours, so a link crafted with a sentence
  // in `email` ("Your account is locked, call …") must not make it say that sentence.
  const given = typeof email === "string" ? email.trim() : "";
  const address = given.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(given) ? given : "";
  const back = safeRedirectPath(callbackUrl, appUrl());
  const another = back === "/tests" ? "/signin" : `/signin?${new URLSearchParams({ callbackUrl: back })}`;
  return (
    <PublicFrame>
      <h1 className="text-xl font-semibold">Check your e-mail</h1>
      {address ? (
        <p className="mt-2 text-sm text-slate-700">
          We sent a sign-in link to{" "}
          <strong className="font-semibold break-all" data-testid="sign-in-address">
            {address}
          </strong>
          .
        </p>
      ) : (
        <p className="mt-2 text-sm text-slate-700">A sign-in link is on its way.</p>
      )}
      <p className="mt-2 text-sm text-slate-600">It works once and expires in 24 hours.</p>
      <p className="mt-2 text-sm text-slate-600">Nothing arrived? Look in your spam folder, or ask again in a few minutes: we send at most 3 links per address per hour.</p>
      <p className="mt-4 text-sm">
        <Link className="font-medium text-brand-600 underline" href={another}>
          {address ? "Use another address" : "Back to sign in"}
        </Link>
      </p>
      {devMailboxEnabled() ? (
        <p className="mt-4 text-xs text-slate-500">
          Development: open the <a className="underline" href="/dev/mailbox">dev mailbox</a>.
        </p>
      ) : null}
    </PublicFrame>
  );
}
