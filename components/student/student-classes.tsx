import { Card } from "@/components/ui/card";
import type { StudentClass } from "@/lib/certification/students/area";
import { formatDate } from "@/components/format/date";

export function StudentClasses({ classes }: { classes: StudentClass[] }) {
  if (!classes.length) {
    return (
      <Card>
        <p className="text-sm text-slate-600">
          You have not joined a class yet. When a trainer invites you, open the link in the invitation e-mail.
        </p>
      </Card>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {classes.map((klass) => (
        <li key={klass.id} data-testid="student-class">
          <Card className="h-full">
            <h3 className="font-semibold break-words">{klass.name}</h3>
            <p className="mt-1 text-sm break-words text-slate-600">{klass.certification}</p>
            <p className="mt-2 text-xs text-slate-500">
              Trainer: {klass.trainer}
              {klass.joined_at ? (
                <>
                  {" "}
                  · joined <time dateTime={klass.joined_at}>{formatDate(klass.joined_at)}</time>
                </>
              ) : null}
            </p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
