"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Notice } from "@/components/ui/card";
import { queryKeys } from "@/components/query-keys";
import { certificateContracts } from "@/lib/certification/certificates/contracts";

const longDate = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** On the answer sheet of a recipient who earned a certificate: whether it is valid, its public page, and Revoke. */
export function RecipientCertificate({ code, recipientId }: { code: string; recipientId: number }) {
  const client = useQueryClient();
  const key = queryKeys.certificate(code, recipientId);
  const certificate = useQuery({ queryKey: key, queryFn: () => callApi(certificateContracts.get, { params: { code, id: recipientId } }) });
  const revoke = useMutation({
    mutationFn: () => callApi(certificateContracts.revoke, { params: { code, id: recipientId } }),
    onSuccess: (revoked) => client.setQueryData(key, revoked),
  });
  const data = certificate.data;
  if (certificate.isError) return <Notice tone="error">{certificate.error.message}</Notice>;
  if (!data) return null;
  const revoked = data.status === "revoked";
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="recipient-certificate" data-status={data.status}>
      <span className="font-medium">Certificate</span>
      <Badge tone={revoked ? "danger" : "success"}>{revoked ? `Revoked ${longDate(data.revoked_at!)}` : "Valid"}</Badge>
      <a href={data.url} target="_blank" rel="noreferrer" className="text-brand-700 underline-offset-2 hover:underline">
        Verification page
      </a>
      {revoked ? null : (
        <ConfirmButton
          type="button"
          variant="danger"
          disabled={revoke.isPending}
          question={`Revoke ${data.recipient_name}'s certificate? Its public page will say it was revoked. This cannot be undone.`}
          onConfirm={() => revoke.mutate()}
          data-testid="revoke-certificate"
        >
          {revoke.isPending ? "Revoking…" : "Revoke"}
        </ConfirmButton>
      )}
      {revoke.isError ? <Notice tone="error">{revoke.error.message}</Notice> : null}
    </div>
  );
}
