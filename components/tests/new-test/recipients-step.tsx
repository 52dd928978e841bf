"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { callApi } from "@/components/api";
import { errorAt, Field } from "@/components/forms/field";
import { Radio } from "@/components/forms/inputs";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { classContracts } from "@/lib/certification/classes/contracts";
import { queryKeys } from "@/components/query-keys";
import { plural } from "../format";
import { parseRecipients } from "../parse-recipients";
import { RecipientsInput } from "../recipients-input";
import { useUsage } from "../usage";
import type { NewTestFormApi } from "./schema";

/** 4. Recipients: people typed or pasted, or a class (its joined students); and whether to e-mail them. */
export function RecipientsStep({ form }: { form: NewTestFormApi }) {
  const usage = useUsage();
  const mode = form.watch("recipientMode");
  const text = form.watch("recipientsText");
  const parsed = parseRecipients(text);
  const classes = useQuery({
    queryKey: queryKeys.classOptions(),
    queryFn: () => callApi(classContracts.list, { query: { per_page: 100 } }),
    enabled: mode === "class",
  });
  const classId = form.watch("class_id");
  const chosenClass = classes.data?.data.find((c) => String(c.id) === classId);
  const seats = usage.data?.limits.seats;
  const headcount = mode === "people" ? parsed.recipients.length : (chosenClass?.students ?? 0);
  const overSeats = seats !== undefined && headcount > seats;
  const errors = form.formState.errors;
  return (
    <Card>
      <fieldset>
        <legend className="font-semibold">4. Recipients</legend>
        <p className="mt-1 text-sm text-slate-600" data-testid="plan-seats">
          {seats !== undefined ? (
            <>
              Seats: {seats} recipients per test on the <span className="font-medium">{usage.data?.plan}</span> plan.
            </>
          ) : (
            " "
          )}
        </p>
        <fieldset className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          <legend className="sr-only">Send to</legend>
          <Radio form={form} name="recipientMode" value="people">
            People
          </Radio>
          <Radio form={form} name="recipientMode" value="class">
            Class
          </Radio>
        </fieldset>
        <div className="mt-3">
          {mode === "people" ? (
            <RecipientsInput
              id="test-recipients"
              value={text}
              onChange={(value) => form.setValue("recipientsText", value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
              parsed={parsed}
              error={errorAt(errors, "recipients", (list, index) => (list === "recipients" ? parsed.recipients[index]?.email : undefined))}
              seatsNote={seats !== undefined ? `${seats} seats${overSeats ? ": too many for your plan" : ""}` : undefined}
            />
          ) : (
            <div className="space-y-1">
              <Field
                id="test-class"
                label="Which class"
                error={errorAt(errors, "class_id")}
                hint={
                  <span className={overSeats ? "text-red-700" : undefined}>
                    {chosenClass
                      ? `Sent to its ${plural(chosenClass.students, "joined student")}${
                          chosenClass.pending_invitations ? `, not to its ${plural(chosenClass.pending_invitations, "pending invitation")}` : ""
                        }${overSeats ? `: more than the ${seats} seats of your plan` : ""}.`
                      : "The test goes to every student who has joined the class."}
                  </span>
                }
              >
                {(control) => (
                  <select {...control} className={inputClass} {...form.register("class_id")} value={classId ?? ""}>
                    <option value="">{classes.isLoading ? "Loading classes…" : "Choose a class"}</option>
                    {classes.data?.data.map((c) => (
                      <option key={c.id} value={c.id} disabled={c.students === 0}>
                        {c.name} — {c.certification} ({c.students === 0 ? "no joined students yet" : plural(c.students, "student")})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {classes.data?.data.length === 0 ? (
                <p className="text-sm text-slate-600">
                  No classes yet.{" "}
                  <Link href="/classes" className="text-brand-700 underline">
                    Create one under Classes
                  </Link>
                  .
                </p>
              ) : null}
              {classes.error ? <Notice tone="error">{classes.error.message}</Notice> : null}
            </div>
          )}
        </div>
        <div className="mt-4">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" aria-describedby="send-email-hint" {...form.register("send_email")} />
            Send e-mails
          </label>
          <p id="send-email-hint" className="ml-6 text-xs text-slate-500">
            Unticked: nothing is e-mailed; you share each personal link yourself from the test page.
          </p>
        </div>
      </fieldset>
    </Card>
  );
}
