"use client";

import { useRef } from "react";
import { errorAt, Field, FieldMessage, ownErrorAt } from "@/components/forms/field";
import { Radio, wholeNumberInput } from "@/components/forms/inputs";
import { Card } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import type { DomainView } from "@/lib/certification/catalog/schemas";
import { splitEvenly } from "@/lib/certification/tests/draw";
import { MAX_QUESTIONS } from "@/lib/certification/tests/schemas";
import type { NewTestFormApi } from "./schema";
import { DrawChoice } from "./draw-choice";

const wholeNumber = (text: string | undefined) => (text && /^\s*\d+\s*$/.test(text) ? Number(text) : null);

/**
 * 3. Questions: a total split in equal parts (the preview is the server's own split,
 * lib/certification/tests/draw.ts), or a count per domain. Switching between the two keeps the counts
 * chosen: the split fills the per-domain counts not typed, their sum a blank total.
 */
export function QuestionsStep({ form, domains }: { form: NewTestFormApi; domains: DomainView[] }) {
  const mode = form.watch("questionMode");
  const tickedIds = new Set(form.watch("domains"));
  const ticked = domains.filter((d) => tickedIds.has(d.id));
  const total = wholeNumber(form.watch("questions"));
  const perDomain = form.watch("perDomain");
  const errors = form.formState.errors;

  // Switching keeps what was chosen: the equal split becomes the per-domain counts (all but
  // those the trainer typed), and a blank total becomes the per-domain sum.
  const typed = useRef(new Set<number>());
  const toPerDomain = () => {
    const typedTotal = wholeNumber(form.getValues("questions"));
    if (!typedTotal || !ticked.length) return;
    const even = splitEvenly(typedTotal, ticked.map((d) => d.id));
    for (const domain of ticked) {
      const count = even.get(domain.id);
      if (count && !typed.current.has(domain.id)) form.setValue(`perDomain.${domain.id}`, String(count));
    }
  };
  const toEqual = () => {
    if (wholeNumber(form.getValues("questions")) !== null) return;
    const counts = form.getValues("perDomain");
    const sum = ticked.reduce((acc, d) => acc + (wholeNumber(counts[d.id]) ?? 0), 0);
    if (sum) form.setValue("questions", String(sum));
  };

  return (
    <Card>
      <fieldset>
        <legend className="font-semibold">3. Questions</legend>
        <fieldset className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          <legend className="sr-only">How the questions are chosen</legend>
          <Radio form={form} name="questionMode" value="equal" onChoose={toEqual}>
            Equal split
          </Radio>
          <Radio form={form} name="questionMode" value="per-domain" onChoose={toPerDomain}>
            Per domain
          </Radio>
        </fieldset>
        {ticked.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">{form.watch("certification_id") === undefined ? "Choose a certification first." : "Tick at least one domain."}</p>
        ) : null}
        {mode === "equal" && ticked.length ? <EqualSplit form={form} errors={errors} ticked={ticked} total={total} /> : null}
        {mode === "per-domain" && ticked.length ? (
          <PerDomainCounts
            ticked={ticked}
            perDomain={perDomain}
            errors={errors}
            onCount={(domainId, value) => {
              typed.current.add(domainId);
              form.setValue(`perDomain.${domainId}`, value, { shouldDirty: true });
            }}
          />
        ) : null}
        <FieldMessage error={mode === "per-domain" ? ownErrorAt(errors, "questions_per_domain") : undefined} />
        <DrawChoice form={form} />
      </fieldset>
    </Card>
  );
}

type Errors = NewTestFormApi["formState"]["errors"];

/** The total, and how it splits over the ticked domains (red where a domain is short or gets none). */
function EqualSplit({ form, errors, ticked, total }: { form: NewTestFormApi; errors: Errors; ticked: DomainView[]; total: number | null }) {
  const split = total && ticked.length ? splitEvenly(total, ticked.map((d) => d.id)) : new Map<number, number>();
  return (
    <div className="mt-3 space-y-2">
      <Field id="question-total" label="Total questions" error={errorAt(errors, "questions")} className="max-w-48 space-y-1">
        {(control) => (
          <input
            {...control}
            aria-describedby={[control["aria-describedby"], "question-split"].filter(Boolean).join(" ")}
            {...wholeNumberInput(ticked.length, MAX_QUESTIONS)}
            className={inputClass}
            {...form.register("questions")}
          />
        )}
      </Field>
      <div id="question-split" aria-live="polite" className="text-sm">
        {total ? (
          <>
            <p className="text-slate-600">Split in equal parts; the remainder goes one each to the first domains:</p>
            <ul className="mt-1 space-y-0.5" data-testid="question-split">
              {ticked.map((domain) => {
                const count = split.get(domain.id) ?? 0;
                const short = count > domain.questions;
                return (
                  <li key={domain.id} className={short || count === 0 ? "text-red-700" : "text-slate-700"}>
                    {domain.name}: <span className="font-medium tabular-nums">{count}</span>
                    {short ? ` — only ${domain.questions} available` : count === 0 ? " — gets none: ask for more questions" : ""}
                  </li>
                );
              })}
            </ul>
          </>
        ) : (
          <p className="text-slate-600">Give a whole number of questions.</p>
        )}
      </div>
    </div>
  );
}

/** A count for each ticked domain (at most what it holds) and their sum; `onCount` takes what the trainer types. */
function PerDomainCounts({
  ticked,
  perDomain,
  errors,
  onCount,
}: {
  ticked: DomainView[];
  perDomain: Record<string, string>;
  errors: Errors;
  onCount: (domainId: number, value: string) => void;
}) {
  return (
    <div className="mt-3 space-y-2">
      <div className="grid gap-3 sm:grid-cols-2">
        {ticked.map((domain, index) => {
          const max = Math.min(domain.questions, MAX_QUESTIONS);
          const id = `domain-questions-${domain.id}`;
          return (
            <Field
              key={domain.id}
              id={id}
              label={
                <>
                  <span className="sr-only">Questions from </span>
                  {domain.name}
                </>
              }
              hint={`1 to ${max} (${domain.questions} available)`}
              error={errorAt(errors, `questions_per_domain.${index}`)}
            >
              {(control) => (
                <input
                  {...control}
                  {...wholeNumberInput(1, max)}
                  className={inputClass}
                  value={perDomain[domain.id] ?? ""}
                  onChange={(e) => onCount(domain.id, e.target.value)}
                />
              )}
            </Field>
          );
        })}
      </div>
      <p className="text-sm text-slate-700" aria-live="polite">
        Total: <span className="font-medium tabular-nums">{ticked.reduce((sum, d) => sum + (wholeNumber(perDomain[d.id]) ?? 0), 0)}</span> questions
      </p>
    </div>
  );
}
