"use client";

import { Checkbox, Select, TextInput, wholeNumberInput } from "@/components/forms/inputs";
import { ZoneNote } from "@/components/format/time-zone";
import { Card } from "@/components/ui/card";
import { MAX_REMINDER_HOURS, MAX_TIME_LIMIT_MINUTES } from "@/lib/certification/tests/schemas";
import { localeNames, locales } from "@/lib/platform/i18n/locales";
import type { NewTestFormApi } from "./schema";

/**
 * 5. Settings, all optional with the API's defaults: the name, a time limit, the window, a
 * pass mark, option shuffling, what the recipients see of the answers, one reminder and the
 * result by e-mail. The window is picked in the browser's zone, which its fieldset names
 * (the note describes the fieldset, as in the competition form).
 */
export function SettingsStep({ form, certification }: { form: NewTestFormApi; certification?: string }) {
  return (
    <Card>
      <fieldset className="space-y-4">
        <legend className="font-semibold">
          5. Settings <span className="font-normal text-slate-500">(optional)</span>
        </legend>
        <TextInput form={form} name="name" id="test-name" maxLength={200} hint={`Shown to recipients and in your lists. Default: “${certification ?? "{certification}"} test”.`} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            form={form}
            name="time_limit_minutes"
            id="test-time-limit"
            {...wholeNumberInput(1, MAX_TIME_LIMIT_MINUTES)}
            hint={`1 to ${MAX_TIME_LIMIT_MINUTES}, from the recipient's Start; blank: no limit. When time is up the test is submitted as it stands.`}
          />
          <TextInput
            form={form}
            name="pass_mark"
            id="test-pass-mark"
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step="any"
            hint="0 to 100; blank: no pass mark. Results then show passed or not."
          />
          <fieldset className="space-y-2 sm:col-span-2" aria-describedby="test-window-zone">
            <legend className="text-sm font-medium text-slate-700">Window</legend>
            <ZoneNote id="test-window-zone" />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextInput form={form} name="opens_at" id="test-opens-at" type="datetime-local" hint="Blank: open at once." />
              <TextInput form={form} name="closes_at" id="test-closes-at" type="datetime-local" hint="Blank: never closes. An attempt in progress is submitted then." />
            </div>
          </fieldset>
          <Select form={form} name="show_answers" id="test-show-answers" hint="What recipients see of the correct answers and explanations.">
            <option value="after_submit">After they submit</option>
            <option value="after_close">After the test closes (needs a closing time)</option>
            <option value="never">Never</option>
          </Select>
          <TextInput
            form={form}
            name="reminder_after_hours"
            id="test-reminder"
            {...wholeNumberInput(1, MAX_REMINDER_HOURS)}
            hint={`1 to ${MAX_REMINDER_HOURS}: one reminder e-mail to those who have not completed by then (never after closing). Blank: none.`}
          />
          <Select form={form} name="language" id="test-language" hint="The language of the recipients' pages and e-mails; the questions stay as written.">
            <option value="auto">Each recipient's browser (e-mails: your default, in Settings)</option>
            {locales.map((locale) => (
              <option key={locale} value={locale}>
                {localeNames[locale]}
              </option>
            ))}
          </Select>
        </div>
        <Checkbox form={form} name="shuffle_options" id="test-shuffle-options" hint="Each recipient sees the options of each question in an order of their own." />
        <Checkbox form={form} name="send_result" id="test-send-result" hint="E-mail each recipient their result when they complete (with the answers only as shown above)." />
        <Checkbox
          form={form}
          name="certificate"
          id="test-certificate"
          hint="Issue a certificate on a pass (needs a pass mark): a PDF, a public verification page and an Open Badges credential, with your organisation and signer (Settings)."
        />
        <Checkbox
          form={form}
          name="record_integrity"
          id="test-record-integrity"
          hint="Address and browser at start and submit, switching to another tab or window, copy attempts and leaving full screen; recipients are told on the start page."
        />
      </fieldset>
    </Card>
  );
}
