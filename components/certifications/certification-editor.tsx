"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { plural } from "@/components/tests/format";
import { BackLink } from "@/components/ui/back-link";
import { buttonClass } from "@/components/ui/button";
import { Card, Notice, PageHeader } from "@/components/ui/card";
import { certificationContracts } from "@/lib/certification/catalog/contracts";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import { updateCertificationInput, type QuestionView, type UpdateCertificationInput } from "@/lib/certification/own/schemas";
import type { CertificationDetail } from "@/lib/certification/catalog/schemas";
import { queryKeys } from "@/components/query-keys";
import { AddQuestion } from "./add-question";
import { CertificationFields } from "./certification-fields";
import { BankExport, BankImport } from "./bank-import";
import { DeleteCertification } from "./delete-certification";
import { DomainsSection } from "./domains-section";
import { QuestionList } from "./question-list";
import { useCertificationRefresh } from "./use-certification-refresh";

/** Every question of the certification, a page of 100 at a time (the editor lists them all). */
async function allQuestions(id: number): Promise<QuestionView[]> {
  const questions: QuestionView[] = [];
  for (let page = 1; ; page += 1) {
    const body = await callApi(ownCertificationContracts.questions, { params: { id }, query: { page, per_page: 100 } });
    questions.push(...body.data);
    if (body.data.length < 100 || questions.length >= body.pagination.total) return questions;
  }
}

/** The editor of an own certification: fields, domains, questions and CSV import. */
export function CertificationEditor({ id, initial }: { id: number; initial: CertificationDetail }) {
  const certification = usePageQuery({
    queryKey: queryKeys.ownCertification(id),
    queryFn: () => callApi(certificationContracts.get, { params: { id } }),
    initial,
  });
  const questions = useQuery({
    queryKey: queryKeys.ownQuestions(id),
    queryFn: () => allQuestions(id),
  });
  const data = certification.data;

  return (
    <>
      <BackLink href="/certifications">All certifications</BackLink>
      <PageHeader
        title={data.name}
        description={`${data.vendor}${data.code ? ` · ${data.code}` : ""} · ${plural(data.domains.length, "domain")} · ${plural(data.questions, "question")}. Tests already sent keep the questions they were sent with.`}
        actions={
          <Link href={`/tests/new?certification=${data.id}`} className={buttonClass("secondary")} data-testid="create-test-from-certification">
            Create a test
          </Link>
        }
      />
      <div className="space-y-6">
        <DetailsForm certification={data} />
        <DomainsSection certification={data} />
        <AddQuestion certification={data} />
        <QuestionList certification={data} questions={questions.data} loading={questions.isLoading} error={questions.error} />
        <BankImport certificationId={data.id} domains={data.domains} />
        <BankExport certificationId={data.id} />
        <DeleteCertification certification={data} />
      </div>
    </>
  );
}

function DetailsForm({ certification }: { certification: CertificationDetail }) {
  const client = useQueryClient();
  const refresh = useCertificationRefresh(certification.id);
  const form = useApiForm(updateCertificationInput, {
    defaultValues: { name: certification.name, vendor: certification.vendor, code: certification.code, description: certification.description },
  });
  const save = useFormMutation(form, {
    mutationFn: (body: UpdateCertificationInput) => callApi(ownCertificationContracts.update, { params: { id: certification.id }, body }),
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
