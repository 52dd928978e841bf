"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { queryKeys } from "@/components/query-keys";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { workspaceContracts } from "@/lib/platform/workspaces/contracts";
import { MAX_WORKSPACE_NAME, welcomeInput, type WelcomeInput } from "@/lib/platform/workspaces/schemas";

/**
 * The first sign-in's welcome step, a card on the Tests page (never a redirect: nothing waits
 * on it): who recipients should read as the sender. Save or Skip answers it for good
 * (lib/platform/workspaces/welcome.ts); until then e-mails carry the trainer's name or address.
 */
export function WelcomeCard() {
  const client = useQueryClient();
  const router = useRouter();
  const [answered, setAnswered] = useState(false);
  const form = useApiForm(welcomeInput, { defaultValues: { your_name: "", organisation_name: "" } });
  const answer = useFormMutation(form, {
    mutationFn: (body: WelcomeInput) => callApi(workspaceContracts.welcome, { body }),
    onSuccess: () => {
      setAnswered(true);
      void client.invalidateQueries({ queryKey: queryKeys.workspace() });
      // The header shows the workspace's name; it is rendered on the server.
      router.refresh();
    },
  });
  if (answered) return null;
  return (
    <Card className="mb-6">
      <section aria-labelledby="welcome-heading" data-testid="welcome-step">
        <h2 id="welcome-heading" className="font-semibold">
          Welcome! Who should recipients see as the sender?
        </h2>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Your tests and invitations say who sent them. Give your organisation&rsquo;s name, your own, or both; until then they carry your e-mail address.
          You can change it later under Settings.
        </p>
        <ApiForm form={form} mutation={answer} className="mt-3 space-y-3" submitLabel="Save" pendingLabel="Saving…">
          <div className="grid gap-3 sm:grid-cols-2">
            {/* Labels from the one source (fieldLabel): "Your name", "Organisation name", each marked optional. */}
            <TextInput form={form} name="your_name" id="welcome-your-name" optional maxLength={MAX_WORKSPACE_NAME} autoComplete="name" />
            <TextInput
              form={form}
              name="organisation_name"
              id="welcome-organisation-name"
              optional
              maxLength={MAX_WORKSPACE_NAME}
              autoComplete="organization"
              hint="Becomes your workspace's name."
            />
          </div>
        </ApiForm>
        <Button type="button" variant="secondary" className="mt-3" disabled={answer.isPending} onClick={() => answer.mutate({})}>
          Skip
        </Button>
      </section>
    </Card>
  );
}
