"use client";

import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { Notice } from "@/components/ui/card";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import { inviteMemberInput, type InviteMemberInput } from "@/lib/ctf/competitions/schemas";

/** Self-enrolment on a public competition: an invitation e-mail is sent; its link makes the visitor a member. */
export function JoinCompetitionForm({ ctfId }: { ctfId: string }) {
  const form = useApiForm(inviteMemberInput, { defaultValues: { email: "" } });
  const join = useFormMutation(form, {
    mutationFn: (body: InviteMemberInput) => callApi(ctfContracts.join, { params: { ctf_id: ctfId }, body }),
  });
  if (join.isSuccess) {
    return (
      <Notice tone="success">
        <p className="font-semibold">Check your e-mail</p>
        <p>We sent a link to {join.variables.email}. Open it and accept to join the competition.</p>
      </Notice>
    );
  }
  return (
    <form className="space-y-3" noValidate onSubmit={form.handleSubmit((body) => join.mutate(body))}>
      <TextInput form={form} name="email" id="join-email" type="email" autoComplete="email" required />
      <FormErrors errors={form.formState.errors} />
      <SubmitButton className="min-h-11" pending={join.isPending} pendingLabel="Sending…">
        Join
      </SubmitButton>
    </form>
  );
}
