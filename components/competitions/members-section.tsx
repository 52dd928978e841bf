"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { EmailAddress } from "@/components/ui/email-address";
import { actionsColumn, numeric, ScrollTable } from "@/components/ui/table";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import { inviteMemberInput, type CtfView, type InviteMemberInput, type MemberView } from "@/lib/ctf/competitions/schemas";
import { queryKeys } from "@/components/query-keys";
import { formatDateTime } from "@/components/format/date";
import { ListCard, StatusBadge } from "./ui";

/** Competitors: invite by e-mail (again = re-invite), who joined, who enrolled themselves. */
export function MembersSection({ ctf }: { ctf: CtfView }) {
  const client = useQueryClient();
  const members = useQuery({
    queryKey: queryKeys.ctfMembers(ctf.id),
    queryFn: () => callApi(ctfContracts.members, { params: { ctf_id: ctf.id }, query: { per_page: 100 } }),
    // While deployed, people enrol and join from their e-mail: follow them.
    refetchInterval: ctf.status === "deployed" ? 10_000 : false,
  });
  const [sent, setSent] = useState<MemberView | null>(null);
  const invited = (member: MemberView) => {
    setSent(member);
    client.invalidateQueries({ queryKey: queryKeys.ctfMembers(ctf.id) });
    client.invalidateQueries({ queryKey: queryKeys.ctf(ctf.id), exact: true });
    client.invalidateQueries({ queryKey: queryKeys.ctfList() });
  };
  const inviteMember = (body: InviteMemberInput) => callApi(ctfContracts.inviteMember, { params: { ctf_id: ctf.id }, body });
  const form = useApiForm(inviteMemberInput, { defaultValues: { email: "" } });
  const invite = useFormMutation(form, {
    mutationFn: inviteMember,
    onMutate: () => setSent(null),
    onSuccess: (member) => {
      form.reset();
      invited(member);
    },
  });
  // Re-invite from a row: not the form's, so its failure is not shown beside the form's field.
  const reinvite = useMutation({ mutationFn: (email: string) => inviteMember({ email }), onMutate: () => setSent(null), onSuccess: invited });
  const archived = ctf.status === "archived";

  return (
    <section aria-labelledby="members-title" className="space-y-4">
      <div>
        <h2 id="members-title" className="text-lg font-semibold">
          Members
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Each invited address receives an e-mail with a link to accept; no account is needed.
          {ctf.is_public ? " This competition is public: visitors of its page can also enrol themselves." : ""}
        </p>
      </div>
      {archived ? null : (
        <Card>
          <form className="space-y-3" noValidate onSubmit={form.handleSubmit((body) => invite.mutate(body))}>
            <div className="flex flex-wrap items-start gap-3">
              <TextInput form={form} name="email" id="member-email" className="min-w-64 flex-1 space-y-1" type="email" required placeholder="competitor@example.com" />
              <SubmitButton className="mt-6" pending={invite.isPending} pendingLabel="Inviting…">
                Invite
              </SubmitButton>
            </div>
            <FormErrors errors={form.formState.errors} />
          </form>
        </Card>
      )}
      {sent ? <Notice tone="success">{sent.invitations > 1 ? `Invitation sent again to ${sent.email}.` : `Invitation sent to ${sent.email}.`}</Notice> : null}
      <RequestErrorNotice error={reinvite.error} />
      <ListCard
        query={members}
        loading="Loading members…"
        empty="Nobody invited yet."
      >
        {(list) => (
          <ScrollTable
            label="Members"
            caption={`Members of ${ctf.title}, in order of invitation`}
            minWidth="min-w-[720px]"
            inset="px-4"
            columns={["E-mail", "Status", "Enrolled by", numeric("Invitations"), "Last invited", "Joined", actionsColumn]}
          >
            {list.map((member) => (
              <tr key={member.id} data-testid="member-row" data-email={member.email} data-status={member.status}>
                <th scope="row" className="wrap-anywhere px-4 py-3 font-normal text-slate-800">
                  <EmailAddress address={member.email} />
                </th>
                <td className="px-4 py-3" data-label="Status">
                  <StatusBadge status={member.status} />
                </td>
                <td className="px-4 py-3 text-slate-600" data-testid="member-self-enrolled" data-value={member.self_enrolled} data-label="Enrolled by">
                  {member.self_enrolled ? "Themselves" : "Invitation"}
                </td>
                <td className="px-4 py-3 text-right tabular-nums" data-testid="member-invitations" data-label="Invitations">
                  {member.invitations}
                </td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-600" data-label="Last invited">
                  {formatDateTime(member.invited_at)}
                </td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-600" data-label="Joined">
                  {formatDateTime(member.joined_at)}
                </td>
                <td className="px-4 py-3 text-right max-md:pt-2!">
                  {member.status === "invited" && !archived ? (
                    <Button
                      type="button"
                      variant="secondary"
                      disabled={reinvite.isPending}
                      onClick={() => reinvite.mutate(member.email)}
                    >
                      {/* The visible words begin the name (axe label-content-name-mismatch). */}
                      {reinvite.isPending && reinvite.variables === member.email ? "Sending…" : "Re-invite"}
                      <span className="sr-only"> {member.email}</span>
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </ListCard>
    </section>
  );
}
