import Link from "next/link";

/** The way back from a page to its list, above the page's header ("← All classes"). */
export function BackLink({ href, children }: { href: string; children: string }) {
  return (
    <p className="mb-2 text-sm">
      <Link href={href} className="text-brand-700 underline-offset-2 hover:underline">
        {`← ${children}`}
      </Link>
    </p>
  );
}
