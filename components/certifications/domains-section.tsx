"use client";

import type { ReactNode } from "react";
import { callApi } from "@/components/api";
import { fieldLabel } from "@/components/forms/field-labels";
import { FormErrors } from "@/components/forms/form-errors";
import { TextInput } from "@/components/forms/inputs";
import { SubmitButton } from "@/components/forms/submit-button";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { plural } from "@/components/tests/format";
import { Card } from "@/components/ui/card";
import type { CertificationDetail } from "@/lib/certification/catalog/schemas";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import { domainNameInput, type DomainNameInput } from "@/lib/certification/own/schemas";
import { useCertificationRefresh } from "./use-certification-refresh";

/** An own certification's domains: each one renamed in place, and a new one added below. */
export function DomainsSection({ certification }: { certification: CertificationDetail }) {
  const refresh = useCertificationRefresh(certification.id);
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
              save={(body) => callApi(ownCertificationContracts.renameDomain, { params: { id: certification.id, domain_id: domain.id }, body })}
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
          save={(body) => callApi(ownCertificationContracts.addDomain, { params: { id: certification.id }, body })}
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
