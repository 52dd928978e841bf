"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { showServerErrors, submitWithDates, useApiForm } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { certificationContracts } from "@/lib/certification/catalog/contracts";
import { queryKeys } from "@/components/query-keys";
import { testContracts } from "@/lib/certification/tests/contracts";
import type { CreateTestInput } from "@/lib/certification/tests/schemas";
import { parseRecipients } from "../parse-recipients";
import { CertificationStep } from "./certification-step";
import { classCertificationNote, useClassCertification } from "./class-certification";
import { DomainsStep } from "./domains-step";
import { useLinkedCertification } from "./linked-certification";
import { QuestionsStep } from "./questions-step";
import { RecipientsStep } from "./recipients-step";
import { defaultSettings, newTestSchema, type NewTestValues } from "./schema";
import { SettingsStep } from "./settings-step";

/**
 * A new test in steps: 1. certification, 2. domains, 3. questions, 4. recipients (people or a
 * class), 5. settings (optional), then create. The form is checked in the browser with the contract's schema and
 * the server's own creation rules; what only the server knows (seats, available questions)
 * comes back beside the same fields. `initialClassId` preselects "send to a class" (the class
 * page links here with ?class=); `copy` starts from another test's setup (its Copy button,
 * ?copy=CODE: `copyOf` in ./schema.ts); ?certification=ID (a certification's "Create a test")
 * picks that certification and ticks its domains, as a click on it would.
 */
export function NewTestForm({ initialClassId, copy }: { initialClassId?: string; copy?: Partial<NewTestValues> } = {}) {
  const router = useRouter();
  const client = useQueryClient();
  const form = useApiForm(newTestSchema, {
    defaultValues: {
      certification_id: undefined,
      domains: [],
      questionMode: "equal",
      questions: "10",
      perDomain: {},
      recipientMode: initialClassId ? "class" : "people",
      recipientsText: "",
      class_id: initialClassId ?? "",
      send_email: true,
      ...defaultSettings,
      ...copy,
    } satisfies NewTestValues,
  });
  const certificationId = form.watch("certification_id");
  const certification = useQuery({
    queryKey: queryKeys.certification(certificationId ?? 0),
    queryFn: () => callApi(certificationContracts.get, { params: { id: certificationId! } }),
    enabled: certificationId !== undefined,
  });
  const domains = certification.data?.domains ?? [];

  /** A new certification: its domains that have questions are ticked, each with a count of its own to start from. */
  async function chooseCertification(id: number) {
    form.setValue("certification_id", id, { shouldDirty: true });
    form.setValue("domains", []);
    form.clearErrors();
    const detail = await client.fetchQuery({
      queryKey: queryKeys.certification(id),
      queryFn: () => callApi(certificationContracts.get, { params: { id } }),
    });
    if (form.getValues("certification_id") !== id) return;
    form.setValue("domains", detail.domains.filter((d) => d.questions > 0).map((d) => d.id));
    form.setValue("perDomain", Object.fromEntries(detail.domains.map((d) => [String(d.id), String(Math.min(5, d.questions))])));
  }

  const chosenClass = useClassCertification(form, chooseCertification);
  useLinkedCertification(form, chooseCertification, Boolean(copy || initialClassId));

  const create = useMutation({
    mutationFn: (body: CreateTestInput) => callApi(testContracts.create, { body }),
    onSuccess: (test) => {
      client.invalidateQueries({ queryKey: queryKeys.tests() });
      client.setQueryData(queryKeys.test(test.code), test);
      router.push(`/tests/${test.code}`);
    },
    onError: (error) => showServerErrors(form, error),
  });

  const recipientName = (list: string, index: number) =>
    list === "recipients" ? parseRecipients(form.getValues("recipientsText")).recipients[index]?.email : list === "domains" || list === "questions_per_domain" ? domains.find((d) => d.id === form.getValues("domains")[index])?.name : undefined;

  return (
    <form className="space-y-6" noValidate onSubmit={submitWithDates(form, (body) => create.mutate(body))}>
      <CertificationStep form={form} onChoose={chooseCertification} note={classCertificationNote(chosenClass, certificationId)} />
      <DomainsStep form={form} domains={domains} loading={certification.isLoading && certificationId !== undefined} error={certification.error?.message} />
      <QuestionsStep form={form} domains={domains} />
      <RecipientsStep form={form} />
      <SettingsStep form={form} certification={certification.data?.name} />
      <div className="space-y-3">
        <FormErrors errors={form.formState.errors} itemName={recipientName} />
        <SubmitButton pending={create.isPending} disabled={create.isSuccess} pendingLabel="Creating…">
          {create.isSuccess ? "Opening the test…" : "Create test"}
        </SubmitButton>
      </div>
    </form>
  );
}
