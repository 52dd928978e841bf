"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { queryKeys } from "@/components/query-keys";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";
import { testContracts } from "@/lib/certification/tests/contracts";
import type { RecipientView, TestView } from "@/lib/certification/tests/schemas";
import { isEmailProblem } from "./email-delivery";
import { RecipientPages, recipientCount } from "./recipient-pages";
import { RecipientRow } from "./recipient-row";
import { ResendAll } from "./resend-all";
import { StackedHead } from "./stacked-head";
import { panelClass, stacked } from "./stacked-table";

/** A test's recipients in a table, a page at a time, with the e-mail problems of all of them above it, the resend to all who have not finished and the outcome of a resend. */
export function Recipients({ test, onOpenSheet, page, onPage }: { test: TestView; onOpenSheet: (recipientId: number) => void; page: number; onPage: (page: number) => void }) {
  const client = useQueryClient();
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const resend = useMutation({
    mutationFn: (recipient: RecipientView) => callApi(testContracts.resend, { params: { code: test.code, id: recipient.id } }),
    onMutate: () => setNotice(null),
    onSuccess: (recipient) => {
      setNotice({ tone: "success", text: `The test was e-mailed again to ${recipient.email}, with the same personal link.` });
      client.invalidateQueries({ queryKey: queryKeys.test(test.code) });
    },
    onError: (error) => setNotice({ tone: "error", text: error.message }),
  });

  return (
    <section aria-labelledby="recipients-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="recipients-heading" className="text-lg font-semibold">
          Recipients <span className="text-sm font-normal text-slate-500">({recipientCount(test)})</span>
        </h2>
        <ResendAll test={test} onNotice={setNotice} />
      </div>
      <EmailProblems count={test.email_problems ?? test.recipients.filter((r) => isEmailProblem(r.email_delivery)).length} />
      {notice ? (
        <div className="flex items-start gap-2" data-testid="resend-notice">
          <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
            <Notice tone={notice.tone}>{notice.text}</Notice>
          </div>
          <Button type="button" variant="ghost" onClick={() => setNotice(null)} aria-label="Dismiss message">
            ×
          </Button>
        </div>
      ) : null}
      <div className={panelClass}>
        <table className={stacked.table} role="table">
          <caption className="sr-only">Recipients of test {test.code}, their status and results</caption>
          <StackedHead columns={["Recipient", "Status", "Result", "By domain", <span key="actions" className="sr-only">Actions</span>]} />
          <tbody className={stacked.body} role="rowgroup">
            {test.recipients.map((recipient) => (
              <RecipientRow
                key={recipient.id}
                code={test.code}
                recipient={recipient}
                questions={test.questions}
                resending={resend.isPending && resend.variables?.id === recipient.id}
                onResend={() => resend.mutate(recipient)}
                onOpenSheet={() => onOpenSheet(recipient.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
      <RecipientPages test={test} page={page} onPage={onPage} />
    </section>
  );
}

/** Says how many recipients' e-mails need attention, so a bounce is seen without scanning the table. */
function EmailProblems({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <div data-testid="email-problems">
      <Notice tone="error">
        {count === 1 ? "1 recipient did not get the e-mail" : `${count} recipients did not get the e-mail`} (bounced, refused or reported as spam): see the reasons
        below and correct the addresses.
      </Notice>
    </div>
  );
}
