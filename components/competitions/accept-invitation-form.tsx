"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";

export type AcceptState = { error?: string };

/** The "Accept invitation" button: joining is a POST (a server action), never the link's GET. */
export function AcceptInvitationForm({ action }: { action: (state: AcceptState, form: FormData) => Promise<AcceptState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3">
      {state.error ? <Notice tone="error">{state.error}</Notice> : null}
      <Button type="submit" className="min-h-11 w-full" disabled={pending}>
        {pending ? "Joining…" : "Accept invitation"}
      </Button>
    </form>
  );
}
