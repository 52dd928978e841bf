import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { JoinForm } from "@/components/student/join-form";
import { Button, buttonClass } from "@/components/ui/button";
import { PublicFrame } from "@/components/ui/public-frame";
import { Notice } from "@/components/ui/card";
import { currentUser } from "@/lib/platform/auth/session";
import { joinClassAction, switchAccountAction } from "./actions";
import { joinSignInHref } from "./sign-in-href";
import { findInvitation } from "@/lib/certification/classes/invitations";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Class invitation", robots: { index: false, follow: false }, referrer: "no-referrer" };

export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [found, user] = await Promise.all([findInvitation(await getDb(), token), currentUser()]);
  if (!found) notFound();
  const { invitation, className, certification, trainer } = found;
  const joined = invitation.status === "joined" && user !== undefined && invitation.studentUserId === user.id;

  return (
    <PublicFrame>
      <p className="text-sm font-medium text-slate-600">Class invitation</p>
      <h1 className="mt-1 text-xl font-semibold break-words">{className}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Certification</dt>
        <dd className="min-w-0 break-words text-slate-900">{certification}</dd>
        <dt className="text-slate-500">Trainer</dt>
        <dd className="min-w-0 break-words text-slate-900">{trainer}</dd>
        <dt className="text-slate-500">Invited</dt>
        <dd className="min-w-0 break-words text-slate-900">{invitation.email}</dd>
      </dl>

      <div className="mt-6 space-y-4">
        {!user ? (
          <SignedOut token={token} email={invitation.email} className={className} />
        ) : joined ? (
          <>
            <Notice tone="success">You are in this class.</Notice>
            <Link href="/student" className={buttonClass("primary", "min-h-11 w-full")}>
              Go to your student area
            </Link>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-600">
              Signed in as <span className="font-medium text-slate-900">{user.email}</span>.
            </p>
            <JoinForm action={joinClassAction.bind(null, token)} />
            <form action={switchAccountAction.bind(null, token)}>
              <Button type="submit" variant="ghost" className="min-h-11 w-full">
                Sign in with another address
              </Button>
            </form>
          </>
        )}
      </div>
    </PublicFrame>
  );
}

function SignedOut({ token, email, className }: { token: string; email: string; className: string }) {
  return (
    <>
      <p className="text-sm text-slate-600">
        To join, sign in with a free student account using <span className="font-medium text-slate-900">{email}</span>. We e-mail
        you a sign-in link: no password, nothing to pay. You come back here afterwards.
      </p>
      <Link href={joinSignInHref(token, { email, className })} className={buttonClass("primary", "min-h-11 w-full")}>
        Sign in to join
      </Link>
    </>
  );
}
