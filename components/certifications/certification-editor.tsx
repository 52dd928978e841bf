"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { callApi } from "@/components/api";
import { fieldLabel } from "@/components/forms/field-labels";
import { FormErrors } from "@/components/forms/form-errors";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { plural } from "@/components/tests/format";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { BackLink } from "@/components/ui/back-link";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, Notice, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { inputClass } from "@/components/ui/field";
import { manageCertificationContracts } from "@/lib/certification/own/contracts";
import {
  domainNameInput,
  updateCertificationInput,
  type DomainNameInput,
  type QuestionView,
  type UpdateCertificationInput,
} from "@/lib/certification/own/schemas";
import type { CertificationDetail } from "@/lib/certification/catalog/schemas";
import { queryKeys } from "@/components/query-keys";
import { CertificationFields } from "./certification-fields";
import { emptyQuestion, questionValuesOf } from "./certification-forms";
import { CsvImport } from "./csv-import";
import { letter, QuestionForm } from "./question-form";

/** Invalidates everything that shows this certification's fields, domains or questions. */
function useRefresh(id: number) {
  const client = useQueryClient();
  return () => {
    client.invalidateQueries({ queryKey: queryKeys.ownCertification(id) });
    client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
    client.invalidateQueries({ queryKey: queryKeys.certification(id) });
  };
}

/** The editor of an own certification: fields, domains, questions and CSV import. */
export function CertificationEditor({ id, initial }: { id: number; initial: CertificationDetail }) {
  const certification = usePageQuery({
    queryKey: queryKeys.ownCertification(id),
    queryFn: () => callApi(manageCertificationContracts.get, { params: { id } }),
    initial,
  });
  const questions = useQuery({
    queryKey: queryKeys.ownQuestions(id),
    queryFn: () => callApi(manageCertificationContracts.questions, { params: { id } }).then((body) => body.data),
  });
  const data = certification.data;

  return (
    <>
      <BackLink href="/certifications">All certifications</BackLink>
      <PageHeader
        title={data.name}
        description={`${data.vendor}${data.code ? ` · ${data.code}` : ""} · ${plural(data.domains.length, "domain")} · ${plural(data.questions, "question")}. Tests already sent keep the questions they were sent with.`}
        actions={
          <Link href="/tests/new" className={buttonClass("secondary")}>
            Create a test
          </Link>
        }
      />
      <div className="space-y-6">
        <DetailsForm certification={data} />
        <DomainsSection certification={data} />
        <QuestionsSection certification={data} questions={questions.data} loading={questions.isLoading} error={questions.error} />
        <CsvImport certificationId={data.id} />
      </div>
    </>
  );
}

function DetailsForm({ certification }: { certification: CertificationDetail }) {
  const client = useQueryClient();
  const refresh = useRefresh(certification.id);
  const form = useApiForm(updateCertificationInput, {
    defaultValues: { name: certification.name, vendor: certification.vendor, code: certification.code, description: certification.description },
  });
  const save = useFormMutation(form, {
    mutationFn: (body: UpdateCertificationInput) => callApi(manageCertificationContracts.update, { params: { id: certification.id }, body }),
    onSuccess: (updated, body) => {
      form.reset(body);
      client.setQueryData(queryKeys.ownCertification(certification.id), updated);
      refresh();
    },
  });

  return (
    <Card>
      <h2 className="font-semibold">Details</h2>
      <form className="mt-4 space-y-4" noValidate onSubmit={form.handleSubmit((body) => save.mutate(body))}>
        <CertificationFields form={form} idPrefix="edit" />
        <FormErrors errors={form.formState.errors} />
        {save.isSuccess && !form.formState.isDirty ? <Notice tone="success">Details saved.</Notice> : null}
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save details
        </SubmitButton>
      </form>
    </Card>
  );
}

function DomainsSection({ certification }: { certification: CertificationDetail }) {
  const refresh = useRefresh(certification.id);
  const count = certification.domains.length;
  return (
    <Card>
      <h2 className="font-semibold">Domains</h2>
      <p className="mt-1 text-sm text-slate-600">A test draws its questions from the domains the trainer picks. Renaming does not change tests already sent.</p>
      <ul className="mt-4 space-y-3">
        {certification.domains.map((domain, index) => (
          <li key={domain.id} data-testid="domain-row" data-domain={domain.name}>
            <DomainNameForm
              id={`domain-${domain.id}`}
              label={
                <>
                  {fieldLabel(`domains.${index}`)} <span className="font-normal text-slate-500">· {plural(domain.questions, "question")}</span>
                </>
              }
              current={domain.name}
              submitLabel="Rename"
              buttonLabel={`Rename domain ${domain.name}`}
              save={(body) => callApi(manageCertificationContracts.renameDomain, { params: { domain_id: domain.id }, body })}
              onSaved={refresh}
            />
          </li>
        ))}
      </ul>
      <div className="mt-5 border-t border-slate-100 pt-4">
        <DomainNameForm
          id="new-domain"
          label={`${fieldLabel(`domains.${count}`)} (new)`}
          submitLabel="Add domain"
          save={(body) => callApi(manageCertificationContracts.addDomain, { params: { id: certification.id }, body })}
          onSaved={refresh}
        />
      </div>
    </Card>
  );
}

/**
 * A domain's name: a new domain's (`current` absent: the field empties once added) or an
 * existing one's (renaming is offered once the name changed).
 */
function DomainNameForm({
  id,
  label,
  current,
  submitLabel,
  buttonLabel,
  save,
  onSaved,
}: {
  id: string;
  label: ReactNode;
  current?: string;
  submitLabel: string;
  buttonLabel?: string;
  save: (body: DomainNameInput) => Promise<unknown>;
  onSaved: () => void;
}) {
  const form = useApiForm(domainNameInput, { defaultValues: { name: current ?? "" } });
  const mutation = useFormMutation(form, {
    mutationFn: save,
    onSuccess: (_result, body) => {
      form.reset(current === undefined ? { name: "" } : body);
      onSaved();
    },
  });
  const unchanged = current !== undefined && form.watch("name").trim() === current;

  return (
    <form className="space-y-2" noValidate onSubmit={form.handleSubmit((body) => mutation.mutate(body))}>
      <div className="flex flex-wrap items-start gap-2">
        <TextInput form={form} name="name" id={id} label={label} className="min-w-0 flex-1 basis-48 space-y-1" required maxLength={200} />
        <SubmitButton variant="secondary" className="mt-6" pending={mutation.isPending} disabled={unchanged} pendingLabel="Saving…" aria-label={buttonLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
      <FormErrors errors={form.formState.errors} />
    </form>
  );
}

function QuestionsSection({
  certification,
  questions,
  loading,
  error,
}: {
  certification: CertificationDetail;
  questions?: QuestionView[];
  loading: boolean;
  error: Error | null;
}) {
  const client = useQueryClient();
  const refresh = useRefresh(certification.id);
  const [chosenDomain, setDomainId] = useState("");
  const domainId = certification.domains.some((d) => String(d.id) === chosenDomain) ? chosenDomain : String(certification.domains[0]?.id ?? "");
  // A new form (a new key) after each question added.
  const [added, setAdded] = useState(0);

  return (
    <>
      <Card>
        <h2 className="font-semibold">Add a question</h2>
        {certification.domains.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Add a domain first.</p>
        ) : (
          <div className="mt-4">
            {added > 0 ? (
              <div className="mb-4">
                <Notice tone="success">Question added.</Notice>
              </div>
            ) : null}
            <QuestionForm
              key={added}
              idPrefix="new-question"
              initial={emptyQuestion}
              submitLabel="Add question"
              save={(body) => callApi(manageCertificationContracts.addQuestion, { params: { domain_id: Number(domainId) }, body })}
              onSaved={() => {
                setAdded((count) => count + 1);
                client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certification.id) });
                refresh();
              }}
            >
              <div className="space-y-1">
                <label htmlFor="new-question-domain" className="block text-sm font-medium text-slate-700">
                  {fieldLabel("domain_id")}
                </label>
                <select id="new-question-domain" className={inputClass} value={domainId} required onChange={(e) => setDomainId(e.target.value)}>
                  {certification.domains.map((domain) => (
                    <option key={domain.id} value={domain.id}>
                      {domain.name}
                    </option>
                  ))}
                </select>
              </div>
            </QuestionForm>
          </div>
        )}
      </Card>

      <Card>
        <h2 className="font-semibold">Questions ({certification.questions})</h2>
        {loading ? <p className="mt-2 text-sm text-slate-600">Loading…</p> : null}
        {error && !questions ? (
          <div className="mt-2">
            <Notice tone="error">{error.message}</Notice>
          </div>
        ) : null}
        {questions ? (
          <div className="mt-4 space-y-6">
            {certification.domains.map((domain) => {
              const inDomain = questions.filter((question) => question.domain_id === domain.id);
              return (
                <section key={domain.id} aria-labelledby={`questions-of-${domain.id}`}>
                  <h3 id={`questions-of-${domain.id}`} className="text-sm font-semibold text-slate-800">
                    {domain.name} <span className="font-normal text-slate-500">· {plural(inDomain.length, "question")}</span>
                  </h3>
                  {inDomain.length === 0 ? (
                    <p className="mt-1 text-sm text-slate-500">No questions yet.</p>
                  ) : (
                    <ol className="mt-2 space-y-3">
                      {inDomain.map((question, index) => (
                        <QuestionItem key={question.id} question={question} number={index + 1} certificationId={certification.id} />
                      ))}
                    </ol>
                  )}
                </section>
              );
            })}
          </div>
        ) : null}
      </Card>
    </>
  );
}

function QuestionItem({ question, number, certificationId }: { question: QuestionView; number: number; certificationId: number }) {
  const client = useQueryClient();
  const refresh = useRefresh(certificationId);
  const [editing, setEditing] = useState(false);
  const done = () => {
    client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certificationId) });
    refresh();
  };
  const remove = useMutation({
    mutationFn: () => callApi(manageCertificationContracts.deleteQuestion, { params: { question_id: question.id } }),
    onSuccess: done,
  });

  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="question-row" data-question-id={question.id}>
      {editing ? (
        <QuestionForm
          idPrefix={`question-${question.id}`}
          initial={questionValuesOf(question)}
          submitLabel="Save question"
          save={(body) => callApi(manageCertificationContracts.updateQuestion, { params: { question_id: question.id }, body })}
          onSaved={() => {
            setEditing(false);
            done();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <p id={`question-${question.id}-prompt`} className="whitespace-pre-line text-sm font-medium">
            <span className="text-slate-500">{number}. </span>
            {question.prompt}
          </p>
          <ul className="mt-2 space-y-1 text-sm">
            {question.options.map((option, index) => (
              <li key={index} className={index === question.correct ? "font-medium text-green-800" : "text-slate-700"}>
                <span aria-hidden="true">{letter(index)}. </span>
                {option}
                {index === question.correct ? (
                  <span className="ml-2 rounded bg-green-50 px-1.5 py-0.5 text-xs ring-1 ring-inset ring-green-200">Correct</span>
                ) : null}
              </li>
            ))}
          </ul>
          {question.explanation ? <p className="mt-2 whitespace-pre-line text-xs text-slate-600">{question.explanation}</p> : null}
          <div className="mt-3 flex flex-wrap gap-2">
            <Button type="button" variant="secondary" onClick={() => setEditing(true)} aria-describedby={`question-${question.id}-prompt`}>
              Edit
            </Button>
            <ConfirmButton
              variant="danger"
              disabled={remove.isPending}
              aria-describedby={`question-${question.id}-prompt`}
              question={"Delete this question? Tests already sent keep their copy."}
              onConfirm={() => remove.mutate()}
            >
              {remove.isPending ? "Deleting…" : "Delete"}
            </ConfirmButton>
          </div>
          <RequestErrorNotice error={remove.error} className="mt-2" />
        </>
      )}
    </li>
  );
}
