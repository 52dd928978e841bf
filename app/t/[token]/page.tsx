import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { IntegrityRecorder } from "@/components/taking/integrity-recorder";
import { StartPanel } from "@/components/taking/start-panel";
import { TestResult } from "@/components/taking/test-result";
import { TestRunner } from "@/components/taking/test-runner";
import { currentUser, mayBeSignedIn } from "@/lib/platform/auth/session";
import { loadForPage } from "@/lib/platform/server/unavailable";
import { shellMarker } from "@/lib/platform/server/page-shell";
import { openTestOnce } from "@/app/_i18n/open-test";
import { requestedShellKey } from "./_shell/slot";
import { startShellKey, startViewOf } from "./_shell/start-view";

export const dynamic = "force-dynamic";

// The URL is a personal capability: keep it out of search engines and Referer headers.
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("taking.meta");
  return { title: t("title"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

export default async function TakeTestPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("common");
  const cookieNames = (await cookies()).getAll().map((cookie) => cookie.name);
  // No session cookie: nobody is signed in, and the session lookup (a database read) is skipped.
  const [view, user] = await Promise.all([
    loadForPage(() => openTestOnce(token)), // the same read as the page's locale (app/_i18n/request.ts)
    mayBeSignedIn(cookieNames) ? currentUser() : undefined,
  ]);
  if (!view) notFound();
  const signedIn = user !== undefined;
  // This process's own request for the start page's shell (./_shell/first-page.ts): the name as a
  // marker; refused when this read gives another shell than the one asked for (the recipient
  // started meanwhile, the window closed), so a shell never holds anything but a start page.
  const shellKey = requestedShellKey(await headers());
  if (shellKey !== undefined && (view.status !== "sent" || startShellKey(view, await getLocale(), token.length) !== shellKey)) notFound();

  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-6 sm:py-10">
      <p className="mb-4 text-sm font-bold text-brand-600">{t("brand")}</p>
      {view.recordIntegrity && view.status !== "completed" ? <IntegrityRecorder token={token} attempt={view.status === "started"} /> : null}
      {view.status === "completed" && view.result ? (
        <TestResult
          certification={view.certification}
          testName={view.test.name}
          result={view.result}
          passMark={view.test.passMark}
          questions={view.questions}
          answers={view.answers}
          review={view.review}
          reviewWithheld={view.reviewWithheld}
          signedIn={signedIn}
        />
      ) : view.status === "sent" ? (
        <StartPanel token={token} view={startViewOf(view, shellKey !== undefined && view.name !== "" ? shellMarker("name") : view.name)} />
      ) : (
        <TestRunner token={token} view={view} signedIn={signedIn} />
      )}
    </main>
  );
}
