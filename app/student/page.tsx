import Link from "next/link";
import { redirect } from "next/navigation";
import { StudentClasses } from "@/components/student/student-classes";
import { StudentTests } from "@/components/student/student-tests";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { getDb } from "@/db";
import { signOut } from "@/lib/auth/auth";
import { currentUser } from "@/lib/auth/session";
import { studentArea } from "@/lib/students/area";

export const dynamic = "force-dynamic";
export const metadata = { title: "Student area" };

export default async function StudentPage() {
  const user = await currentUser();
  if (!user) redirect("/signin?callbackUrl=/student");
  const area = await studentArea(await getDb(), user);

  async function leave() {
    "use server";
    await signOut({ redirectTo: "/" });
  }

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link href="/student" className="font-bold text-brand-600">
            Certify
          </Link>
          <div className="flex min-w-0 flex-wrap items-center gap-3 text-sm">
            <span className="min-w-0 break-all text-slate-500">{user.email}</span>
            <Link href="/tests" className="font-medium text-slate-700 underline-offset-2 hover:underline">
              Trainer area
            </Link>
            <form action={leave}>
              <Button variant="secondary" type="submit">
                Sign out
              </Button>
            </form>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-4xl space-y-8 px-4 py-6">
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
