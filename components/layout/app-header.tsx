import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { signOut } from "@/lib/platform/auth/auth";

/** The signed-in header of the trainer and student areas: brand link, the area's own items, sign-out; `labels` in the student's language (the trainer area's are English). */
export function AppHeader({
  home,
  width,
  children,
  labels = { skipToContent: "Skip to content", signOut: "Sign out" },
}: {
  home: string;
  width: "max-w-6xl" | "max-w-4xl";
  children: ReactNode;
  labels?: { skipToContent: string; signOut: string };
}) {
  async function leave() {
    "use server";
    await signOut({ redirectTo: "/" });
  }

  return (
    <header className="border-b border-slate-200 bg-white">
      {/* The first stop of the keyboard: past the header and the navigation, to the page's own content. */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-brand-700 focus:shadow"
      >
        {labels.skipToContent}
      </a>
      {/* One row: the brand, then the area's items wrapping within the rest of the width (a 360 px phone: two short lines). */}
      <div className={`mx-auto flex ${width} items-start justify-between gap-3 px-4 py-3`}>
        <Link href={home} className="py-1.5 font-bold text-brand-600">
          Certify
        </Link>
        <div className="flex min-w-0 flex-1 flex-wrap items-center justify-end gap-x-3 gap-y-1 text-sm">
          {children}
          <form action={leave}>
            <Button variant="secondary" type="submit">
              {labels.signOut}
            </Button>
          </form>
        </div>
      </div>
    </header>
  );
}
