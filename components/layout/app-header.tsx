import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { signOut } from "@/lib/auth/auth";

/** The signed-in header of the trainer and student areas: brand link, the area's own items, sign-out. */
export function AppHeader({ home, width, children }: { home: string; width: "max-w-6xl" | "max-w-4xl"; children: ReactNode }) {
  async function leave() {
    "use server";
    await signOut({ redirectTo: "/" });
  }

  return (
    <header className="border-b border-slate-200 bg-white">
      <div className={`mx-auto flex ${width} flex-wrap items-center justify-between gap-3 px-4 py-3`}>
        <Link href={home} className="font-bold text-brand-600">
          Certify
        </Link>
        <div className="flex min-w-0 flex-wrap items-center gap-3 text-sm">
          {children}
          <form action={leave}>
            <Button variant="secondary" type="submit">
              Sign out
            </Button>
          </form>
        </div>
      </div>
    </header>
  );
}
