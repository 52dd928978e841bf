"use client";

import { useState } from "react";
import { Button } from "./button";

/** Copies `value`; `target` completes its accessible name when several stand side by side ("Copy link for ada@…"). */
export function CopyButton({ value, label = "Copy", target }: { value: string; label?: string; target?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="secondary"
      onClick={async () => {
        await navigator.clipboard?.writeText(value).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? "Copied" : label}
      {target ? <span className="sr-only"> for {target}</span> : null}
    </Button>
  );
}
