"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { queryKeys } from "@/components/query-keys";
import { plural } from "@/components/tests/format";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { CertificationDetail } from "@/lib/certification/catalog/schemas";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import type { QuestionView } from "@/lib/certification/own/schemas";
import { questionValuesOf } from "./certification-forms";
import { letter, QuestionForm } from "./question-form";
import { useCertificationRefresh } from "./use-certification-refresh";

/** The certification's questions, domain by domain, each one edited or deleted in place. */
export function QuestionList({
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
  return (
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
  );
}

function QuestionItem({ question, number, certificationId }: { question: QuestionView; number: number; certificationId: number }) {
  const client = useQueryClient();
  const refresh = useCertificationRefresh(certificationId);
  const [editing, setEditing] = useState(false);
  const isRight = (index: number) => (typeof question.correct === "number" ? question.correct === index : question.correct.includes(index));
  const done = () => {
    client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certificationId) });
    refresh();
  };
  const remove = useMutation({
    mutationFn: () => callApi(ownCertificationContracts.deleteQuestion, { params: { id: certificationId, question_id: question.id } }),
    onSuccess: done,
  });

  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="question-row" data-question-id={question.id}>
      {editing ? (
        <QuestionForm
          idPrefix={`question-${question.id}`}
          initial={questionValuesOf(question)}
          submitLabel="Save question"
          save={(body) => callApi(ownCertificationContracts.updateQuestion, { params: { id: certificationId, question_id: question.id }, body })}
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
          <p className="mt-1 text-xs text-slate-500" data-testid="question-type">
            {typeof question.correct === "number" ? "One right answer" : `Multiple response: choose ${question.correct.length}, scored all or nothing`}
          </p>
          <ul className="mt-2 space-y-1 text-sm">
            {question.options.map((option, index) => (
              <li key={index} className={isRight(index) ? "font-medium text-green-800" : "text-slate-700"}>
                <span aria-hidden="true">{letter(index)}. </span>
                {option}
                {isRight(index) ? (
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
