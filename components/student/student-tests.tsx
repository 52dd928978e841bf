import { DomainBars } from "@/components/taking/score-bars";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { StudentTest } from "@/lib/certification/students/area";
import { formatDate } from "@/components/format/date";

const statusBadge = {
  sent: { tone: "neutral", label: "Sent", action: "Start the test" },
  started: { tone: "warning", label: "Started", action: "Continue the test" },
  completed: { tone: "success", label: "Completed", action: "See your answers" },
} as const;

export function StudentTests({ tests, email }: { tests: StudentTest[]; email: string }) {
  if (!tests.length) {
    return (
      <Card>
        <p className="text-sm text-slate-600">No test has been sent to {email} yet.</p>
      </Card>
    );
  }
  return (
    <ul className="space-y-4">
      {tests.map((test) => (
        <li key={test.recipient_id}>
          <StudentTestCard test={test} />
        </li>
      ))}
    </ul>
  );
}

function StudentTestCard({ test }: { test: StudentTest }) {
  const badge = statusBadge[test.status];
  return (
    <Card>
      <article data-testid="student-test" data-code={test.code} data-status={test.status}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="font-semibold break-words">{test.name}</h3>
            <p className="text-sm text-slate-600">
              {test.certification} · test <span className="font-mono">{test.code}</span> · from {test.trainer}
            </p>
          </div>
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
        <p className="mt-2 text-xs text-slate-500">
          Sent <time dateTime={test.sent_at}>{formatDate(test.sent_at)}</time>
          {test.completed_at ? (
            <>
              {" "}
              · completed <time dateTime={test.completed_at}>{formatDate(test.completed_at)}</time>
            </>
          ) : null}
        </p>
        {test.result ? (
          <div className="mt-4 space-y-4">
            <p className="flex flex-wrap items-baseline gap-x-3">
              <span className="text-3xl font-bold tracking-tight">{test.result.percent}%</span>
              <span className="text-sm text-slate-600">
                {test.result.correct} of {test.result.questions} correct
              </span>
              {test.result.passed === true || test.result.passed === false ? (
                <Badge tone={test.result.passed ? "success" : "danger"}>{test.result.passed ? "Passed" : "Not passed"}</Badge>
              ) : null}
            </p>
            <DomainBars domains={test.result.domains} />
          </div>
        ) : null}
        {/* A plain link to the personal page (its Start button starts the test). */}
        <a href={test.path} className={buttonClass(test.status === "completed" ? "secondary" : "primary", "mt-4 min-h-11 w-full sm:w-auto")}>
          {badge.action}
        </a>
      </article>
    </Card>
  );
}
