"use client";

import { useFormStatus } from "react-dom";
import { SubmitButton } from "@/components/forms/submit-button";

/** The sign-in form's button: disabled and saying so while the link is being sent (a server action takes a moment). */
export function SendLinkButton() {
  const { pending } = useFormStatus();
  return (
    <SubmitButton pending={pending} pendingLabel="Sending link…" className="w-full" aria-live="polite">
      E-mail me a sign-in link
    </SubmitButton>
  );
}
