"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { Badge } from "@/components/ui/badge";
import { Card, Notice } from "@/components/ui/card";
import { numeric, ScrollTable } from "@/components/ui/table";
import { queryKeys } from "@/components/query-keys";
import { workspaceContracts } from "@/lib/platform/workspaces/contracts";
import { MAX_WORKSPACE_NAME, workspaceNameForm, type WorkspaceSettingsView } from "@/lib/platform/workspaces/schemas";
import { CertificateIssuerForm } from "./certificate-issuer-form";
import { DefaultLanguageForm } from "./default-language-form";

/** The workspace's name (every e-mail carries it), its plan with what it uses of it, and what each plan allows. */
export function WorkspaceSettings({ initial }: { initial: WorkspaceSettingsView }) {
  const settings = usePageQuery({ queryKey: queryKeys.workspace(), queryFn: () => callApi(workspaceContracts.get), initial });
  const data = settings.data ?? initial;
  return (
    <div className="space-y-6">
      <NameForm settings={data} />
      <CertificateIssuerForm settings={data} />
      <DefaultLanguageForm settings={data} />
      <PlanUsage settings={data} />
      <Plans settings={data} />
    </div>
  );
}

function NameForm({ settings }: { settings: WorkspaceSettingsView }) {
  const client = useQueryClient();
  const router = useRouter();
  const form = useApiForm(workspaceNameForm, { defaultValues: { name: settings.name } });
  const rename = useFormMutation(form, {
    mutationFn: (body: { name: string }) => callApi(workspaceContracts.update, { body }),
    onSuccess: (updated) => {
      client.setQueryData(queryKeys.workspace(), updated);
      form.reset({ name: updated.name });
      // The header shows the name too: it is rendered on the server.
      router.refresh();
    },
  });
  return (
    <Card>
      <h2 className="font-semibold">Workspace name</h2>
      <p className="mt-1 text-sm text-slate-600">
        Recipients and students read it in every e-mail: &ldquo;{settings.sender} sent you a practice test&rdquo;, &ldquo;{settings.sender} invited you to the class…&rdquo;.
        {/* A default name ("…'s workspace") is never shown to recipients (lib/platform/workspaces/sender.ts): say what they read instead. */}
        {settings.sender !== settings.name ? " Until you give the workspace a name of your own, they read that instead of its current name." : null}
      </p>
      <ApiForm form={form} mutation={rename} className="mt-3 space-y-3" submitLabel="Save name" pendingLabel="Saving…">
        <TextInput form={form} name="name" id="workspace-name" label="Workspace name" required maxLength={MAX_WORKSPACE_NAME} autoComplete="organization" />
        {rename.isSuccess && !form.formState.isDirty ? <Notice tone="success">Saved: e-mails now say &ldquo;{settings.name}&rdquo;.</Notice> : null}
      </ApiForm>
    </Card>
  );
}

function UsageRow({ label, used, limit, testId, note }: { label: string; used: number; limit: number; testId: string; note?: string }) {
  const full = used >= limit;
  const percent = Math.min(100, Math.round((used / Math.max(1, limit)) * 100));
  return (
    <div className="py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-800">{label}</span>
        <span className={`tabular-nums ${full ? "font-semibold text-amber-800" : "text-slate-700"}`} data-testid={testId}>
          {used} of {limit}
        </span>
      </div>
      <div className="mt-1 h-2 rounded bg-slate-100" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={Math.min(used, limit)}>
        <div className={`h-2 rounded ${full ? "bg-amber-500" : "bg-brand-600"}`} style={{ width: `${percent}%` }} />
      </div>
      {note ? <p className="mt-1 text-xs text-slate-500">{note}</p> : null}
    </div>
  );
}

function PlanUsage({ settings }: { settings: WorkspaceSettingsView }) {
  const { limits, usage } = settings;
  return (
    <Card>
      <h2 className="font-semibold">
        Your plan: <span className="uppercase" data-testid="current-plan">{settings.plan}</span>
      </h2>
      <div className="mt-2 divide-y divide-slate-100">
        <UsageRow label="Classes" used={usage.classes} limit={limits.classes} testId="usage-classes" />
        <UsageRow label="Students" used={usage.students} limit={limits.students} testId="usage-students" note="Each address counts once across all classes, invited or joined. Removing a student or cancelling an invitation frees the place." />
        <UsageRow
          label="Seats (recipients per test)"
          used={usage.largest_test}
          limit={limits.seats}
          testId="usage-seats"
          note="Seats are counted per test: this is your largest test so far."
        />
        <UsageRow label="Active API keys" used={usage.api_keys} limit={limits.apiKeys} testId="usage-keys" />
      </div>
    </Card>
  );
}

/** "1,000 seats", "1 class". */
const amount = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

function Plans({ settings }: { settings: WorkspaceSettingsView }) {
  const current = settings.plans.findIndex((plan) => plan.current);
  const higher = settings.plans.slice(current + 1);
  return (
    <Card className="p-0">
      <h2 className="px-5 pt-5 font-semibold">Plans</h2>
      <p className="px-5 pt-1 text-sm text-slate-600">
        {higher.length
          ? `A higher plan allows ${higher.map((plan) => `${amount(plan.limits.seats, "seat")}, ${amount(plan.limits.classes, "class", "classes")} and ${amount(plan.limits.students, "student")} (${plan.name})`).join("; ")}. The operator of this service changes plans.`
          : "You are on the highest plan."}
      </p>
      <ScrollTable
        label="Plans"
        caption="What each plan allows"
        className="mt-3"
        minWidth="min-w-[420px]"
        inset="px-5"
        ruled="y"
        testId="plans"
        columns={["Plan", numeric("Seats per test"), numeric("Classes"), numeric("Students"), numeric("API keys")]}
      >
        {settings.plans.map((plan) => (
          <tr key={plan.name} data-testid="plan-row" data-plan={plan.name} aria-current={plan.current ? "true" : undefined} className={plan.current ? "bg-brand-50" : undefined}>
            <th scope="row" className="px-5 py-3 font-medium uppercase">
              {plan.name} {plan.current ? <Badge tone="info">Current</Badge> : null}
            </th>
            <td className="px-5 py-3 text-right tabular-nums" data-label="Seats per test">{plan.limits.seats.toLocaleString("en")}</td>
            <td className="px-5 py-3 text-right tabular-nums" data-label="Classes">{plan.limits.classes.toLocaleString("en")}</td>
            <td className="px-5 py-3 text-right tabular-nums" data-label="Students">{plan.limits.students.toLocaleString("en")}</td>
            <td className="px-5 py-3 text-right tabular-nums" data-label="API keys">{plan.limits.apiKeys}</td>
          </tr>
        ))}
      </ScrollTable>
    </Card>
  );
}
