"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { Notice } from "@/components/ui/card";
import { playContracts } from "@/lib/ctf/play-contracts";
import { flagAttemptInput, type FlagAttemptInput } from "@/lib/ctf/play-schemas";
import { queryKeys } from "@/lib/query-keys";

/** A player's flag for one challenge: checked on the server; a solve refreshes the page and the scoreboard. */
export function FlagForm({ ctfId, challengeId, title }: { ctfId: string; challengeId: string; title: string }) {
  const router = useRouter();
  const client = useQueryClient();
  const form = useApiForm(flagAttemptInput, { defaultValues: { flag: "" } });
  const submit = useFormMutation(form, {
    mutationFn: (body: FlagAttemptInput) => callApi(playContracts.attempt, { params: { ctf_id: ctfId, challenge_id: challengeId }, body }),
    onSuccess: (result) => {
      if (result.status === "incorrect") return;
      form.reset({ flag: "" });
      void client.invalidateQueries({ queryKey: queryKeys.scoreboard(ctfId) });
      router.refresh();
    },
  });
  return (
    <ApiForm form={form} mutation={submit} submitLabel="Submit flag" pendingLabel="Checking…" className="mt-4 space-y-2">
      <TextInput form={form} name="flag" id={`flag-${challengeId}`} label={`Flag for ${title}`} autoComplete="off" spellCheck={false} />
      {submit.data?.status === "incorrect" ? (
        <Notice tone="error">
          <span data-testid="flag-result" data-status="incorrect">
            Not the flag. Try again.
          </span>
        </Notice>
      ) : null}
    </ApiForm>
  );
}
