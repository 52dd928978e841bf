import Link from "next/link";
import { redirect } from "next/navigation";
import { StudentClasses } from "@/components/student/student-classes";
import { StudentTests } from "@/components/student/student-tests";
import { AppHeader } from "@/components/layout/app-header";
import { PageHeader } from "@/components/ui/card";
import { currentUser } from "@/lib/platform/auth/session";
import { studentArea } from "@/lib/certification/students/area";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";
export const metadata = { title: "Student area" };

export default async function StudentPage() {
  const user = await currentUser();
  if (!user) redirect("/signin?callbackUrl=/student");
  const area = await studentArea(await getDb(), user);

  return (
    <div className="min-h-screen">
      <AppHeader home="/student" width="max-w-4xl">
        <span className="min-w-0 break-all text-slate-500">{user.email}</span>
        <Link href="/tests" className="font-medium text-slate-700 underline-offset-2 hover:underline">
          Trainer area
        </Link>
      </AppHeader>
      <main id="main" tabIndex={-1} className="mx-auto max-w-4xl space-y-8 px-4 py-6 focus:outline-none">
        <PageHeader title="Student area" description="Your classes, the tests sent to you and your results." />
        <section aria-labelledby="tests-heading" className="space-y-3">
          <h2 id="tests-heading" className="text-lg font-semibold">
            Your tests
          </h2>
          <StudentTests tests={area.tests} email={user.email} />
        </section>
        <section aria-labelledby="classes-heading" className="space-y-3">
          <h2 id="classes-heading" className="text-lg font-semibold">
            Your classes
          </h2>
          <StudentClasses classes={area.classes} />
        </section>
      </main>
    </div>
  );
}
