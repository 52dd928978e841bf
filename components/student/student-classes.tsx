import { Card } from "@/components/ui/card";
import type { StudentClass } from "@/lib/certification/students/area";
import type { Locale } from "@/lib/platform/i18n/locales";
import { translator } from "@/lib/platform/i18n/translator";
import { dayIn } from "./day";

/** The classes a student joined, in their language (`locale`); class, certification and trainer names as written. */
export function StudentClasses({ classes, locale }: { classes: StudentClass[]; locale: Locale }) {
  const t = translator(locale, "classes");
  if (!classes.length) {
    return (
      <Card>
        <p className="text-sm text-slate-600">{t("student.noClasses")}</p>
      </Card>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {classes.map((klass) => (
        <li key={klass.id} data-testid="student-class">
          <Card className="h-full">
            <h3 className="font-semibold wrap-anywhere">{klass.name}</h3>
            <p className="mt-1 text-sm wrap-anywhere text-slate-600">{klass.certification}</p>
            <p className="mt-2 text-xs text-slate-500">
              {t("student.classTrainer", { trainer: klass.trainer })}
              {klass.joined_at
                ? t.rich("student.joined", { date: dayIn(locale, klass.joined_at), time: (chunks) => <time dateTime={klass.joined_at!}>{chunks}</time> })
                : null}
            </p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
