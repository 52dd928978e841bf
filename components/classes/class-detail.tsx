"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { useState } from "react";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { classContracts } from "@/lib/certification/classes/contracts";
import { formatDateTime } from "@/components/format/date";
import { plural } from "@/components/tests/format";
import { EmailDeliveryStatus, isEmailProblem } from "@/components/tests/email-delivery";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { buttonClass, Button } from "@/components/ui/button";
import { BackLink } from "@/components/ui/back-link";
import { Card, Notice, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { EmailAddress } from "@/components/ui/email-address";
import { NotLoaded } from "@/components/ui/not-loaded";
import { actionsColumn, ScrollTable } from "@/components/ui/table";
import type { ClassView, InviteStudentsBody } from "@/lib/certification/classes/schemas";
import { queryKeys } from "@/components/query-keys";
import { inviteStudentsSchema } from "./class-forms";
import { emailItemName, StudentEmailsField } from "./student-emails-field";
import { ProgressSection } from "./class-progress";

/** One class: students, pending invitations (re-send), invite more, and progress every 5 s. */
export function ClassDetail({ id, initial }: { id: number; initial?: ClassView }) {
  const klass = usePageQuery({
    queryKey: queryKeys.classDetail(id),
    queryFn: () => callApi(classContracts.get, { params: { id } }),
    initial,
    // Pending invitations: their e-mail status (sent → delivered or bounced) and joins show without a reload.
    refetchInterval: (query) => (query.state.data?.invitations.length ? 10_000 : false),
  });

  if (!klass.data) return <NotLoaded query={klass} failure="The class could not be loaded." />;
  const data = klass.data;

  return (
    <>
      <BackLink href="/classes">All classes</BackLink>
      <PageHeader
        title={data.name}
        description={`${data.certification} · ${plural(data.students, "student")} joined · ${plural(data.pending_invitations, "pending invitation")}`}
        actions={
          <Link href={`/tests/new?class=${data.id}`} className={buttonClass()} data-testid="send-test-to-class">
            Send a test to this class
          </Link>
        }
      />
      <div className="space-y-6">
        <ProgressSection klass={data} />
        <div className="grid gap-6 2xl:grid-cols-2">
          <StudentsSection klass={data} />
          <InvitationsSection klass={data} />
        </div>
        <InviteForm klass={data} />
      </div>
    </>
  );
}

/**
 * A change made from the class page to one student or invitation (re-send, or, after the
 * trainer confirms, remove or cancel): the class as the API answers it replaces the cached one,
 * and `done` names whom it was for. A change that frees a place has usage and the class list
 * read again, and shows the class as it is now when it fails (gone already: another tab, a
 * double click).
 */
function useClassChange<T extends { id: number; email: string }>(
  klass: ClassView,
  change: (target: T) => Promise<ClassView>,
  { freesPlace }: { freesPlace: boolean },
) {
  const client = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: change,
    onMutate: () => setDone(null),
    onSuccess: (updated, target) => {
      setDone(target.email);
      client.setQueryData(queryKeys.classDetail(klass.id), updated);
      if (!freesPlace) return;
      client.invalidateQueries({ queryKey: queryKeys.classProgress(klass.id) });
      client.invalidateQueries({ queryKey: queryKeys.classes() });
      client.invalidateQueries({ queryKey: queryKeys.usage() });
      client.invalidateQueries({ queryKey: queryKeys.workspace() });
    },
    onError: () => (freesPlace ? client.invalidateQueries({ queryKey: queryKeys.classDetail(klass.id) }) : undefined),
  });
  return { ...mutation, done };
}

function StudentsSection({ klass }: { klass: ClassView }) {
  const remove = useClassChange(
    klass,
    (student: { id: number; email: string }) => callApi(classContracts.removeStudent, { params: { id: klass.id, student_id: student.id } }),
    { freesPlace: true },
  );
  return (
    <Card className="p-0">
      <h2 className="px-5 pt-5 font-semibold">Students ({klass.student_list.length})</h2>
      {remove.done ? (
        <div className="px-5 pt-2">
          <Notice tone="success">{remove.done} was removed from the class. Results of tests already sent are kept.</Notice>
        </div>
      ) : null}
      <RequestErrorNotice error={remove.error} className="px-5 pt-2" />
      {klass.student_list.length === 0 ? (
        <p className="px-5 pb-5 pt-2 text-sm text-slate-600">Nobody has joined yet. Students join from the link in their invitation.</p>
      ) : (
        <ScrollTable
          label="Students"
          caption="Students who joined"
          className="mt-2"
          minWidth="min-w-[320px]"
          inset="px-5"
          ruled="y"
          columns={["Student", "Joined", actionsColumn]}
        >
          {klass.student_list.map((student) => (
            <tr key={student.id} data-testid="student-row" data-email={student.email}>
              <th scope="row" className="px-5 py-3 font-normal">
                {student.name ? <span className="block font-medium">{student.name}</span> : null}
                <span className="wrap-anywhere text-slate-700">
                  <EmailAddress address={student.email} />
                </span>
              </th>
              <td className="whitespace-nowrap px-5 py-3 text-slate-600" data-label="Joined">
                {formatDateTime(student.joined_at)}
              </td>
              <td className="whitespace-nowrap px-5 py-3 text-right max-md:pt-2!">
                <ConfirmButton
                  variant="secondary"
                  disabled={remove.isPending}
                  aria-label={`Remove ${student.email} from the class`}
                  question={`Remove ${student.email} from ${klass.name}? Their place is freed; results of tests already sent are kept.`}
                  onConfirm={() => remove.mutate(student)}
                >
                  {remove.isPending && remove.variables?.id === student.id ? "Removing…" : "Remove"}
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </Card>
  );
}

function InvitationsSection({ klass }: { klass: ClassView }) {
  const resend = useClassChange(
    klass,
    (invitation: { id: number; email: string }) => callApi(classContracts.resendInvitation, { params: { id: klass.id, invitation_id: invitation.id } }),
    { freesPlace: false },
  );
  const cancel = useClassChange(
    klass,
    (invitation: { id: number; email: string }) => callApi(classContracts.cancelInvitation, { params: { id: klass.id, invitation_id: invitation.id } }),
    { freesPlace: true },
  );
  const problems = klass.invitations.filter((invitation) => isEmailProblem(invitation.email_delivery)).length;

  return (
    <Card className="p-0">
      <h2 className="px-5 pt-5 font-semibold">Pending invitations ({klass.invitations.length})</h2>
      {problems ? (
        <div className="px-5 pt-2" data-testid="email-problems">
          <Notice tone="error">
            {problems === 1 ? "1 invitation did not reach its student" : `${problems} invitations did not reach their students`}: see the reasons below and
            invite the corrected addresses.
          </Notice>
        </div>
      ) : null}
      {resend.done ? (
        <div className="px-5 pt-2">
          <Notice tone="success">Invitation sent again to {resend.done}.</Notice>
        </div>
      ) : null}
      {cancel.done ? (
        <div className="px-5 pt-2">
          <Notice tone="success">The invitation to {cancel.done} was cancelled; its link no longer works.</Notice>
        </div>
      ) : null}
      <RequestErrorNotice error={resend.error ?? cancel.error} className="px-5 pt-2" />
      {klass.invitations.length === 0 ? (
        <p className="px-5 pb-5 pt-2 text-sm text-slate-600">No pending invitations.</p>
      ) : (
        <ScrollTable
          label="Pending invitations"
          caption="Invitations not accepted yet"
          className="mt-2"
          minWidth="min-w-[320px]"
          inset="px-5"
          ruled="y"
          columns={["E-mail", "Last sent", "E-mail status", actionsColumn]}
        >
          {klass.invitations.map((invitation) => {
            const sending = resend.isPending && resend.variables?.id === invitation.id;
            return (
              <tr key={invitation.id} data-testid="invitation-row" data-email={invitation.email} data-email-status={invitation.email_delivery.status}>
                <th scope="row" className="wrap-anywhere px-5 py-3 font-normal text-slate-700">
                  {invitation.name ? <span className="block font-medium text-slate-900">{invitation.name}</span> : null}
                  <EmailAddress address={invitation.email} />
                </th>
                <td className="px-5 py-3 text-slate-600" data-label="Last sent">
                  {formatDateTime(invitation.last_sent_at)}
                </td>
                <td className="px-5 py-3" data-label="E-mail status">
                  <EmailDeliveryStatus delivery={invitation.email_delivery} correct="Invite the corrected address below." />
                </td>
                <td className="whitespace-nowrap px-5 py-3 text-right max-md:pt-2!">
                  {/* Stacked: the actions column stays one button wide, so the address keeps its one line at 1280 px; side by side on a phone's card. */}
                  <div className="flex flex-col items-end gap-1.5 max-md:flex-row max-md:flex-wrap">
                    <Button
                      type="button"
                      variant="secondary"
                      disabled={resend.isPending || cancel.isPending}
                      aria-label={`Re-send the invitation to ${invitation.email}`}
                      onClick={() => resend.mutate({ id: invitation.id, email: invitation.email })}
                    >
                      {sending ? "Sending…" : "Re-send"}
                    </Button>
                    <ConfirmButton
                      variant="secondary"
                      disabled={resend.isPending || cancel.isPending}
                      aria-label={`Cancel the invitation to ${invitation.email}`}
                      question={`Cancel the invitation to ${invitation.email}? Its link stops working and the place is freed.`}
                      onConfirm={() => cancel.mutate(invitation)}
                    >
                      {cancel.isPending && cancel.variables?.id === invitation.id ? "Cancelling…" : "Cancel"}
                    </ConfirmButton>
                  </div>
                </td>
              </tr>
            );
          })}
        </ScrollTable>
      )}
    </Card>
  );
}

function InviteForm({ klass }: { klass: ClassView }) {
  const client = useQueryClient();
  const form = useApiForm(inviteStudentsSchema, { defaultValues: { emailsText: "" } });
  const invite = useFormMutation(form, {
    mutationFn: (body: InviteStudentsBody) => callApi(classContracts.invite, { params: { id: klass.id }, body }),
    onSuccess: (updated) => {
      form.reset();
      client.setQueryData(queryKeys.classDetail(klass.id), updated);
      client.invalidateQueries({ queryKey: queryKeys.classes() });
      client.invalidateQueries({ queryKey: queryKeys.usage() });
    },
  });
  const invited = invite.variables?.emails?.length;

  return (
    <Card>
      <h2 className="font-semibold">Invite more students</h2>
      <ApiForm form={form} mutation={invite} className="mt-3 space-y-3" itemName={emailItemName(form.watch("emailsText"))} submitLabel="Invite" pendingLabel="Inviting…">
        <StudentEmailsField
          form={form}
          id="invite-emails"
          note="For an address already invited, use Re-send instead."
          placeholder={"carl@example.com\nDana Scully <dana@example.com>"}
        />
        {invite.isSuccess && invited ? <Notice tone="success">{plural(invited, "invitation")} sent.</Notice> : null}
      </ApiForm>
    </Card>
  );
}
