"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { FormErrors } from "@/components/forms/form-errors";
import { TextArea, TextInput } from "@/components/forms/inputs";
import { SubmitButton } from "@/components/forms/submit-button";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { queryKeys } from "@/components/query-keys";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Card, Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Markdown } from "@/components/ui/markdown";
import { usePageQuery } from "@/components/use-page-query";
import { announcementContracts } from "@/lib/ctf/announcements/contracts";
import { createAnnouncementInput, type AnnouncementView, type CreateAnnouncementInput } from "@/lib/ctf/announcements/schemas";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { ListCard } from "./ui";

/**
 * A competition's announcements: post one (title and a Markdown message) and delete one. The
 * competition's page shows them to players within seconds. It follows the competition's own
 * query (shared with the page's detail), so archiving hides the form at once.
 */
export function AnnouncementsSection({ initial }: { initial: CtfView }) {
  const ctf = usePageQuery({ queryKey: queryKeys.ctf(initial.id), queryFn: () => callApi(ctfContracts.get, { params: { ctf_id: initial.id } }), initial }).data;
  const client = useQueryClient();
  const announcements = useQuery({
    queryKey: queryKeys.ctfAnnouncements(ctf.id),
    queryFn: () => callApi(announcementContracts.list, { params: { ctf_id: ctf.id }, query: { per_page: 100 } }),
  });
  const [posted, setPosted] = useState<AnnouncementView | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.ctfAnnouncements(ctf.id) });
  const remove = useMutation({
    mutationFn: (announcement: AnnouncementView) => callApi(announcementContracts.remove, { params: { ctf_id: ctf.id, announcement_id: announcement.id } }),
    onMutate: () => setPosted(null),
    onSettled: refresh,
  });
  const archived = ctf.status === "archived";

  return (
    <section aria-labelledby="announcements-title" className="space-y-4">
      <div>
        <h2 id="announcements-title" className="text-lg font-semibold">
          Announcements
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Shown on the competition&apos;s page, newest first: players see a new one within seconds, without reloading, with a count of unread ones.
          {ctf.host === "ctfd" ? " While the competition is deployed on CTFd, each one is also sent to CTFd as a notification (deleting it here does not remove it there)." : ""}
        </p>
      </div>
      {archived ? null : (
        <PostForm
          ctfId={ctf.id}
          onPosted={(announcement) => {
            setPosted(announcement);
            refresh();
          }}
        />
      )}
      {posted ? <Notice tone="success">Posted “{posted.title}”.</Notice> : null}
      <RequestErrorNotice error={remove.error} />
      <ListCard query={announcements} loading="Loading announcements…" empty="No announcements yet.">
        {(list) => (
          <ul className="divide-y divide-slate-100" aria-label={`Announcements of ${ctf.title}, newest first`}>
            {list.map((announcement) => (
              <li key={announcement.id} className="space-y-2 px-4 py-4" data-testid="announcement-row" data-title={announcement.title}>
                <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{announcement.title}</p>
                    <p className="text-xs text-slate-600">{formatDateTime(announcement.created_at)}</p>
                  </div>
                  {archived ? null : (
                    <ConfirmButton
                      variant="danger"
                      disabled={remove.isPending}
                      question={`Delete the announcement "${announcement.title}"? It leaves the competition's page.`}
                      onConfirm={() => remove.mutate(announcement)}
                    >
                      {/* The visible words begin the name (axe label-content-name-mismatch). */}
                      {remove.isPending && remove.variables?.id === announcement.id ? "Deleting…" : "Delete"}
                      <span className="sr-only"> {announcement.title}</span>
                    </ConfirmButton>
                  )}
                </div>
                <Markdown text={announcement.body} className="text-sm text-slate-800 [overflow-wrap:anywhere]" />
              </li>
            ))}
          </ul>
        )}
      </ListCard>
    </section>
  );
}

function PostForm({ ctfId, onPosted }: { ctfId: string; onPosted: (announcement: AnnouncementView) => void }) {
  const form = useApiForm(createAnnouncementInput, { defaultValues: { title: "", body: "" } });
  const post = useFormMutation(form, {
    mutationFn: (body: CreateAnnouncementInput) => callApi(announcementContracts.create, { params: { ctf_id: ctfId }, body }),
    onSuccess: (announcement) => {
      form.reset();
      onPosted(announcement);
    },
  });
  return (
    <Card>
      <form className="space-y-3" noValidate aria-label="Post an announcement" onSubmit={form.handleSubmit((body) => post.mutate(body))}>
        <TextInput form={form} name="title" id="announcement-title" required maxLength={200} placeholder="Server maintenance at 14:00 UTC" />
        <TextArea
          form={form}
          name="body"
          id="announcement-body"
          hint="Markdown: **bold**, `code`, lists and links."
          required
          maxLength={5000}
          inputClassName="min-h-28"
        />
        <FormErrors errors={form.formState.errors} />
        <SubmitButton pending={post.isPending} pendingLabel="Posting…">
          Post announcement
        </SubmitButton>
      </form>
    </Card>
  );
}
