"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { ErrorNotice } from "./ui";
import { callApi } from "@/components/api";
import { ctfContracts } from "@/lib/ctf/contracts";

/** Self-enrolment on a public competition: an invitation e-mail is sent; its link makes the visitor a member. */
export function JoinCompetitionForm({ ctfId }: { ctfId: string }) {
  const [email, setEmail] = useState("");
  const join = useMutation({
    mutationFn: (address: string) => callApi(ctfContracts.join, { params: { ctf_id: ctfId }, body: { email: address } }),
  });
  if (join.isSuccess) {
    return (
      <Notice tone="success">
        <p className="font-semibold">Check your e-mail</p>
        <p>We sent a link to {join.variables}. Open it and accept to join the competition.</p>
      </Notice>
    );
  }
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        join.mutate(email.trim());
      }}
    >
      <TextField label="Your e-mail address" id="join-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      {join.error ? <ErrorNotice error={join.error} /> : null}
      <Button type="submit" className="min-h-11" disabled={join.isPending}>
        {join.isPending ? "Sending…" : "Join"}
      </Button>
    </form>
  );
}
