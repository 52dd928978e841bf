import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { PublicFrame } from "@/components/ui/public-frame";

export const metadata = { title: "Page not found" };

/**
 * Any address with no page (and a page of the trainer area whose test, class or certification
 * does not exist or is not yours): the app's frame, what happened, and ways back. Unknown
 * /api/* paths keep their JSON 404 (app/api/[[...path]]). No session lookup here, so the page
 * shows even while the database is away.
 */
export default function NotFound() {
  return (
    <PublicFrame>
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">There is no page at this address, or it is not yours to see. Check the link, or go on from here:</p>
      <nav aria-label="Ways back" className="mt-5 flex flex-wrap gap-3">
        <Link href="/tests" className={buttonClass("primary")}>
          Your tests
        </Link>
        <Link href="/signin" className={buttonClass("secondary")}>
          Sign in
        </Link>
        <Link href="/" className={buttonClass("secondary")}>
          Home
        </Link>
      </nav>
    </PublicFrame>
  );
}
