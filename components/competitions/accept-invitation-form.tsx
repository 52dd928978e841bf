"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";

export type AcceptState = { error?: string };

/**
 * The "Accept invitation" button: joining is a POST (a server action), never the link's
 * GET. It asks for the display name other players see (default: the address before `@`).
 */
export function AcceptInvitationForm({
  action,
  defaultName,
  label = "Accept invitation",
}: {
  action: (state: AcceptState, form: FormData) => Promise<AcceptState>;
  defaultName: string;
  label?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3">
      {state.error ? <Notice tone="error">{state.error}</Notice> : null}
      <TextField label="Display name" id="player-name" name="name" defaultValue={defaultName} maxLength={40} autoComplete="nickname" hint="Shown on the scoreboard instead of your address." />
      <Button type="submit" className="min-h-11 w-full" disabled={pending}>
        {pending ? "Joining…" : label}
      </Button>
    </form>
  );
}
