"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { plural } from "@/components/tests/format";
import { Card } from "@/components/ui/card";
import { CreatedNotice } from "@/components/ui/created-notice";
import { EmptyList, type QueryState } from "@/components/ui/not-loaded";
import { numeric, ScrollTable } from "@/components/ui/table";
import type { Page } from "@/lib/kernel/paging";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { queryKeys } from "@/components/query-keys";
import { CompetitionFields } from "./competition-fields";
import { emptyCompetition, newCompetitionSchema, type CtfBody } from "./competition-forms";
import { formatWindow } from "@/components/format/date";
import { isTransitional } from "./format";
import { StatusBadge } from "./ui";

/** The Competitions page: the create form and the list (followed every 2 s while one deploys). */
export function CompetitionsPanel({ initial }: { initial?: Page<CtfView> }) {
  const ctfs = usePageQuery({
    queryKey: queryKeys.ctfList(),
    queryFn: () => callApi(ctfContracts.list, { query: { per_page: 100 } }),
    initial,
    refetchInterval: (query) => (query.state.data?.data.some((ctf) => isTransitional(ctf.status)) ? 2_000 : false),
  });
  return (
    <div className="space-y-6">
      <CreateCompetitionForm />
      <CompetitionList query={ctfs} />
    </div>
  );
}

function CreateCompetitionForm() {
  const client = useQueryClient();
  const form = useApiForm(newCompetitionSchema, { defaultValues: emptyCompetition });
  const create = useFormMutation(form, {
    mutationFn: (body: CtfBody) => callApi(ctfContracts.create, { body }),
    onSuccess: () => {
      form.reset();
      client.invalidateQueries({ queryKey: queryKeys.ctfList() });
    },
  });
  const created = create.data;

  return (
    <Card>
      <h2 className="font-semibold">Create a competition</h2>
      <p className="mt-1 text-sm text-slate-600">It starts as a draft: add challenges, then deploy it.</p>
      {created ? <CreatedNotice href={`/competitions/${created.id}`}>Competition &ldquo;{created.title}&rdquo; created as a draft.</CreatedNotice> : null}
      <ApiForm form={form} mutation={create} className="mt-4 space-y-4" submitLabel="Create competition" pendingLabel="Creating…">
        <CompetitionFields form={form} idPrefix="ctf" />
      </ApiForm>
    </Card>
  );
}

function CompetitionList({ query }: { query: QueryState<Page<CtfView>> }) {
  const ctfs = query.data;
  if (!ctfs?.data.length) {
    return (
      <EmptyList query={query}>
        <p className="text-sm text-slate-600">No competitions yet. Create one above.</p>
      </EmptyList>
    );
  }
  return (
    <Card className="p-0">
      <ScrollTable
        label="Competitions"
        caption="Competitions, newest first"
        minWidth="min-w-[720px]"
        inset="px-4"
        columns={["Title", "Status", "Window", "Visibility", numeric("Challenges"), numeric("Members")]}
      >
        {ctfs.data.map((ctf) => (
          <tr key={ctf.id} data-testid="ctf-row" data-ctf-id={ctf.id} data-title={ctf.title} data-status={ctf.status} className="align-top hover:bg-slate-50">
            <th scope="row" className="px-4 py-3 font-medium">
              <Link href={`/competitions/${ctf.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                {ctf.title}
              </Link>
              {ctf.status === "deployed" && ctf.url ? (
                <a href={ctf.url} className="mt-0.5 block break-all text-xs font-normal text-slate-500 underline-offset-2 hover:underline" target="_blank" rel="noreferrer">
                  {ctf.url}
                </a>
              ) : null}
            </th>
            <td className="px-4 py-3" data-label="Status">
              <StatusBadge status={ctf.status} />
            </td>
            <td className="px-4 py-3 text-slate-600" data-label="Window">{formatWindow(ctf.starts_at, ctf.ends_at)}</td>
            <td className="px-4 py-3 text-slate-600" data-label="Visibility">{ctf.is_public ? "Public" : "Private"}</td>
            <td className="px-4 py-3 text-right tabular-nums" data-label="Challenges">{ctf.challenges}</td>
            <td className="px-4 py-3 text-right tabular-nums" data-label="Members">{ctf.members}</td>
          </tr>
        ))}
      </ScrollTable>
      {ctfs.pagination.total > ctfs.data.length ? (
        <p className="border-t border-slate-200 px-4 py-2 text-xs text-slate-500">
          The newest {plural(ctfs.data.length, "competition")} of {ctfs.pagination.total}.
        </p>
      ) : null}
    </Card>
  );
}
