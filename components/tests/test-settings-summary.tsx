import { formatDateTime } from "@/components/format/date";
import type { TestSettingsView } from "@/lib/certification/tests/schemas";
import { minutesText } from "@/lib/certification/tests/settings-text";
import { localeNames } from "@/lib/platform/i18n/locales";

const showAnswersText = { after_submit: "after submitting", after_close: "after the test closes", never: "never" } as const;

/** A test's settings in a line each, as the trainer chose them (defaults included). */
export function TestSettingsSummary({ test }: { test: TestSettingsView }) {
  const items = [
    { key: "draw", text: test.draw === "per_recipient" ? "A different set of questions per recipient" : "The same questions for everyone" },
    { key: "time-limit", text: test.time_limit_minutes === null ? "No time limit" : `Time limit ${minutesText(test.time_limit_minutes)}` },
    { key: "window", text: windowText(test) },
    { key: "pass-mark", text: test.pass_mark === null ? "No pass mark" : `Pass mark ${test.pass_mark}%` },
    { key: "shuffle", text: test.shuffle_options ? "Options shuffled per recipient" : "Options in their own order" },
    { key: "answers", text: `Correct answers shown ${showAnswersText[test.show_answers]}` },
    { key: "reminder", text: test.reminder_after_hours === null ? "No reminder" : `One reminder after ${test.reminder_after_hours} h` },
    { key: "result", text: test.send_result ? "Result e-mailed on completion" : "Result not e-mailed" },
    { key: "certificate", text: test.certificate ? "Certificate on a pass" : "No certificate" },
    { key: "integrity", text: test.record_integrity ? "Integrity signals recorded" : "No integrity record" },
    { key: "language", text: test.language === "auto" ? "Language: each recipient's browser" : `Language: ${localeNames[test.language]}` },
  ];
  return (
    <ul className="flex flex-wrap gap-2" data-testid="test-settings">
      {items.map((item) => (
        <li key={item.key} data-setting={item.key} className="rounded-md bg-slate-100 px-2 py-1 text-slate-700">
          {item.text}
        </li>
      ))}
    </ul>
  );
}

function windowText(test: TestSettingsView): string {
  if (test.opens_at && test.closes_at) return `Open ${formatDateTime(test.opens_at)} – ${formatDateTime(test.closes_at)}`;
  if (test.opens_at) return `Opens ${formatDateTime(test.opens_at)}`;
  if (test.closes_at) return `Closes ${formatDateTime(test.closes_at)}`;
  return "Always open";
}
