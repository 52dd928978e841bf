import type { ReactNode } from "react";
import { Card } from "./card";

/** The narrow, centred frame of the pages people reach from an e-mail or a link: the brand, then one card. */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-4 py-12">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify</p>
      <Card>{children}</Card>
    </main>
  );
}

/** A link that leads nowhere (a not-found page): what happened, and what to do about it. */
export function LinkNotValid({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PublicFrame>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{children}</p>
    </PublicFrame>
  );
}
