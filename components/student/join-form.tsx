"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/card";

export type JoinState = { error?: string };

/** The "Join the class" button; a refusal (e.g. another address) is shown in place, in the page's language. */
export function JoinForm({ action }: { action: (state: JoinState, form: FormData) => Promise<JoinState> }) {
  const t = useTranslations("classes.join");
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3">
      {state.error ? <Notice tone="error">{state.error}</Notice> : null}
      <Button type="submit" className="min-h-11 w-full" disabled={pending}>
        {pending ? t("joining") : t("joinButton")}
      </Button>
    </form>
  );
}
