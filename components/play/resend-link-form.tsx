"use client";

import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { Notice } from "@/components/ui/card";
import { playContracts } from "@/lib/ctf/play/contracts";
import { inviteMemberInput, type InviteMemberInput } from "@/lib/ctf/competitions/schemas";

/** "Send me my link again": a member's way back in on another browser (the answer never says whether the address takes part). */
export function ResendLinkForm({ ctfId }: { ctfId: string }) {
  const form = useApiForm(inviteMemberInput, { defaultValues: { email: "" } });
  const send = useFormMutation(form, {
    mutationFn: (body: InviteMemberInput) => callApi(playContracts.resendLink, { params: { ctf_id: ctfId }, body }),
  });
  if (send.isSuccess) return <Notice tone="success">{send.data.message}</Notice>;
  return (
    <ApiForm form={form} mutation={send} submitLabel="Send me my link again" pendingLabel="Sending…" variant="secondary" className="space-y-3">
      <TextInput form={form} name="email" id="resend-email" label="The address you were invited at" type="email" autoComplete="email" />
    </ApiForm>
  );
}
