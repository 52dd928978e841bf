"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { Notice } from "@/components/ui/card";
import { playContracts } from "@/lib/ctf/play/contracts";
import { flagAttemptInput, type FlagAttemptInput, type FlagAttemptView } from "@/lib/ctf/play/schemas";
import { queryKeys } from "@/components/query-keys";

/**
 * The flag box of one challenge, a competition's or a standalone deployment's: `send` checks
 * the flag on the server; anything but "incorrect" (solved, already solved) clears the box,
 * calls `onSolved` and reads the page again. `refreshOnIncorrect`: a wrong flag reads the page
 * again too (a capped challenge's tries left, or its closing).
 */
export function FlagBox({
  id,
  title,
  send,
  onSolved,
  refreshOnIncorrect = false,
}: {
  id: string;
  title: string;
  send: (body: FlagAttemptInput) => Promise<FlagAttemptView>;
  onSolved?: () => void;
  refreshOnIncorrect?: boolean;
}) {
  const router = useRouter();
  const form = useApiForm(flagAttemptInput, { defaultValues: { flag: "" } });
  const submit = useFormMutation(form, {
    mutationFn: send,
    onSuccess: (result) => {
      if (result.status === "incorrect") {
        if (refreshOnIncorrect) router.refresh();
        return;
      }
      form.reset({ flag: "" });
      onSolved?.();
      router.refresh();
    },
  });
  return (
    <ApiForm form={form} mutation={submit} submitLabel="Submit flag" pendingLabel="Checking…" className="mt-4 space-y-2">
      <TextInput form={form} name="flag" id={id} label={`Flag for ${title}`} autoComplete="off" spellCheck={false} />
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

/** A competition player's flag for one challenge: a solve refreshes the page and the scoreboard; on a capped challenge, so does a wrong flag. */
export function FlagForm({ ctfId, challengeId, title, capped = false }: { ctfId: string; challengeId: string; title: string; capped?: boolean }) {
  const client = useQueryClient();
  return (
    <FlagBox
      id={`flag-${challengeId}`}
      title={title}
      send={(body) => callApi(playContracts.attempt, { params: { ctf_id: ctfId, challenge_id: challengeId }, body })}
      onSolved={() => void client.invalidateQueries({ queryKey: queryKeys.scoreboard(ctfId) })}
      refreshOnIncorrect={capped}
    />
  );
}
