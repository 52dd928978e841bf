import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { AcceptInvitationForm } from "@/components/competitions/accept-invitation-form";
import { formatWindow } from "@/components/competitions/format";
import { buttonClass } from "@/components/ui/button";
import { PublicFrame } from "@/components/ui/public-frame";
import { Notice } from "@/components/ui/card";
import { defaultPlayerName } from "@/lib/ctf/competitions/views";
import { findPlayer, playerCookieName } from "@/lib/ctf/play/players";
import { invitationPreview } from "@/lib/ctf/play/public";
import { acceptInvitationAction } from "./actions";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";
// The token is the capability: keep it out of search engines and of other sites' Referer.
export const metadata: Metadata = { title: "Competition invitation", robots: { index: false, follow: false }, referrer: "no-referrer" };

/**
 * An invitation to a competition. Opening the link only shows it (mail scanners follow
 * links); joining takes the "Accept invitation" button. No account is needed.
 */
export default async function AcceptCompetitionInvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await invitationPreview(await getDb(), token);
  if (!invitation) notFound();
  const { ctf } = invitation;
  const joined = invitation.status === "joined";
  // Joined elsewhere (another browser, a lost cookie): accepting again signs this browser in.
  const signedIn = joined && (await findPlayer(await getDb(), ctf.id, (await cookies()).get(playerCookieName(ctf.id))?.value)) !== null;
  const defaultName = invitation.name ?? defaultPlayerName(invitation.email);

  return (
    <PublicFrame>
      <p className="text-sm font-medium text-slate-600">Competition invitation</p>
      <h1 className="mt-1 wrap-anywhere text-xl font-semibold">{ctf.title}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">When</dt>
        <dd className="min-w-0 wrap-anywhere text-slate-900">{formatWindow(ctf.starts_at, ctf.ends_at)}</dd>
        <dt className="text-slate-500">Invited</dt>
        <dd className="min-w-0 wrap-anywhere text-slate-900">{invitation.email}</dd>
      </dl>

      <div className="mt-6 space-y-4">
        {joined && !signedIn && ctf.status !== "archived" ? (
          <>
            <p className="text-sm text-slate-600">You have joined {ctf.title}. Sign in to play it in this browser.</p>
            <AcceptInvitationForm action={acceptInvitationAction.bind(null, token)} defaultName={defaultName} label="Sign in to play" />
          </>
        ) : joined ? (
          <>
            <Notice tone="success">
              <span data-testid="joined-message">You have joined {ctf.title}.</span>
            </Notice>
            {ctf.url ? (
              <a href={ctf.url} className={buttonClass("primary", "min-h-11 w-full")}>
                Go to the competition page
              </a>
            ) : (
              <p className="text-sm text-slate-600">The competition page opens when the organisers deploy the competition.</p>
            )}
          </>
        ) : ctf.status === "archived" ? (
          <Notice tone="error">This competition has ended and was archived: it can no longer be joined.</Notice>
        ) : (
          <>
            <p className="text-sm text-slate-600">
              Accept to take part as <span className="font-medium text-slate-900">{invitation.email}</span>. No account or password is needed.
            </p>
            <AcceptInvitationForm action={acceptInvitationAction.bind(null, token)} defaultName={defaultName} />
          </>
        )}
      </div>
    </PublicFrame>
  );
}
