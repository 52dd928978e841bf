"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import type { RequestError } from "@/components/fetch-json";
import { Card, Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { queryKeys } from "@/components/query-keys";
import type { CertificationDetail } from "@/lib/certification/catalog/schemas";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";

/** Deletes the certification (retired instead when tests or classes use it: they keep working), then goes back to the list. */
export function DeleteCertification({ certification }: { certification: CertificationDetail }) {
  const router = useRouter();
  const client = useQueryClient();
  const remove = useMutation<void, RequestError>({
    mutationFn: () => callApi(ownCertificationContracts.remove, { params: { id: certification.id } }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
      router.push("/certifications");
    },
  });
  return (
    <Card>
      <h2 className="font-semibold">Delete this certification</h2>
      <p className="mt-1 text-sm text-slate-600">
        It leaves your catalog: no new tests or classes can use it. Tests already sent, their results and classes stay as they are.
      </p>
      <div className="mt-3">
        <ConfirmButton
          variant="danger"
          question={`Delete ${certification.name} and its ${certification.questions} questions from your catalog? Tests already sent keep their copies.`}
          onConfirm={() => remove.mutate()}
          disabled={remove.isPending}
          data-testid="delete-certification"
        >
          {remove.isPending ? "Deleting…" : "Delete certification"}
        </ConfirmButton>
      </div>
      {remove.error ? (
        <div className="mt-3">
          <Notice tone="error">{remove.error.message}</Notice>
        </div>
      ) : null}
    </Card>
  );
}
