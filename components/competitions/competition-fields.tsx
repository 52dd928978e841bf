import type { UseFormReturn } from "react-hook-form";
import { Checkbox, TextArea, TextInput } from "@/components/forms/inputs";
import type { CompetitionValues } from "./competition-forms";
import { ZoneNote } from "@/components/format/time-zone";
import { CompetitionSettingsFields } from "./competition-settings-fields";

/**
 * Title, description, window (picked in the browser's zone, which the form names), visibility
 * and how it is played (mode, team size, freeze): the fields of a new competition and of its
 * Edit form. `modeLocked`: why the mode can no longer change.
 */
export function CompetitionFields({ form, idPrefix, modeLocked }: { form: UseFormReturn<CompetitionValues, unknown, unknown>; idPrefix: string; modeLocked?: string }) {
  return (
    <>
      <TextInput form={form} name="title" id={`${idPrefix}-title`} required maxLength={200} placeholder="e.g. Spring CTF 2026" />
      <TextArea form={form} name="description" id={`${idPrefix}-description`} optional maxLength={5000} />
      <fieldset className="space-y-2" aria-describedby={`${idPrefix}-zone`}>
        <legend className="text-sm font-medium text-slate-700">Window</legend>
        <ZoneNote id={`${idPrefix}-zone`} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput form={form} name="starts_at" id={`${idPrefix}-start`} type="datetime-local" required />
          <TextInput form={form} name="ends_at" id={`${idPrefix}-end`} type="datetime-local" required min={form.watch("starts_at") || undefined} />
        </div>
      </fieldset>
      <Checkbox
        form={form}
        name="is_public"
        id={`${idPrefix}-public`}
        hint="Anyone with the competition’s address can enrol with an e-mail address. Private: invited members only."
      />
      <CompetitionSettingsFields form={form} idPrefix={idPrefix} modeLocked={modeLocked} />
    </>
  );
}
