import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard/nav";
import { AppHeader } from "@/components/layout/app-header";
import { EmailAddress } from "@/components/ui/email-address";
import { currentUser } from "@/lib/platform/auth/session";
import { loadForPage } from "@/lib/platform/server/unavailable";
import { ensureWorkspace } from "@/lib/platform/workspaces";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // Throws (the unavailable page) when the session cannot be looked up: only a real
  // "no session" sends the trainer to /signin.
  const user = await currentUser();
  if (!user) redirect("/signin");
  const workspace = await loadForPage(async () => ensureWorkspace(await getDb(), user));

  return (
    <div className="min-h-screen">
      <AppHeader home="/tests" width="max-w-6xl">
        <span className="hidden text-slate-600 sm:inline" data-testid="workspace-name">
          {workspace.name} · <span className="uppercase">{workspace.plan}</span> plan
        </span>
        {/* On a phone the address is a small line of its own under the links, broken only at "@" and dots. */}
        <span className="order-last basis-full wrap-anywhere text-right text-xs text-slate-500 sm:order-none sm:basis-auto sm:text-sm">
          <EmailAddress address={user.email} />
        </span>
        <Link href="/student" className="text-brand-700 hover:underline">
          Student area
        </Link>
      </AppHeader>
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-4 md:flex-row md:gap-6 md:py-6">
        <aside className="md:w-48 md:shrink-0">
          <DashboardNav />
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">{children}</main>
      </div>
    </div>
  );
}
