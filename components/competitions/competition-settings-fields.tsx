import type { UseFormReturn } from "react-hook-form";
import { Select, TextInput, wholeNumberInput } from "@/components/forms/inputs";
import { Button } from "@/components/ui/button";
import type { CompetitionValues } from "./competition-forms";

/**
 * How the competition is played: individually or in teams (fixed once it has started:
 * `modeLocked` says why the choice is disabled), the team size limit (teams mode), and when the
 * public scoreboard freezes (a time in the browser's zone, as the window; clearable).
 */
export function CompetitionSettingsFields({ form, idPrefix, modeLocked }: { form: UseFormReturn<CompetitionValues, unknown, unknown>; idPrefix: string; modeLocked?: string }) {
  const teams = form.watch("mode") === "teams";
  const frozen = form.watch("freeze_at") !== "";
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">How it is played</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Select form={form} name="mode" id={`${idPrefix}-mode`} disabled={Boolean(modeLocked)} hint={modeLocked ?? "Teams: players create or join a team; its members share solves, hint costs and tries."}>
          <option value="individual">Individual</option>
          <option value="teams">Teams</option>
        </Select>
        {teams ? (
          <TextInput
            form={form}
            name="team_size_max"
            id={`${idPrefix}-team-size`}
            optional
            {...wholeNumberInput(1, 100)}
            hint="Blank: no limit. Lowering it later keeps the members a team already has."
          />
        ) : null}
      </div>
      <div className="flex flex-wrap items-start gap-2">
        <TextInput
          form={form}
          name="freeze_at"
          id={`${idPrefix}-freeze`}
          type="datetime-local"
          optional
          min={form.watch("starts_at") || undefined}
          className="min-w-0 flex-1 space-y-1"
          hint="From then on, the public scoreboard shows the standings as they were; players still see their own solves and you see the live board."
        />
        {frozen ? (
          <Button type="button" variant="secondary" className="mt-6" aria-controls={`${idPrefix}-freeze`} onClick={() => form.setValue("freeze_at", "", { shouldDirty: true })}>
            Clear freeze
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}
