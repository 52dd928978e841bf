"use client";

import { useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { Card, Notice } from "@/components/ui/card";
import { queryKeys } from "@/components/query-keys";
import { workspaceContracts } from "@/lib/platform/workspaces/contracts";
import { certificateIssuerForm, MAX_ISSUER_TEXT, type WorkspaceSettingsView } from "@/lib/platform/workspaces/schemas";

type Issuer = { organisation_name: string; certificate_signer: string };

/** Who issues and signs the workspace's certificates (tests with "Issue a certificate on a pass"): printed on certificates issued from now on. */
export function CertificateIssuerForm({ settings }: { settings: WorkspaceSettingsView }) {
  const client = useQueryClient();
  const initial = { organisation_name: settings.organisation_name, certificate_signer: settings.certificate_signer };
  const form = useApiForm(certificateIssuerForm, { defaultValues: initial });
  const save = useFormMutation(form, {
    mutationFn: (body: Issuer) => callApi(workspaceContracts.update, { body }),
    onSuccess: (updated) => {
      client.setQueryData(queryKeys.workspace(), updated);
      form.reset({ organisation_name: updated.organisation_name, certificate_signer: updated.certificate_signer });
    },
  });
  return (
    <Card>
      <h2 className="font-semibold">Certificates</h2>
      <p className="mt-1 text-sm text-slate-600">
        Printed on the certificates your tests issue on a pass, and on their public verification pages. Certificates already issued keep what they were issued with.
      </p>
      <ApiForm form={form} mutation={save} className="mt-3 space-y-3" submitLabel="Save certificate settings" pendingLabel="Saving…">
        <TextInput
          form={form}
          name="organisation_name"
          id="organisation-name"
          optional
          hint={`Empty: the workspace's name (“${settings.name}”).`}
          maxLength={MAX_ISSUER_TEXT}
          autoComplete="organization"
        />
        <TextInput form={form} name="certificate_signer" id="certificate-signer" optional hint="Name and title on one line, e.g. “Ada Lovelace, Head of Training”. Empty: no signature line." maxLength={MAX_ISSUER_TEXT} />
        {save.isSuccess && !form.formState.isDirty ? <Notice tone="success">Saved: new certificates carry these.</Notice> : null}
      </ApiForm>
    </Card>
  );
}
