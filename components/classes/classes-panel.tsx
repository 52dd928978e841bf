"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { Select, TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { certificationContracts } from "@/lib/certification/catalog/contracts";
import { classContracts } from "@/lib/certification/classes/contracts";
import { formatDateTime } from "@/components/format/date";
import { plural } from "@/components/tests/format";
import { useUsage, type UsageView } from "@/components/tests/usage";
import { Card } from "@/components/ui/card";
import { CreatedNotice } from "@/components/ui/created-notice";
import { EmptyList, type QueryState } from "@/components/ui/not-loaded";
import { numeric, ScrollTable } from "@/components/ui/table";
import type { Page } from "@/lib/kernel/paging";
import type { ClassSummaryView, CreateClassInput } from "@/lib/certification/classes/schemas";
import { queryKeys } from "@/components/query-keys";
import { newClassSchema } from "./class-forms";
import { emailItemName, StudentEmailsField } from "./student-emails-field";

/** The Classes page: plan usage, the create form and the list of classes. */
export function ClassesPanel({ initial }: { initial?: Page<ClassSummaryView> }) {
  const classes = usePageQuery({
    queryKey: queryKeys.classList(),
    queryFn: () => callApi(classContracts.list, { query: { per_page: 100 } }),
    initial,
  });
  const usage = useUsage();

  return (
    <div className="space-y-6">
      <PlanUsage usage={usage.data} />
      <CreateClassForm usage={usage.data} />
      <ClassList query={classes} />
    </div>
  );
}

function PlanUsage({ usage }: { usage?: UsageView }) {
  if (!usage) return null;
  const { plan, limits, usage: used } = usage;
  const atClassLimit = used.classes >= limits.classes;
  const atStudentLimit = used.students >= limits.students;
  return (
    <Card className="bg-slate-50">
      <h2 className="sr-only">Plan usage</h2>
      <p className="text-sm text-slate-700" data-testid="plan-usage">
        <span className="font-semibold">
          {plural(limits.classes, "class", "classes")} and {plural(limits.students, "student")}
        </span>{" "}
        on the {plan} plan. In use:{" "}
        <span className="font-medium tabular-nums" data-testid="usage-classes">
          {used.classes} of {limits.classes}
        </span>{" "}
        {limits.classes === 1 ? "class" : "classes"},{" "}
        <span className="font-medium tabular-nums" data-testid="usage-students">
          {used.students} of {limits.students}
        </span>{" "}
        {limits.students === 1 ? "student" : "students"} (an address invited or joined counts once across all classes).{" "}
        <Link href="/settings" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Plans and usage
        </Link>
      </p>
      {atClassLimit || atStudentLimit ? (
        <p className="mt-2 text-sm font-medium text-amber-800">
          {atClassLimit ? "You have reached the class limit of your plan. " : ""}
          {atStudentLimit ? "You have reached the student limit of your plan." : ""}
        </p>
      ) : null}
    </Card>
  );
}

function CreateClassForm({ usage }: { usage?: UsageView }) {
  const client = useQueryClient();
  const form = useApiForm(newClassSchema, { defaultValues: { name: "", certification_id: "", emailsText: "" } });
  const certifications = useQuery({
    queryKey: queryKeys.certificationOptions(),
    queryFn: () => callApi(certificationContracts.list, { query: { per_page: 100 } }),
    staleTime: 60_000,
  });
  const create = useFormMutation(form, {
    mutationFn: (body: CreateClassInput) => callApi(classContracts.create, { body }),
    onSuccess: () => {
      form.reset({ ...form.getValues(), name: "", emailsText: "" });
      client.invalidateQueries({ queryKey: queryKeys.classes() });
      client.invalidateQueries({ queryKey: queryKeys.usage() });
    },
  });
  const created = create.data;
  const atClassLimit = usage ? usage.usage.classes >= usage.limits.classes : false;

  return (
    <Card>
      <h2 className="font-semibold">Create a class</h2>
      <p className="mt-1 text-sm text-slate-600">Each address receives an e-mail with a link to join with a free student account.</p>
      {created ? (
        <CreatedNotice href={`/classes/${created.id}`}>
          Class &ldquo;{created.name}&rdquo; created
          {created.pending_invitations ? `; ${plural(created.pending_invitations, "invitation")} sent` : ""}.
        </CreatedNotice>
      ) : null}
      <form className="mt-4 space-y-4" noValidate onSubmit={form.handleSubmit((body) => create.mutate(body))}>
        <TextInput form={form} name="name" id="class-name" required maxLength={200} placeholder="e.g. Security+ spring cohort" />
        <Select
          form={form}
          name="certification_id"
          id="class-certification"
          required
          disabled={certifications.isLoading}
          hint={certifications.error ? `The certifications could not be loaded: ${certifications.error.message}` : undefined}
        >
          <option value="">{certifications.isLoading ? "Loading…" : "Choose a certification"}</option>
          {certifications.data?.data.map((certification) => (
            <option key={certification.id} value={certification.id}>
              {certification.vendor} · {certification.name}
              {certification.code ? ` (${certification.code})` : ""}
              {certification.own ? " · yours" : ""}
            </option>
          ))}
        </Select>
        <StudentEmailsField form={form} id="class-emails" optional placeholder={"ann@example.com\nBob Marley <bob@example.com>"} />
        <FormErrors errors={form.formState.errors} itemName={emailItemName(form.watch("emailsText"))} />
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={create.isPending} pendingLabel="Creating…">
            Create class
          </SubmitButton>
          {atClassLimit ? <span className="text-sm text-amber-800">Your plan&rsquo;s class limit is reached: creating another will be refused.</span> : null}
        </div>
      </form>
    </Card>
  );
}

function ClassList({ query }: { query: QueryState<Page<ClassSummaryView>> }) {
  const classes = query.data;
  if (!classes?.data.length) {
    return (
      <EmptyList query={query}>
        <p className="text-sm text-slate-600">No classes yet. Create one above, then send a test to the whole class.</p>
      </EmptyList>
    );
  }
  return (
    <Card className="p-0">
      <ScrollTable
        label="Classes"
        caption="Classes, newest first"
        minWidth="min-w-[640px]"
        inset="px-4"
        columns={["Name", "Certification", numeric("Students joined"), numeric("Pending invitations"), "Created"]}
      >
        {classes.data.map((klass) => (
          <tr key={klass.id} data-testid="class-row" data-class-id={klass.id} className="hover:bg-slate-50">
            <th scope="row" className="px-4 py-3 font-medium">
              <Link href={`/classes/${klass.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                {klass.name}
              </Link>
            </th>
            <td className="px-4 py-3" data-label="Certification">{klass.certification}</td>
            <td className="px-4 py-3 text-right tabular-nums" data-testid="class-students" data-label="Students joined">
              {klass.students}
            </td>
            <td className="px-4 py-3 text-right tabular-nums" data-testid="class-pending" data-label="Pending invitations">
              {klass.pending_invitations}
            </td>
            <td className="whitespace-nowrap px-4 py-3 text-slate-600" data-label="Created">
              {formatDateTime(klass.created_at)}
            </td>
          </tr>
        ))}
      </ScrollTable>
    </Card>
  );
}
