"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { errorAt } from "@/components/forms/field";
import { FormErrors } from "@/components/forms/form-errors";
import { SubmitButton } from "@/components/forms/submit-button";
import { showServerErrors, useApiForm } from "@/components/forms/use-api-form";
import { queryKeys } from "@/components/query-keys";
import { Card, Notice } from "@/components/ui/card";
import { testContracts } from "@/lib/certification/tests/contracts";
import type { AddRecipientsInput, TestView } from "@/lib/certification/tests/schemas";
import { addRecipientsSchema } from "./add-recipients-schema";
import { plural } from "./format";
import { parseRecipients } from "./parse-recipients";
import { RecipientsInput } from "./recipients-input";
import { recipientCount } from "./recipient-pages";
import { useUsage } from "./usage";

/** More recipients for a sent test, within the plan's seats, e-mailed or not. */
export function AddRecipients({ test }: { test: TestView }) {
  const client = useQueryClient();
  const usage = useUsage();
  const [added, setAdded] = useState<{ count: number; emailed: boolean } | null>(null);
  const form = useApiForm(addRecipientsSchema, { defaultValues: { recipientsText: "", send_email: true } });
  const text = form.watch("recipientsText");
  const parsed = parseRecipients(text);
  const sent = parsed.recipients;

  const add = useMutation({
    mutationFn: (body: AddRecipientsInput) => callApi(testContracts.addRecipients, { params: { code: test.code }, body }),
    onMutate: () => setAdded(null),
    onSuccess: (result, body) => {
      setAdded({ count: result.data.length, emailed: body.send_email !== false });
      form.reset({ recipientsText: "", send_email: body.send_email !== false });
      client.invalidateQueries({ queryKey: queryKeys.tests() });
    },
    onError: (error) => showServerErrors(form, error),
  });

  const seats = usage.data?.limits.seats;
  const used = recipientCount(test);
  const seatsNote =
    seats !== undefined
      ? `${used} of ${seats} seats used (${seats} recipients per test on the ${usage.data!.plan} plan)${used + sent.length > seats ? ": too many" : ""}`
      : undefined;
  const recipientName = (list: string, index: number) => (list === "recipients" ? sent[index]?.email : undefined);

  return (
    <Card>
      <h2 className="font-semibold">Add recipients</h2>
      <form className="mt-4 space-y-4" noValidate onSubmit={form.handleSubmit((body) => add.mutate(body))}>
        <RecipientsInput
          id="add-recipients"
          value={text}
          onChange={(value) => form.setValue("recipientsText", value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          parsed={parsed}
          error={errorAt(form.formState.errors, "recipients", recipientName)}
          seatsNote={seatsNote}
        />
        <div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" aria-describedby="add-send-email-hint" {...form.register("send_email")} />
            Send e-mails
          </label>
          <p id="add-send-email-hint" className="ml-6 text-xs text-slate-500">
            Unticked: nothing is e-mailed; copy each personal link from the table above.
          </p>
        </div>
        <FormErrors errors={form.formState.errors} itemName={recipientName} />
        {added ? (
          <Notice tone="success">
            Added {plural(added.count, "recipient")}. {added.emailed ? "Their e-mails are on the way." : "No e-mail was sent: copy their links above."}
          </Notice>
        ) : null}
        <SubmitButton pending={add.isPending} pendingLabel="Adding…">
          Add recipients
        </SubmitButton>
      </form>
    </Card>
  );
}
