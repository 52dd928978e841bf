"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "@/components/api";
import { ErrorNotice } from "@/components/competitions/ui";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { playContracts } from "@/lib/ctf/play-contracts";
import { queryKeys } from "@/lib/query-keys";

/** A player's flag for one challenge: checked on the server; a solve refreshes the page and the scoreboard. */
export function FlagForm({ ctfId, challengeId, title }: { ctfId: string; challengeId: string; title: string }) {
  const router = useRouter();
  const client = useQueryClient();
  const [flag, setFlag] = useState("");
  const submit = useMutation({
    mutationFn: (value: string) => callApi(playContracts.attempt, { params: { ctf_id: ctfId, challenge_id: challengeId }, body: { flag: value } }),
    onSuccess: (result) => {
      if (result.status === "incorrect") return;
      setFlag("");
      void client.invalidateQueries({ queryKey: queryKeys.scoreboard(ctfId) });
      router.refresh();
    },
  });
  const id = `flag-${challengeId}`;
  return (
    <form
      className="mt-4 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (flag.trim()) submit.mutate(flag);
      }}
    >
      <TextField label={`Flag for ${title}`} id={id} value={flag} onChange={(e) => setFlag(e.target.value)} autoComplete="off" spellCheck={false} required />
      {submit.data?.status === "incorrect" ? (
        <Notice tone="error">
          <span data-testid="flag-result" data-status="incorrect">
            Not the flag. Try again.
          </span>
        </Notice>
      ) : null}
      {submit.error ? <ErrorNotice error={submit.error} /> : null}
      <Button type="submit" className="min-h-11" disabled={submit.isPending}>
        {submit.isPending ? "Checking…" : "Submit flag"}
      </Button>
    </form>
  );
}
