import Link from "next/link";
import { redirect } from "next/navigation";
import { buttonClass } from "@/components/ui/button";
import { currentUser } from "@/lib/platform/auth/session";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  if (await currentUser()) redirect("/tests");
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 px-4 py-16">
      <p className="text-sm font-bold text-brand-600">Certify</p>
      <h1 className="text-4xl font-semibold tracking-tight">Certification practice tests, sent by e-mail.</h1>
      <p className="text-lg text-slate-600">
        Pick a certification and its domains, send a test to anyone with an e-mail address, and read every result overall and
        per domain. Run classes and competitions, and integrate through a REST API with signed webhooks.
      </p>
      <div className="flex flex-wrap gap-3">
        <Link href="/signin" className={buttonClass("primary")}>
          Sign in
        </Link>
        <Link href="/docs/api" className={buttonClass("secondary")}>
          API reference
        </Link>
      </div>
    </main>
  );
}
