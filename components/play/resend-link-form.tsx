"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { ErrorNotice } from "@/components/competitions/ui";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { playContracts } from "@/lib/ctf/play-contracts";

/** "Send me my link again": a member's way back in on another browser (the answer never says whether the address takes part). */
export function ResendLinkForm({ ctfId }: { ctfId: string }) {
  const [email, setEmail] = useState("");
  const send = useMutation({
    mutationFn: (address: string) => callApi(playContracts.resendLink, { params: { ctf_id: ctfId }, body: { email: address } }),
  });
  if (send.isSuccess) return <Notice tone="success">{send.data.message}</Notice>;
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate(email.trim());
      }}
    >
      <TextField label="The address you were invited at" id="resend-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      {send.error ? <ErrorNotice error={send.error} /> : null}
      <Button type="submit" variant="secondary" className="min-h-11" disabled={send.isPending}>
        {send.isPending ? "Sending…" : "Send me my link again"}
      </Button>
    </form>
  );
}
