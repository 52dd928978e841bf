"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { fieldLabel } from "@/components/forms/field-labels";
import { queryKeys } from "@/components/query-keys";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import type { CertificationDetail } from "@/lib/certification/catalog/schemas";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import { emptyQuestion } from "./certification-forms";
import { QuestionForm } from "./question-form";
import { useCertificationRefresh } from "./use-certification-refresh";

/** A new question for one of the certification's domains (a domain comes first). */
export function AddQuestion({ certification }: { certification: CertificationDetail }) {
  const client = useQueryClient();
  const refresh = useCertificationRefresh(certification.id);
  const [chosenDomain, setDomainId] = useState("");
  const domainId = certification.domains.some((d) => String(d.id) === chosenDomain) ? chosenDomain : String(certification.domains[0]?.id ?? "");
  // A new form (a new key) after each question added.
  const [added, setAdded] = useState(0);

  return (
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
            save={(body) => callApi(ownCertificationContracts.addQuestion, { params: { id: certification.id, domain_id: Number(domainId) }, body })}
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
  );
}
