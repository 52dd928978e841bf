"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { deploymentPlayContracts } from "@/lib/ctf/deployments/play-contracts";
import { FlagBox } from "./flag-form";
import { HintCard } from "./hint";
import { deploymentJoinInput, type DeploymentJoinInput } from "@/lib/ctf/deployments/play-schemas";

/**
 * The play parts of a standalone deployment's page (`/d/{deployment_id}`): a display name to
 * play under (the answer sets the player's cookie), then the flag form and the hints. Each
 * success reads the page again (score, solved, the hint's text).
 */

export function DeploymentJoinForm({ deploymentId }: { deploymentId: string }) {
  const router = useRouter();
  const form = useApiForm(deploymentJoinInput, { defaultValues: { name: "" } });
  const join = useFormMutation(form, {
    mutationFn: (body: DeploymentJoinInput) => callApi(deploymentPlayContracts.join, { params: { deployment_id: deploymentId }, body }),
    onSuccess: () => router.refresh(),
  });
  return (
    <ApiForm form={form} mutation={join} submitLabel="Play" pendingLabel="Joining…" className="space-y-3">
      <TextInput form={form} name="name" id="deployment-player-name" label="Display name" autoComplete="nickname" maxLength={40} hint="Shown to the organisers with your solve. No account or e-mail needed." />
    </ApiForm>
  );
}

export function DeploymentFlagForm({ deploymentId, title }: { deploymentId: string; title: string }) {
  return <FlagBox id="deployment-flag" title={title} send={(body) => callApi(deploymentPlayContracts.attempt, { params: { deployment_id: deploymentId }, body })} />;
}

export function DeploymentHint({ deploymentId, n, cost, text }: { deploymentId: string; n: number; cost: number; text?: string }) {
  const router = useRouter();
  const unlock = useMutation({
    mutationFn: () => callApi(deploymentPlayContracts.unlockHint, { params: { deployment_id: deploymentId, n } }),
    onSuccess: () => router.refresh(),
  });
  return <HintCard n={n} cost={cost} text={text ?? unlock.data?.text} unlock={unlock} />;
}
