import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
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

/** In the student's language (their browser's: app/_i18n/request.ts); the class's, certification's and trainer's names as written. */
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("classes.join");
  return { title: t("title"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [found, user, t] = await Promise.all([findInvitation(await getDb(), token), currentUser(), getTranslations("classes.join")]);
  if (!found) notFound();
  const { invitation, className, certification, trainer } = found;
  const joined = invitation.status === "joined" && user !== undefined && invitation.studentUserId === user.id;

  return (
    <PublicFrame>
      <p className="text-sm font-medium text-slate-600">{t("title")}</p>
      <h1 className="mt-1 text-xl font-semibold wrap-anywhere">{className}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">{t("certification")}</dt>
        <dd className="min-w-0 wrap-anywhere text-slate-900">{certification}</dd>
        <dt className="text-slate-500">{t("trainer")}</dt>
        <dd className="min-w-0 wrap-anywhere text-slate-900">{trainer}</dd>
        <dt className="text-slate-500">{t("invited")}</dt>
        <dd className="min-w-0 wrap-anywhere text-slate-900">{invitation.email}</dd>
      </dl>

      <div className="mt-6 space-y-4">
        {!user ? (
          <SignedOut token={token} email={invitation.email} className={className} words={{ signedOut: t.rich("signedOut", { email: invitation.email, strong }), signIn: t("signIn") }} />
        ) : joined ? (
          <>
            <Notice tone="success">{t("inClass")}</Notice>
            <Link href="/student" className={buttonClass("primary", "min-h-11 w-full")}>
              {t("goToStudentArea")}
            </Link>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-600">{t.rich("signedInAs", { email: user.email, strong })}</p>
            <JoinForm action={joinClassAction.bind(null, token)} />
            <form action={switchAccountAction.bind(null, token)}>
              <Button type="submit" variant="ghost" className="min-h-11 w-full">
                {t("otherAddress")}
              </Button>
            </form>
          </>
        )}
      </div>
    </PublicFrame>
  );
}

/** An address within a sentence, set off as before. */
const strong = (chunks: ReactNode) => <span className="font-medium text-slate-900">{chunks}</span>;

function SignedOut({ token, email, className, words }: { token: string; email: string; className: string; words: { signedOut: ReactNode; signIn: string } }) {
  return (
    <>
      <p className="text-sm text-slate-600">{words.signedOut}</p>
      <Link href={joinSignInHref(token, { email, className })} className={buttonClass("primary", "min-h-11 w-full")}>
        {words.signIn}
      </Link>
    </>
  );
}
