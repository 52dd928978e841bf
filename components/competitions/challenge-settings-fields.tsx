import type { UseFormReturn } from "react-hook-form";
import { FieldMessage, errorAt } from "@/components/forms/field";
import { fieldLabel } from "@/components/forms/field-labels";
import { FieldLabel, Select, TextInput, wholeNumberInput } from "@/components/forms/inputs";
import { Badge } from "@/components/ui/badge";
import type { ChallengeView } from "@/lib/ctf/challenges/schemas";
import type { ChallengeValues } from "./competition-forms";

type ChallengeForm = UseFormReturn<ChallengeValues, unknown, unknown>;

/** Static points, or CTFd's dynamic value: its initial value, the minimum it falls to, and after how many solves. */
export function ScoringFields({ form }: { form: ChallengeForm }) {
  const dynamic = form.watch("scoring_type") === "dynamic";
  return (
    <div className="grid gap-4 sm:grid-cols-4">
      <Select
        form={form}
        name="scoring_type"
        id="challenge-scoring"
        label={<FieldLabel name="scoring" />}
        errorPath="scoring.type"
        className="space-y-1 sm:col-span-1"
        hint={dynamic ? "The value falls with each solve (CTFd’s formula); every solver’s score follows it." : undefined}
      >
        <option value="static">Static</option>
        <option value="dynamic">Dynamic</option>
      </Select>
      {dynamic ? (
        <>
          <TextInput form={form} name="initial" id="challenge-initial" errorPath="scoring.initial" required {...wholeNumberInput(1, 10000)} />
          <TextInput form={form} name="minimum" id="challenge-minimum" errorPath="scoring.minimum" required {...wholeNumberInput(0, 10000)} />
          <TextInput form={form} name="decay" id="challenge-decay" errorPath="scoring.decay" required {...wholeNumberInput(1, 100000)} />
        </>
      ) : (
        <TextInput form={form} name="points" id="challenge-points" required {...wholeNumberInput(1, 10000)} />
      )}
    </div>
  );
}

/**
 * The challenges to solve first (the competition's others, ticked), the wrong tries allowed,
 * and the tags. Ticking keeps the order of the list, so the body's `requires` is stable.
 */
export function GatingFields({ form, others }: { form: ChallengeForm; others: Pick<ChallengeView, "id" | "title">[] }) {
  const chosen = form.watch("requires");
  const toggle = (id: string, on: boolean) =>
    form.setValue(
      "requires",
      others.map((other) => other.id).filter((other) => (other === id ? on : chosen.includes(other))),
      { shouldDirty: true, shouldValidate: form.formState.isSubmitted },
    );
  const error = errorAt(form.formState.errors, "requires");
  return (
    <>
      <fieldset className="space-y-2" aria-describedby={error ? "challenge-requires-error" : "challenge-requires-hint"}>
        <legend className="text-sm font-medium text-slate-700">
          <FieldLabel name="requires" optional />
        </legend>
        <p id="challenge-requires-hint" className="text-xs text-slate-500">
          {others.length ? "Players (or teams) must solve these first; until then the challenge shows as locked." : "No other challenge yet: add one first to require it."}
        </p>
        {others.length ? (
          <div className="grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
            {others.map((other) => (
              <label key={other.id} className="flex min-w-0 items-start gap-2 text-sm">
                <input type="checkbox" className="mt-1" checked={chosen.includes(other.id)} onChange={(event) => toggle(other.id, event.currentTarget.checked)} data-testid="requires-choice" />
                <span className="wrap-anywhere">{other.title}</span>
              </label>
            ))}
          </div>
        ) : null}
        <FieldMessage id="challenge-requires-error" error={error} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput form={form} name="max_attempts" id="challenge-max-attempts" optional {...wholeNumberInput(1, 1000)} hint="Blank: unlimited. After that many wrong flags the challenge closes for the player (or team)." />
        <TextInput
          form={form}
          name="tags"
          id="challenge-tags"
          optional
          maxLength={600}
          placeholder="e.g. sqli, beginner"
          hint="Separated by commas; at most 10, each up to 50 characters."
        />
      </div>
    </>
  );
}

/** What the list says of a challenge's settings: its scoring when dynamic, its prerequisites (by title), its try cap, its tags. */
export function ChallengeSettingsSummary({ challenge, titles }: { challenge: ChallengeView; titles: Map<string, string> }) {
  const scoring = challenge.scoring;
  return (
    <>
      {scoring.type === "dynamic" ? (
        <span className="block text-xs font-normal text-slate-500">
          Dynamic: {scoring.initial} → {scoring.minimum} over {scoring.decay} solves
        </span>
      ) : null}
      {challenge.requires.length ? (
        <span className="block text-xs font-normal text-slate-500">
          {fieldLabel("requires")}: {challenge.requires.map((id) => titles.get(id) ?? id).join(", ")}
        </span>
      ) : null}
      {challenge.max_attempts !== null ? <span className="block text-xs font-normal text-slate-500">At most {challenge.max_attempts} wrong {challenge.max_attempts === 1 ? "try" : "tries"}</span> : null}
      {challenge.tags.length ? (
        <span className="mt-1 flex flex-wrap gap-1 font-normal" data-testid="challenge-tags">
          {challenge.tags.map((tag) => (
            <Badge key={tag}>{tag}</Badge>
          ))}
        </span>
      ) : null}
    </>
  );
}
