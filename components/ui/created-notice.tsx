import Link from "next/link";
import type { ReactNode } from "react";
import { Notice } from "./card";

/** What a create form just made, with the link that opens it. */
export function CreatedNotice({ href, children }: { href: string; children: ReactNode }) {
  return (
    <div className="mt-3">
      <Notice tone="success">
        {children}{" "}
        <Link href={href} className="font-medium underline">
          Open it
        </Link>
      </Notice>
    </div>
  );
}
