"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { FieldLabel, TextArea } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { Card } from "@/components/ui/card";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import type { NewCertificationInput } from "@/lib/certification/own/schemas";
import { queryKeys } from "@/components/query-keys";
import { CertificationFields } from "./certification-fields";
import { domainNames, newCertificationSchema } from "./certification-forms";

/** Creates an own certification (fields and domain names), then opens its editor. */
export function NewCertificationForm() {
  const router = useRouter();
  const client = useQueryClient();
  const form = useApiForm(newCertificationSchema, { defaultValues: { name: "", vendor: "", code: "", description: "", domainsText: "" } });
  const domains = domainNames(form.watch("domainsText"));
  const domainName = (list: string, index: number) => (list === "domains" ? domains[index] : undefined);
  const create = useFormMutation(form, {
    mutationFn: (body: NewCertificationInput) => callApi(ownCertificationContracts.create, { body }),
    onSuccess: (certification) => {
      client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
      router.push(`/certifications/${certification.id}`);
    },
  });

  return (
    <Card>
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit((body) => create.mutate(body))}>
        <CertificationFields form={form} idPrefix="cert" placeholders />
        <TextArea
          form={form}
          name="domainsText"
          id="cert-domains"
          label={<FieldLabel name="domains" />}
          errorPath="domains"
          itemName={domainName}
          inputClassName="min-h-28"
          required
          placeholder={"Accounts\nBilling\nSecurity"}
          hint={`One domain per line (${domains.length} given). Add questions after creating, one by one or from a CSV file.`}
        />
        <FormErrors errors={form.formState.errors} itemName={domainName} />
        <SubmitButton pending={create.isPending} disabled={create.isSuccess} pendingLabel="Creating…">
          Create certification
        </SubmitButton>
      </form>
    </Card>
  );
}
