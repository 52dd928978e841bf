"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { useState } from "react";
import { callApi } from "@/components/api";
import { errorAt } from "@/components/forms/field";
import { FormErrors } from "@/components/forms/form-errors";
import { showServerErrors, useApiForm } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { BackLink } from "@/components/ui/back-link";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { NotLoaded } from "@/components/ui/not-loaded";
import { urlOf } from "@/lib/kernel/contract";
import { queryKeys } from "@/components/query-keys";
import { testContracts } from "@/lib/certification/tests/contracts";
import type { AddRecipientsInput, RecipientView, TestView } from "@/lib/certification/tests/schemas";
import { addRecipientsSchema } from "./add-recipients-schema";
import { AnswerSheet } from "./answer-sheet";
import { Bar, StatusBadge } from "./bars";
import { EmailDeliveryStatus, isEmailProblem } from "./email-delivery";
import { formatDateTime } from "@/components/format/date";
import { formatPercent, plural } from "./format";
import { parseRecipients } from "./parse-recipients";
import { QuestionAnalysis } from "./question-analysis";
import { RecipientsInput } from "./recipients-input";
import { StackedHead, StackedLabel } from "./stacked-head";
import { panelClass, stacked } from "./stacked-table";
import { TestSettingsSummary } from "./test-settings-summary";
import { useUsage } from "./usage";
import { insightContracts } from "@/lib/certification/insight/contracts";


/**
 * One test: its header, every recipient with status, progress, result and per-domain bars,
 * personal links, resend and their answer sheet, the question analysis, more recipients, and
 * the CSV export. While anyone has not completed, it refreshes every 3 s.
 */
export function TestDetail({ code, initial }: { code: string; initial?: TestView }) {
  const test = usePageQuery({
    queryKey: queryKeys.test(code),
    queryFn: () => callApi(testContracts.get, { params: { code } }),
    initial,
    refetchInterval: (query) => (query.state.data?.recipients.some((r) => r.status !== "completed") ? 3_000 : false),
  });
  const [sheetFor, setSheetFor] = useState<number | null>(null);

  if (!test.data) return <NotLoaded query={test} failure="This test could not be loaded." />;
  const data = test.data;

  return (
    <div className="space-y-6">
      <TestHeader test={data} />
      <Recipients test={data} onOpenSheet={setSheetFor} />
      {sheetOf(data, sheetFor) ? <AnswerSheet code={data.code} recipient={sheetOf(data, sheetFor)!} onClose={() => setSheetFor(null)} /> : null}
      <QuestionAnalysis code={data.code} completed={data.completed} />
      <AddRecipients test={data} />
    </div>
  );
}

const sheetOf = (test: TestView, recipientId: number | null) => test.recipients.find((r) => r.id === recipientId);

function TestHeader({ test }: { test: TestView }) {
  const total = test.recipients.length;
  return (
    <div>
      <BackLink href="/tests">All tests</BackLink>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words" data-testid="test-name">
            {test.name}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            <span data-testid="test-certification">{test.certification}</span> · test{" "}
            <span data-testid="test-code" className="font-mono">
              {test.code}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`/tests/new?copy=${test.code}`} className={buttonClass("secondary")} data-testid="copy-test">
            Copy<span className="sr-only"> this test with its settings</span>
          </Link>
          <a href={urlOf(insightContracts.exportCsv, { code: test.code })} download className={buttonClass("secondary")} data-testid="export-csv">
            Export CSV
          </a>
        </div>
      </div>
      <Card>
        <dl className="grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs font-medium uppercase text-slate-500">Questions</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums">{test.questions}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase text-slate-500">Completed</dt>
            <dd className="mt-1">
              <span className="text-lg font-semibold tabular-nums" data-testid="test-completed">
                {`${test.completed} / ${total}`}
              </span>{" "}
              <span className="text-slate-600">completed · {test.started} started</span>
              <Bar value={test.completed} max={total} tone="green" className="mt-1 max-w-48" />
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase text-slate-500">Created</dt>
            <dd className="mt-1">{formatDateTime(test.created_at)}</dd>
            {test.class_id ? (
              <dd className="mt-1 text-slate-600">
                Sent to a{" "}
                <Link href={`/classes/${test.class_id}`} className="text-brand-700 underline">
                  class
                </Link>
              </dd>
            ) : null}
          </div>
          <div className="sm:col-span-3">
            <dt className="text-xs font-medium uppercase text-slate-500">Settings</dt>
            <dd className="mt-1">
              <TestSettingsSummary test={test} />
            </dd>
          </div>
          <div className="sm:col-span-3">
            <dt className="text-xs font-medium uppercase text-slate-500">Domains</dt>
            <dd className="mt-1">
              <ul className="flex flex-wrap gap-2">
                {test.domains.map((domain) => (
                  <li key={domain.id} className="rounded-md bg-slate-100 px-2 py-1 text-slate-700" data-testid="test-domain">
                    {domain.name} <span className="text-slate-600">· {plural(domain.questions, "question")}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      </Card>
    </div>
  );
}

function Recipients({ test, onOpenSheet }: { test: TestView; onOpenSheet: (recipientId: number) => void }) {
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
      <h2 id="recipients-heading" className="text-lg font-semibold">
        Recipients <span className="text-sm font-normal text-slate-500">({test.recipients.length})</span>
      </h2>
      <EmailProblems count={test.recipients.filter((r) => isEmailProblem(r.email_delivery)).length} />
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
            {test.recipients.map((recipient) => {
              const resending = resend.isPending && resend.variables?.id === recipient.id;
              return (
                <tr
                  key={recipient.id}
                  role="row"
                  data-testid="recipient-row"
                  data-email={recipient.email}
                  data-status={recipient.status}
                  data-email-status={recipient.email_delivery.status}
                  className={`${stacked.row} grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-3 px-4 py-4 align-top md:p-0`}
                >
                  <th scope="row" role="rowheader" className={`${stacked.cell} font-normal md:max-w-56`}>
                    {recipient.name ? <span className="block font-medium">{recipient.name}</span> : null}
                    <span className={`block [overflow-wrap:anywhere] ${recipient.name ? "text-slate-600" : "font-medium"}`}>
                      {recipient.email}
                    </span>
                  </th>
                  <td role="cell" className={`${stacked.cell} text-right md:text-left`}>
                    <StatusBadge status={recipient.status} />
                    <span className="mt-1 block whitespace-nowrap text-xs text-slate-500">
                      {recipient.status === "completed"
                        ? formatDateTime(recipient.completed_at)
                        : recipient.status === "started"
                          ? formatDateTime(recipient.started_at)
                          : formatDateTime(recipient.sent_at)}
                    </span>
                    {recipient.status === "started" ? (
                      <span className="mt-1 block text-xs text-slate-600" data-testid="recipient-answered">
                        {recipient.answered} of {test.questions} answered
                        <Bar value={recipient.answered} max={test.questions} className="mt-0.5 max-w-32 md:ml-0 max-md:ml-auto" />
                      </span>
                    ) : null}
                    {recipient.status === "sent" || isEmailProblem(recipient.email_delivery) ? (
                      <span className="mt-2 block">
                        <EmailDeliveryStatus delivery={recipient.email_delivery} correct="Add the corrected address under “Add recipients”." />
                      </span>
                    ) : null}
                  </td>
                  <td role="cell" className={`${stacked.cell} col-span-2 whitespace-nowrap`}>
                    {recipient.result ? (
                      <>
                        <StackedLabel>Result</StackedLabel>
                        <span data-testid="recipient-percent" className="text-lg font-semibold tabular-nums">
                          {formatPercent(recipient.result.percent)}
                        </span>
                        <span className="ml-2 text-xs text-slate-500 md:ml-0 md:block">
                          {recipient.result.correct} of {recipient.result.questions} correct
                        </span>
                        {recipient.result.passed === null ? null : (
                          <span className="ml-2 md:ml-0 md:mt-1 md:block" data-testid="recipient-passed" data-passed={String(recipient.result.passed)}>
                            <Badge tone={recipient.result.passed ? "success" : "danger"}>{recipient.result.passed ? "Passed" : "Not passed"}</Badge>
                          </span>
                        )}
                      </>
                    ) : (
                      <span className="text-slate-400 max-md:hidden">
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">No result yet</span>
                      </span>
                    )}
                  </td>
                  <td role="cell" className={`${stacked.cell} col-span-2 ${recipient.result ? "" : "max-md:hidden"}`}>
                    {recipient.result ? (
                      <ul className="space-y-1.5 md:min-w-48" aria-label={`Results by domain for ${recipient.email}`}>
                        {recipient.result.domains.map((domain) => (
                          <li
                            key={domain.id}
                            data-testid="domain-bar"
                            data-domain={domain.name}
                            data-domain-id={domain.id}
                            data-percent={domain.percent}
                          >
                            <span className="flex justify-between gap-2 text-xs">
                              <span className="min-w-0 text-slate-700">{domain.name}</span>
                              <span className="shrink-0 tabular-nums text-slate-600">
                                {formatPercent(domain.percent)}
                                <span className="sr-only">
                                  {" "}
                                  ({domain.correct} of {domain.questions} correct)
                                </span>
                              </span>
                            </span>
                            <Bar value={domain.percent} className="mt-0.5" />
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="text-slate-400">
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">No result yet</span>
                      </span>
                    )}
                  </td>
                  <td role="cell" className={`${stacked.cell} col-span-2`}>
                    <div className="flex flex-wrap gap-2 md:justify-end">
                      {recipient.status !== "sent" || recipient.answered > 0 ? (
                        <Button type="button" variant="secondary" onClick={() => onOpenSheet(recipient.id)} data-testid="open-answer-sheet">
                          Answers<span className="sr-only"> of {recipient.email}</span>
                        </Button>
                      ) : null}
                      <CopyButton value={recipient.link} label="Copy link" target={recipient.email} />
                      <Button
                        type="button"
                        variant="secondary"
                        disabled={recipient.status === "completed" || resending}
                        title={recipient.status === "completed" ? "Completed: nothing to resend" : "E-mail the same personal link again"}
                        onClick={() => resend.mutate(recipient)}
                      >
                        {resending ? "Sending…" : "Resend"}
                        <span className="sr-only"> to {recipient.email}</span>
                      </Button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
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

function AddRecipients({ test }: { test: TestView }) {
  const client = useQueryClient();
  const usage = useUsage();
  const [added, setAdded] = useState<{ count: number; emailed: boolean } | null>(null);
  const form = useApiForm(addRecipientsSchema, { defaultValues: { recipientsText: "", send_email: true } });
  const text = form.watch("recipientsText");
  const parsed = parseRecipients(text);
  const sent = parsed.recipients;

  const add = useMutation({
    mutationFn: (body: AddRecipientsInput) => callApi(testContracts.addRecipients, { params: { code: test.code }, body }),
    onMutate: () => setAdded(null),
    onSuccess: (result, body) => {
      setAdded({ count: result.data.length, emailed: body.send_email !== false });
      form.reset({ recipientsText: "", send_email: body.send_email !== false });
      client.invalidateQueries({ queryKey: queryKeys.tests() });
    },
    onError: (error) => showServerErrors(form, error),
  });

  const seats = usage.data?.limits.seats;
  const used = test.recipients.length;
  const seatsNote =
    seats !== undefined
      ? `${used} of ${seats} seats used (${seats} recipients per test on the ${usage.data!.plan} plan)${used + sent.length > seats ? ": too many" : ""}`
      : undefined;
  const recipientName = (list: string, index: number) => (list === "recipients" ? sent[index]?.email : undefined);

  return (
    <Card>
      <h2 className="font-semibold">Add recipients</h2>
      <form className="mt-4 space-y-4" noValidate onSubmit={form.handleSubmit((body) => add.mutate(body))}>
        <RecipientsInput
          id="add-recipients"
          value={text}
          onChange={(value) => form.setValue("recipientsText", value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          parsed={parsed}
          error={errorAt(form.formState.errors, "recipients", recipientName)}
          seatsNote={seatsNote}
        />
        <div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" aria-describedby="add-send-email-hint" {...form.register("send_email")} />
            Send e-mails
          </label>
          <p id="add-send-email-hint" className="ml-6 text-xs text-slate-500">
            Unticked: nothing is e-mailed; copy each personal link from the table above.
          </p>
        </div>
        <FormErrors errors={form.formState.errors} itemName={recipientName} />
        {added ? (
          <Notice tone="success">
            Added {plural(added.count, "recipient")}. {added.emailed ? "Their e-mails are on the way." : "No e-mail was sent: copy their links above."}
          </Notice>
        ) : null}
        <SubmitButton pending={add.isPending} pendingLabel="Adding…">
          Add recipients
        </SubmitButton>
      </form>
    </Card>
  );
}
