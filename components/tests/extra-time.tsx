"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { queryKeys } from "@/components/query-keys";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { testContracts } from "@/lib/certification/tests/contracts";
import { RequestError } from "@/components/fetch-json";
import { extraTimeMinutes, MAX_EXTRA_TIME_MINUTES, type RecipientView } from "@/lib/certification/tests/schemas";

/** What went wrong, in the field's own words when the server named it. */
const problemOf = (error: Error) => (error instanceof RequestError && error.fields.length ? error.fields.map((field) => field.message).join(" ") : error.message);

/** A recipient's extra time and, once started, their own deadline (shown under their name when there is either). */
export function ExtraTimeNote({ recipient }: { recipient: RecipientView }) {
  if (!recipient.extra_time_minutes && !(recipient.status === "started" && recipient.deadline)) return null;
  return (
    <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600" data-testid="recipient-extra-time" data-minutes={recipient.extra_time_minutes}>
      {recipient.extra_time_minutes ? <Badge tone="info">+{recipient.extra_time_minutes} min extra time</Badge> : null}
      {recipient.status === "started" && recipient.deadline ? (
        <span data-testid="recipient-deadline" data-deadline={recipient.deadline}>
          Ends {formatDateTime(recipient.deadline)}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The "Extra time" action of a recipient's row: minutes added to their deadline (an
 * accommodation), changed with PATCH /tests/{code}/recipients/{id} until they complete. For
 * an attempt in progress the server moves the deadline at once.
 */
export function ExtraTimeEditor({ code, recipient }: { code: string; recipient: RecipientView }) {
  const client = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [minutes, setMinutes] = useState(String(recipient.extra_time_minutes));
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: number) => callApi(testContracts.updateRecipient, { params: { code, id: recipient.id }, body: { extra_time_minutes: value } }),
    onSuccess: () => {
      setOpen(false);
      client.invalidateQueries({ queryKey: queryKeys.test(code) });
    },
  });
  const completed = recipient.status === "completed";

  if (!open) {
    return (
      <Button
        type="button"
        variant="secondary"
        disabled={completed}
        title={completed ? "Completed: the extra time can no longer change" : "Give this recipient more time"}
        onClick={() => {
          setMinutes(String(recipient.extra_time_minutes));
          save.reset();
          setInvalid(null);
          setOpen(true);
        }}
        data-testid="edit-extra-time"
      >
        Extra time<span className="sr-only"> for {recipient.email}</span>
      </Button>
    );
  }
  const value = /^\s*\d+\s*$/.test(minutes) ? Number(minutes) : Number.NaN;
  const problem = invalid ?? (save.error ? problemOf(save.error) : null);
  return (
    <form
      className="flex w-full flex-wrap items-end gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // The contract's own field schema, so the browser says what the server would.
        const checked = extraTimeMinutes.safeParse(value);
        setInvalid(checked.success ? null : checked.error.issues[0].message);
        if (checked.success) save.mutate(checked.data);
      }}
      data-testid="extra-time-form"
    >
      <label htmlFor={`${id}-minutes`} className="block text-xs font-medium text-slate-700">
        Extra minutes for {recipient.email}
        <input
          id={`${id}-minutes`}
          className={`${inputClass} mt-1 w-28`}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_EXTRA_TIME_MINUTES}
          step={1}
          value={minutes}
          onChange={(event) => setMinutes(event.target.value)}
          aria-describedby={problem ? `${id}-error` : undefined}
          aria-invalid={problem ? true : undefined}
          // Opened on purpose by the trainer: the field is what they came for.
          autoFocus
        />
      </label>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save"}
      </Button>
      <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {problem ? (
        <p id={`${id}-error`} role="alert" className="w-full text-xs text-red-700" data-testid="extra-time-error">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
