"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export default function TestError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-4 py-12">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify</p>
      <Card>
        <h1 className="text-xl font-semibold">The test could not be loaded</h1>
        <p className="mt-2 text-sm text-slate-600">Something went wrong on our side. The answers you saved are safe; try again in a moment.</p>
        <Button type="button" className="mt-4 min-h-11" onClick={() => retry()}>
          Try again
        </Button>
      </Card>
    </main>
  );
}
