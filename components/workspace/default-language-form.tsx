"use client";

import { useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { Select } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { Card, Notice } from "@/components/ui/card";
import { queryKeys } from "@/components/query-keys";
import { localeNames, locales, type Locale } from "@/lib/platform/i18n/locales";
import { workspaceContracts } from "@/lib/platform/workspaces/contracts";
import { defaultLanguageForm, type WorkspaceSettingsView } from "@/lib/platform/workspaces/schemas";

/** The language of e-mails to recipients of tests whose language follows the browser (an e-mail has none to ask), and of class invitations. */
export function DefaultLanguageForm({ settings }: { settings: WorkspaceSettingsView }) {
  const client = useQueryClient();
  const form = useApiForm(defaultLanguageForm, { defaultValues: { default_language: settings.default_language } });
  const save = useFormMutation(form, {
    mutationFn: (body: { default_language: Locale }) => callApi(workspaceContracts.update, { body }),
    onSuccess: (updated) => {
      client.setQueryData(queryKeys.workspace(), updated);
      form.reset({ default_language: updated.default_language });
    },
  });
  return (
    <Card>
      <h2 className="font-semibold">Recipients&apos; language</h2>
      <p className="mt-1 text-sm text-slate-600">
        A test&apos;s pages speak each recipient&apos;s browser language unless the test fixes one. E-mails cannot ask a browser: for those tests, and for class
        invitations, they are written in this language. The trainer area stays in English.
      </p>
      <ApiForm form={form} mutation={save} className="mt-3 space-y-3" submitLabel="Save language" pendingLabel="Saving…">
        <Select form={form} name="default_language" id="default-language" hint="English, German, French or Spanish.">
          {locales.map((locale) => (
            <option key={locale} value={locale}>
              {localeNames[locale]}
            </option>
          ))}
        </Select>
        {save.isSuccess && !form.formState.isDirty ? <Notice tone="success">Saved: e-mails sent from now on use it.</Notice> : null}
      </ApiForm>
    </Card>
  );
}
