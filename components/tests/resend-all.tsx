"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import { queryKeys } from "@/components/query-keys";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { resendAllContracts } from "@/lib/certification/tests/contracts";
import type { TestView } from "@/lib/certification/tests/schemas";
import { recipientCount } from "./recipient-pages";

const people = (n: number) => (n === 1 ? "1 recipient" : `${n.toLocaleString("en")} recipients`);

/** Everyone on the test who has not completed it (not started or in progress), not only the page shown. */
export function notFinishedCount(test: TestView): number {
  return Math.max(0, recipientCount(test) - test.completed);
}

/**
 * "Resend to everyone who has not finished": one request (POST /tests/{code}/resend) e-mails
 * each of them the same personal link again, after a confirm that names how many. Nothing to
 * show once everyone has finished. The outcome (or the API's refusal, e.g. the 10-minute
 * limit per test) goes to `onNotice`.
 */
export function ResendAll({ test, onNotice }: { test: TestView; onNotice: (notice: { tone: "success" | "error"; text: string } | null) => void }) {
  const client = useQueryClient();
  const resend = useMutation({
    mutationFn: () => callApi(resendAllContracts.resendAll, { params: { code: test.code }, body: { status: "not_completed" } }),
    onMutate: () => onNotice(null),
    onSuccess: ({ queued }) => {
      onNotice({
        tone: "success",
        text: queued === 0 ? "Everyone has finished: nobody was e-mailed." : `The test was e-mailed again to ${people(queued)} who have not finished, each with their same personal link.`,
      });
      client.invalidateQueries({ queryKey: queryKeys.test(test.code) });
    },
    onError: (error) => onNotice({ tone: "error", text: error.message }),
  });
  const count = notFinishedCount(test);
  if (count === 0) return null;
  return (
    <ConfirmButton
      variant="secondary"
      data-testid="resend-all"
      disabled={resend.isPending}
      question={`E-mail the test again to the ${people(count)} who have not finished, each with their same personal link? This can be done once every 10 minutes per test.`}
      onConfirm={() => resend.mutate()}
    >
      {resend.isPending ? "Sending…" : "Resend to everyone who has not finished"}
    </ConfirmButton>
  );
}
