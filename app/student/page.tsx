import Link from "next/link";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";
import { StudentClasses } from "@/components/student/student-classes";
import { StudentTests } from "@/components/student/student-tests";
import { AppHeader } from "@/components/layout/app-header";
import { PageHeader } from "@/components/ui/card";
import { currentUser } from "@/lib/platform/auth/session";
import { studentArea } from "@/lib/certification/students/area";
import { translator } from "@/lib/platform/i18n/translator";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";

/** In the student's language (their browser's: app/_i18n/request.ts). */
export async function generateMetadata() {
  return { title: translator(await getLocale(), "classes")("student.title") };
}

export default async function StudentPage() {
  const user = await currentUser();
  if (!user) redirect("/signin?callbackUrl=/student");
  const [area, locale] = await Promise.all([studentArea(await getDb(), user), getLocale()]);
  const t = translator(locale, "classes");

  return (
    <div className="min-h-screen">
      <AppHeader home="/student" width="max-w-4xl" labels={{ skipToContent: t("student.skipToContent"), signOut: t("student.signOut") }}>
        <span className="min-w-0 break-all text-slate-500">{user.email}</span>
        <Link href="/tests" className="font-medium text-slate-700 underline-offset-2 hover:underline">
          {t("student.trainerArea")}
        </Link>
      </AppHeader>
      <main id="main" tabIndex={-1} className="mx-auto max-w-4xl space-y-8 px-4 py-6 focus:outline-none">
        <PageHeader title={t("student.title")} description={t("student.description")} />
        <section aria-labelledby="tests-heading" className="space-y-3">
          <h2 id="tests-heading" className="text-lg font-semibold">
            {t("student.yourTests")}
          </h2>
          <StudentTests tests={area.tests} email={user.email} locale={locale} />
        </section>
        <section aria-labelledby="classes-heading" className="space-y-3">
          <h2 id="classes-heading" className="text-lg font-semibold">
            {t("student.yourClasses")}
          </h2>
          <StudentClasses classes={area.classes} locale={locale} />
        </section>
      </main>
    </div>
  );
}
