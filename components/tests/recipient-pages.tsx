import { Button } from "@/components/ui/button";
import type { TestView } from "@/lib/certification/tests/schemas";

/** Recipients per page of the trainer's test page. */
export const RECIPIENTS_PER_PAGE = 50;

/** All the test's recipients, not only the page shown. */
export function recipientCount(test: TestView): number {
  return test.recipients_pagination?.total ?? test.recipients.length;
}

/** Previous / next over the pages of a test's recipients; nothing while they fit on one page. */
export function RecipientPages({ test, page, onPage }: { test: TestView; page: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(recipientCount(test) / RECIPIENTS_PER_PAGE));
  if (pages <= 1) return null;
  const first = (page - 1) * RECIPIENTS_PER_PAGE + 1;
  const last = Math.min(page * RECIPIENTS_PER_PAGE, recipientCount(test));
  return (
    <nav aria-label="Pages of recipients" className="flex items-center justify-between gap-3 text-sm">
      <Button type="button" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-slate-600" aria-live="polite">
        Recipients {first}–{last} of {recipientCount(test)} (page {page} of {pages})
      </span>
      <Button type="button" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
