"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { callApi } from "@/components/api";
import { certificationContracts } from "@/lib/certification/contracts";
import { classContracts } from "@/lib/classes/contracts";
import { formatDateTime, plural } from "@/components/tests/format";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { useUsage, type UsageView } from "@/components/tests/usage";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { inputClass, TextField } from "@/components/ui/field";
import type { Page } from "@/lib/api/paging";
import type { ClassSummaryView, ClassView } from "@/lib/classes/schemas";
import { queryKeys } from "@/lib/query-keys";
import { classFieldLabel, parseEmails } from "./emails";

/** The Classes page: plan usage, the create form and the list of classes. */
export function ClassesPanel({ initial }: { initial?: Page<ClassSummaryView> }) {
  const classes = useQuery({
    queryKey: queryKeys.classList(),
    queryFn: () => callApi(classContracts.list, { query: { per_page: 100 } }),
    initialData: initial,
  });
  const usage = useUsage();

  return (
    <div className="space-y-6">
      <PlanUsage usage={usage.data} />
      <CreateClassForm usage={usage.data} />
      <ClassList classes={classes.data} loading={classes.isLoading} error={classes.error} />
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
        {limits.students === 1 ? "student" : "students"} (an address invited or joined counts once across all classes).
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
  const [name, setName] = useState("");
  const [certificationId, setCertificationId] = useState("");
  const [emailText, setEmailText] = useState("");
  const [created, setCreated] = useState<ClassView | null>(null);
  const emails = parseEmails(emailText);

  const certifications = useQuery({
    queryKey: queryKeys.certificationOptions(),
    queryFn: () => callApi(certificationContracts.list, { query: { per_page: 100 } }),
    staleTime: 60_000,
  });

  const create = useMutation({
    mutationFn: (body: { name: string; certification_id: number; emails: string[] }) =>
      callApi(classContracts.create, { body }),
    onMutate: () => setCreated(null),
    onSuccess: (klass) => {
      setCreated(klass);
      setName("");
      setEmailText("");
      client.invalidateQueries({ queryKey: queryKeys.classes() });
      client.invalidateQueries({ queryKey: queryKeys.usage() });
    },
  });

  const atClassLimit = usage ? usage.usage.classes >= usage.limits.classes : false;

  return (
    <Card>
      <h2 className="font-semibold">Create a class</h2>
      <p className="mt-1 text-sm text-slate-600">Each address receives an e-mail with a link to join with a free student account.</p>
      {created ? (
        <div className="mt-3">
          <Notice tone="success">
            Class &ldquo;{created.name}&rdquo; created
            {created.pending_invitations ? `; ${plural(created.pending_invitations, "invitation")} sent` : ""}.{" "}
            <Link href={`/classes/${created.id}`} className="font-medium underline">
              Open it
            </Link>
          </Notice>
        </div>
      ) : null}
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ name, certification_id: Number(certificationId), emails });
        }}
      >
        <TextField label="Name" id="class-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} placeholder="e.g. Security+ spring cohort" />
        <div className="space-y-1">
          <label htmlFor="class-certification" className="block text-sm font-medium text-slate-700">
            Certification
          </label>
          <select
            id="class-certification"
            className={inputClass}
            required
            value={certificationId}
            onChange={(e) => setCertificationId(e.target.value)}
            disabled={certifications.isLoading}
          >
            <option value="">{certifications.isLoading ? "Loading…" : "Choose a certification"}</option>
            {certifications.data?.data.map((certification) => (
              <option key={certification.id} value={certification.id}>
                {certification.vendor} · {certification.name}
                {certification.code ? ` (${certification.code})` : ""}
                {certification.own ? " · yours" : ""}
              </option>
            ))}
          </select>
          {certifications.error ? <p className="text-xs text-red-700">The certifications could not be loaded: {certifications.error.message}</p> : null}
        </div>
        <div className="space-y-1">
          <label htmlFor="class-emails" className="block text-sm font-medium text-slate-700">
            Students&rsquo; e-mail addresses <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <textarea
            id="class-emails"
            className={`${inputClass} min-h-28 font-mono`}
            value={emailText}
            onChange={(e) => setEmailText(e.target.value)}
            aria-describedby="class-emails-hint"
            placeholder={"ann@example.com\nbob@example.com"}
          />
          <p id="class-emails-hint" className="text-xs text-slate-500">
            One per line, or separated by commas. {emails.length ? `${plural(emails.length, "address", "addresses")}.` : ""}
          </p>
        </div>
        {create.error ? <RequestErrorNotice error={create.error} label={(field) => classFieldLabel(field, emails)} /> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create class"}
          </Button>
          {atClassLimit ? <span className="text-sm text-amber-800">Your plan&rsquo;s class limit is reached: creating another will be refused.</span> : null}
        </div>
      </form>
    </Card>
  );
}

function ClassList({ classes, loading, error }: { classes?: Page<ClassSummaryView>; loading: boolean; error: Error | null }) {
  if (loading) return <p className="text-sm text-slate-600">Loading…</p>;
  if (error && !classes) return <Notice tone="error">{error.message}</Notice>;
  if (!classes?.data.length) {
    return (
      <Card>
        <p className="text-sm text-slate-600">No classes yet. Create one above, then send a test to the whole class.</p>
      </Card>
    );
  }
  return (
    <Card className="p-0">
      <div className="overflow-x-auto" role="region" aria-label="Classes" tabIndex={0}>
        <table className="w-full min-w-[640px] text-left text-sm">
          <caption className="sr-only">Classes, newest first</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-2">Name</th>
              <th scope="col" className="px-4 py-2">Certification</th>
              <th scope="col" className="px-4 py-2 text-right">Students joined</th>
              <th scope="col" className="px-4 py-2 text-right">Pending invitations</th>
              <th scope="col" className="px-4 py-2">Created</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {classes.data.map((klass) => (
              <tr key={klass.id} data-testid="class-row" data-class-id={klass.id} className="hover:bg-slate-50">
                <th scope="row" className="px-4 py-3 font-medium">
                  <Link href={`/classes/${klass.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                    {klass.name}
                  </Link>
                </th>
                <td className="px-4 py-3">{klass.certification}</td>
                <td className="px-4 py-3 text-right tabular-nums" data-testid="class-students">
                  {klass.students}
                </td>
                <td className="px-4 py-3 text-right tabular-nums" data-testid="class-pending">
                  {klass.pending_invitations}
                </td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-600">{formatDateTime(klass.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
