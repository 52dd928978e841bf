import { PageHeader } from "@/components/ui/card";
import { WorkspaceSettings } from "@/components/workspace/workspace-settings";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { workspaceSettings } from "@/lib/platform/workspaces/settings";
import { getDb } from "@/lib/platform/database";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { workspace } = await requireWorkspace();
  const settings = await workspaceSettings(await getDb(), workspace.id);
  return (
    <>
      <PageHeader title="Settings" description="Your workspace's name, your plan and what you use of it." />
      <WorkspaceSettings initial={settings} />
    </>
  );
}
