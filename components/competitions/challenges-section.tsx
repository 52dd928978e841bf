"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useFieldArray } from "react-hook-form";
import { callApi } from "@/components/api";
import { FieldMessage, ownErrorAt } from "@/components/forms/field";
import { fieldLabel } from "@/components/forms/field-labels";
import { FormErrors } from "@/components/forms/form-errors";
import { FieldLabel, Select, TextArea, TextInput } from "@/components/forms/inputs";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import type { Page } from "@/lib/kernel/paging";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { templatesOf, type ChallengeCategory } from "@/lib/ctf/templates/catalog";
import { queryKeys } from "@/components/query-keys";
import { type CtfOptions } from "./api";
import { ChallengeTable } from "./challenge-table";
import { emptyChallengeSettings, generateSchema, hintRowsKept, newChallengeSchema, type ChallengeBody, type GenerateBody } from "./competition-forms";
import { GatingFields, ScoringFields } from "./challenge-settings-fields";
import { isTransitional } from "./format";
import type { ChallengeView } from "@/lib/ctf/challenges/schemas";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";

export function useChallenges(ctfId: string) {
  return useQuery({
    queryKey: queryKeys.ctfChallenges(ctfId),
    queryFn: () => callApi(challengeContracts.challenges, { params: { ctf_id: ctfId }, query: { per_page: 100 } }),
    refetchInterval: (query) => (query.state.data?.data.some((challenge) => isTransitional(challenge.status)) ? 2_000 : false),
  });
}

export function ChallengesSection({ ctf, options }: { ctf: CtfView; options: CtfOptions }) {
  const challenges = useChallenges(ctf.id);
  const archived = ctf.status === "archived";
  return (
    <section aria-labelledby="challenges-title" className="space-y-4">
      <h2 id="challenges-title" className="text-lg font-semibold">
        Challenges
      </h2>
      {archived ? null : (
        <div className="grid gap-4 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <CreateChallengeForm ctf={ctf} options={options} />
          </div>
          <GenerateForm ctf={ctf} options={options} />
        </div>
      )}
      <ChallengeTable ctf={ctf} challenges={challenges.data?.data} loading={challenges.isLoading} error={challenges.error} maxFileBytes={options.maxFileBytes} />
    </section>
  );
}

/** After a challenge is added or generated: the lists and counts that show it. */
function useChallengeAdded(ctfId: string) {
  const client = useQueryClient();
  return () => {
    client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctfId) });
    client.invalidateQueries({ queryKey: queryKeys.ctf(ctfId), exact: true });
    client.invalidateQueries({ queryKey: queryKeys.ctfList() });
  };
}

const choicesOf = (names: readonly string[]) =>
  names.map((name) => (
    <option key={name} value={name}>
      {name}
    </option>
  ));

function CreateChallengeForm({ ctf, options }: { ctf: CtfView; options: CtfOptions }) {
  const added = useChallengeAdded(ctf.id);
  const form = useApiForm(newChallengeSchema, {
    defaultValues: { title: "", category: options.categories[0] ?? "", difficulty: "", description: "", points: "100", flag: "", flag_mode: "exact", hints: [], ...emptyChallengeSettings },
  });
  const others = useChallenges(ctf.id).data?.data ?? [];
  const hints = useFieldArray({ control: form.control, name: "hints" });
  // The organiser may see the flag while typing it; it is hidden again once sent.
  const [flagShown, setFlagShown] = useState(false);
  const flagMode = form.watch("flag_mode");
  const create = useFormMutation(form, {
    mutationFn: (body: ChallengeBody) => callApi(challengeContracts.createChallenge, { params: { ctf_id: ctf.id }, body }),
    onSuccess: () => {
      form.reset({ ...form.getValues(), title: "", description: "", points: "100", hints: [], requires: [], max_attempts: "", tags: "" });
      added();
    },
    // The flag is never kept longer than needed, also when the request fails.
    onSettled: () => {
      form.setValue("flag", "");
      setFlagShown(false);
    },
  });
  // The body's hints.<n> is the n-th row with a text: its error goes beside that row.
  const kept = hintRowsKept(form.watch("hints"));
  const errors = form.formState.errors;

  return (
    <Card>
      <h3 className="font-semibold">Add a challenge</h3>
      <form className="mt-3 space-y-4" autoComplete="off" noValidate onSubmit={form.handleSubmit((body) => create.mutate(body))}>
        <TextInput form={form} name="title" id="challenge-title" required maxLength={200} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Select form={form} name="category" id="challenge-category" required>
            {choicesOf(options.categories)}
          </Select>
          <Select form={form} name="difficulty" id="challenge-difficulty">
            <option value="">Not set</option>
            {choicesOf(options.difficulties)}
          </Select>
        </div>
        <ScoringFields form={form} />
        <TextArea form={form} name="description" id="challenge-description" optional maxLength={10000} />
        <div className="flex items-start gap-2">
          <TextInput
            form={form}
            name="flag"
            id="challenge-flag"
            type={flagShown ? "text" : "password"}
            autoComplete="new-password"
            spellCheck={false}
            required
            maxLength={500}
            placeholder="CTF{…}"
            className="min-w-0 flex-1 space-y-1"
            hint="Stored hashed (and sealed for an external host); it is never shown again once added."
          />
          <Button type="button" variant="secondary" className="mt-6" aria-pressed={flagShown} aria-controls="challenge-flag" onClick={() => setFlagShown((shown) => !shown)}>
            Show
          </Button>
        </div>
        <Select
          form={form}
          name="flag_mode"
          id="challenge-flag-mode"
          hint={flagMode === "regex" ? "RE2 syntax, e.g. flag\\{[a-z0-9_]+\\}: the whole answer must match (it is anchored). Back-references and look-arounds are not supported." : undefined}
        >
          <option value="exact">Exactly as written</option>
          <option value="case_insensitive">Upper or lower case alike</option>
          <option value="regex">A regular expression</option>
        </Select>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">
            <FieldLabel name="hints" optional />
          </legend>
          {hints.fields.map((hint, index) => {
            const at = kept.indexOf(index);
            return (
              <div key={hint.id} className="flex flex-wrap items-start gap-2" data-testid="hint-row">
                <TextInput
                  form={form}
                  name={`hints.${index}.text`}
                  id={`hint-${index}-text`}
                  label={fieldLabel(`hints.${index}`)}
                  errorPath={at >= 0 ? `hints.${at}.text` : `hints.${index}.text`}
                  className="min-w-48 flex-1 space-y-1"
                  maxLength={1000}
                />
                <TextInput
                  form={form}
                  name={`hints.${index}.cost`}
                  id={`hint-${index}-cost`}
                  errorPath={at >= 0 ? `hints.${at}.cost` : `hints.${index}.cost`}
                  className="w-32 space-y-1"
                  type="number"
                  min={0}
                  max={10000}
                />
                <Button type="button" variant="ghost" className="mt-6" aria-label={`Remove ${fieldLabel(`hints.${index}`).toLowerCase()}`} onClick={() => hints.remove(index)}>
                  Remove
                </Button>
              </div>
            );
          })}
          <FieldMessage error={ownErrorAt(errors, "hints")} />
          {hints.fields.length < 10 ? (
            <Button type="button" variant="secondary" onClick={() => hints.append({ text: "", cost: "0" })}>
              Add a hint
            </Button>
          ) : null}
        </fieldset>
        <GatingFields form={form} others={others} />
        {create.isSuccess ? <Notice tone="success">Challenge &ldquo;{create.data.title}&rdquo; added as a draft.</Notice> : null}
        <FormErrors errors={errors} />
        <SubmitButton pending={create.isPending} pendingLabel="Adding…">
          Add challenge
        </SubmitButton>
      </form>
    </Card>
  );
}

function GenerateForm({ ctf, options }: { ctf: CtfView; options: CtfOptions }) {
  const added = useChallengeAdded(ctf.id);
  const form = useApiForm(generateSchema, {
    defaultValues: { category: options.categories[0] ?? "", difficulty: options.difficulties[0] ?? "", template: "" },
  });
  const category = form.watch("category");
  const templates = templatesOf(category as ChallengeCategory);
  // A template belongs to one category: choosing another category forgets it.
  useEffect(() => {
    const chosen = form.getValues("template");
    if (chosen && !templatesOf(category as ChallengeCategory).some((template) => template.key === chosen)) form.setValue("template", "");
  }, [form, category]);
  const client = useQueryClient();
  const generate = useFormMutation(form, {
    mutationFn: (body: GenerateBody) => callApi(challengeContracts.generateChallenge, { params: { ctf_id: ctf.id }, body }),
    onSuccess: (challenge) => {
      // The 202 answers the `generating` challenge: listed at once (the list then polls until it is built).
      client.setQueryData(queryKeys.ctfChallenges(ctf.id), (page: Page<ChallengeView> | undefined) =>
        page && !page.data.some((row) => row.id === challenge.id) ? { ...page, data: [challenge, ...page.data] } : page,
      );
      added();
    },
  });
  const requested = generate.data;
  const listed = useChallenges(ctf.id).data?.data.find((row) => row.id === requested?.id);
  return (
    <Card>
      <h3 className="font-semibold">Generate a challenge</h3>
      <p className="mt-1 text-sm text-slate-600">
        Built from a shipped template: a solvable challenge (a file, a web target, or both) with a fresh random flag, points and hints scaled to the difficulty. Reveal its flag and solution from the list.
      </p>
      <ApiForm form={form} mutation={generate} className="mt-3 space-y-4" variant="secondary" submitLabel="Generate" pendingLabel="Requesting…">
        <Select form={form} name="category" id="generate-category" required>
          {choicesOf(options.categories)}
        </Select>
        <Select form={form} name="difficulty" id="generate-difficulty" required>
          {choicesOf(options.difficulties)}
        </Select>
        <Select form={form} name="template" id="generate-template">
          <option value="">Any {category} template</option>
          {templates.map((template) => (
            <option key={template.key} value={template.key}>
              {template.title}
            </option>
          ))}
        </Select>
      </ApiForm>
      <p role="status" className="mt-3 text-sm text-slate-700" data-testid="generate-status">
        {requested ? generationStatus(listed ?? requested) : null}
      </p>
    </Card>
  );
}

function generationStatus(challenge: ChallengeView): string {
  if (challenge.status === "generating") return "Generating… the challenge is listed below and becomes a draft when it is built.";
  if (challenge.status === "generation_failed") return "Generation failed: see the challenge below.";
  return `“${challenge.title}” generated as a draft.`;
}
