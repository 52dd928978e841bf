"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Card } from "./card";
import { CopyButton } from "./copy-button";

/** A secret shown once right after it was created (API key, signing secret), with a copy button. */
export function OneTimeSecret({ title, children, secret, testId, onDone }: { title: ReactNode; children: ReactNode; secret: string; testId: string; onDone: () => void }) {
  return (
    <Card className="border-green-300 bg-green-50">
      <h2 className="font-semibold text-green-900">{title}</h2>
      <p className="mt-1 text-sm text-green-900">{children}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="break-all rounded bg-white px-3 py-2 font-mono text-sm ring-1 ring-green-200">
          {secret}
        </code>
        <CopyButton value={secret} />
        <Button variant="ghost" type="button" onClick={onDone}>
          Done
        </Button>
      </div>
    </Card>
  );
}
