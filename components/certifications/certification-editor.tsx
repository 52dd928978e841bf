"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { fetchJson } from "@/components/fetch-json";
import { plural } from "@/components/tests/format";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, Notice, PageHeader } from "@/components/ui/card";
import { inputClass, TextField } from "@/components/ui/field";
import type { QuestionView } from "@/lib/certification/manage-schemas";
import type { CertificationDetail, DomainView } from "@/lib/certification/schemas";
import { queryKeys } from "@/lib/query-keys";
import { CsvImport } from "./csv-import";
import { certificationFieldLabel } from "./labels";
import { draftOf, emptyQuestion, letter, QuestionForm, type QuestionDraft } from "./question-form";

const base = "/api/app/my-certifications";

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
  const certification = useQuery({
    queryKey: queryKeys.ownCertification(id),
    queryFn: () => fetchJson<CertificationDetail>(`${base}/${id}`),
    initialData: initial,
  });
  const questions = useQuery({
    queryKey: queryKeys.ownQuestions(id),
    queryFn: () => fetchJson<{ data: QuestionView[] }>(`${base}/${id}/questions`).then((body) => body.data),
  });
  const data = certification.data;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/certifications" className="text-brand-700 underline-offset-2 hover:underline">
          ← All certifications
        </Link>
      </p>
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
  const [fields, setFields] = useState({
    name: certification.name,
    vendor: certification.vendor,
    code: certification.code,
    description: certification.description,
  });
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => fetchJson<CertificationDetail>(`${base}/${certification.id}`, { method: "PATCH", body: JSON.stringify(fields) }),
    onMutate: () => setSaved(false),
    onSuccess: (updated) => {
      setSaved(true);
      client.setQueryData(queryKeys.ownCertification(certification.id), updated);
      refresh();
    },
  });
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) => {
    setSaved(false);
    setFields((current) => ({ ...current, [name]: event.target.value }));
  };

  return (
    <Card>
      <h2 className="font-semibold">Details</h2>
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <TextField label="Name" id="edit-name" value={fields.name} onChange={set("name")} required maxLength={200} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Vendor" id="edit-vendor" value={fields.vendor} onChange={set("vendor")} required maxLength={100} />
          <TextField label="Exam code (optional)" id="edit-code" value={fields.code} onChange={set("code")} maxLength={50} />
        </div>
        <div className="space-y-1">
          <label htmlFor="edit-description" className="block text-sm font-medium text-slate-700">
            Description <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <textarea id="edit-description" className={`${inputClass} min-h-20`} value={fields.description} maxLength={2000} onChange={set("description")} />
        </div>
        {save.error ? <RequestErrorNotice error={save.error} label={(field) => certificationFieldLabel(field)} /> : null}
        {saved ? <Notice tone="success">Details saved.</Notice> : null}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save details"}
        </Button>
      </form>
    </Card>
  );
}

function DomainsSection({ certification }: { certification: CertificationDetail }) {
  const refresh = useRefresh(certification.id);
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: () => fetchJson<DomainView>(`${base}/${certification.id}/domains`, { method: "POST", body: JSON.stringify({ name }) }),
    onSuccess: () => {
      setName("");
      refresh();
    },
  });

  return (
    <Card>
      <h2 className="font-semibold">Domains</h2>
      <p className="mt-1 text-sm text-slate-600">A test draws its questions from the domains the trainer picks. Renaming does not change tests already sent.</p>
      <ul className="mt-4 space-y-3">
        {certification.domains.map((domain, index) => (
          <DomainRow key={domain.id} domain={domain} position={index + 1} certificationId={certification.id} />
        ))}
      </ul>
      <form
        className="mt-5 flex flex-wrap items-end gap-2 border-t border-slate-100 pt-4"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <div className="min-w-0 flex-1 basis-48">
          <TextField label="New domain" id="new-domain" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </div>
        <Button type="submit" variant="secondary" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add domain"}
        </Button>
      </form>
      {add.error ? (
        <div className="mt-3">
          <RequestErrorNotice error={add.error} label={(field) => certificationFieldLabel(field)} />
        </div>
      ) : null}
    </Card>
  );
}

function DomainRow({ domain, position, certificationId }: { domain: DomainView; position: number; certificationId: number }) {
  const refresh = useRefresh(certificationId);
  const [name, setName] = useState(domain.name);
  const rename = useMutation({
    mutationFn: () => fetchJson<DomainView>(`${base}/domains/${domain.id}`, { method: "PATCH", body: JSON.stringify({ name }) }),
    onSuccess: () => refresh(),
  });
  const changed = name.trim() !== domain.name;

  return (
    <li data-testid="domain-row" data-domain={domain.name}>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate();
        }}
      >
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor={`domain-${domain.id}`} className="block text-sm font-medium text-slate-700">
            Domain {position} <span className="font-normal text-slate-500">· {plural(domain.questions, "question")}</span>
          </label>
          <input id={`domain-${domain.id}`} className={inputClass} value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
        </div>
        <Button type="submit" variant="secondary" disabled={!changed || rename.isPending} aria-label={`Rename domain ${domain.name}`}>
          {rename.isPending ? "Saving…" : "Rename"}
        </Button>
      </form>
      {rename.error ? (
        <div className="mt-2">
          <RequestErrorNotice error={rename.error} label={(field) => certificationFieldLabel(field)} />
        </div>
      ) : null}
    </li>
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
  const [formKey, setFormKey] = useState(0);
  const [added, setAdded] = useState(false);
  const add = useMutation({
    mutationFn: (draft: QuestionDraft) => fetchJson<QuestionView>(`${base}/domains/${domainId}/questions`, { method: "POST", body: JSON.stringify(draft) }),
    onMutate: () => setAdded(false),
    onSuccess: () => {
      setAdded(true);
      setFormKey((k) => k + 1);
      client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certification.id) });
      refresh();
    },
  });

  return (
    <>
      <Card>
        <h2 className="font-semibold">Add a question</h2>
        {certification.domains.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Add a domain first.</p>
        ) : (
          <div className="mt-4">
            {added ? (
              <div className="mb-4">
                <Notice tone="success">Question added.</Notice>
              </div>
            ) : null}
            <QuestionForm key={formKey} idPrefix="new-question" initial={emptyQuestion} submitLabel="Add question" pending={add.isPending} error={add.error} onSubmit={(draft) => add.mutate(draft)}>
              <div className="space-y-1">
                <label htmlFor="new-question-domain" className="block text-sm font-medium text-slate-700">
                  Domain
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
  const update = useMutation({
    mutationFn: (draft: QuestionDraft) => fetchJson<QuestionView>(`${base}/questions/${question.id}`, { method: "PATCH", body: JSON.stringify(draft) }),
    onSuccess: (updated) => {
      client.setQueryData<QuestionView[]>(queryKeys.ownQuestions(certificationId), (list) => list?.map((q) => (q.id === updated.id ? updated : q)));
      setEditing(false);
      done();
    },
  });
  const remove = useMutation({
    mutationFn: () => fetchJson(`${base}/questions/${question.id}`, { method: "DELETE" }),
    onSuccess: done,
  });

  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="question-row" data-question-id={question.id}>
      {editing ? (
        <QuestionForm
          idPrefix={`question-${question.id}`}
          initial={draftOf(question)}
          submitLabel="Save question"
          pending={update.isPending}
          error={update.error}
          onSubmit={(draft) => update.mutate(draft)}
          onCancel={() => {
            update.reset();
            setEditing(false);
          }}
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
            <Button
              type="button"
              variant="danger"
              disabled={remove.isPending}
              aria-describedby={`question-${question.id}-prompt`}
              onClick={() => {
                if (confirm("Delete this question? Tests already sent keep their copy.")) remove.mutate();
              }}
            >
              {remove.isPending ? "Deleting…" : "Delete"}
            </Button>
          </div>
          {remove.error ? (
            <div className="mt-2">
              <RequestErrorNotice error={remove.error} />
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}
