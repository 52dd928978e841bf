import { EmailAddress } from "@/components/ui/email-address";
import { formatPercent } from "@/components/tests/format";
import type { ClassProgressView } from "@/lib/certification/classes/schemas";
import { levelLabels, levelStyles, scoreLevel, type DomainGroup, type ScoreLevel } from "./progress";

type ProgressStudent = ClassProgressView["students"][number];

/** The student × domain grid of a class's progress: each student's average in each domain, coloured by level. */
export function DomainGrid({ groups, students }: { groups: DomainGroup[]; students: ProgressStudent[] }) {
  // One certification: its name is the class's, in the page's title. Several: each heads its own columns.
  const headed = groups.length > 1;
  return (
    <section aria-labelledby="domain-grid-title">
      <h3 id="domain-grid-title" className="text-sm font-semibold text-slate-800">
        Average by domain
      </h3>
      <Legend />
      {groups.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No domain results yet.</p>
      ) : (
        <div className="mt-2 md:overflow-x-auto" role="region" aria-label="Average by domain table" tabIndex={0}>
          {headed ? (
            <p className="mb-1 text-xs text-slate-600">
              Some tests of this class were for another certification: their domains have columns of their own.
            </p>
          ) : null}
          {/* Below md a card per student, a tile per domain (app/globals.css): a phone never scrolls sideways. */}
          <table className="stack-grid w-full border-separate border-spacing-1 text-left text-sm" data-testid="progress-grid">
            <caption className="sr-only">Average percent of each student in each domain{headed ? ", by certification" : ""}</caption>
            <thead className="text-xs text-slate-500 max-md:sr-only">
              {headed ? (
                <tr>
                  <td />
                  {groups.map((group) => (
                    <th
                      key={group.certification_id}
                      scope="colgroup"
                      colSpan={group.domains.length}
                      className="border-b border-slate-300 px-2 py-1 text-center font-semibold text-slate-700"
                      data-testid="progress-certification"
                    >
                      {group.certification}
                    </th>
                  ))}
                </tr>
              ) : null}
              <tr>
                <th scope="col" className="min-w-40 px-2 py-1 font-medium uppercase">
                  Student
                </th>
                {groups.flatMap((group) =>
                  group.domains.map((domain) => (
                    <th key={`${group.certification_id}:${domain.id}`} scope="col" className="min-w-24 px-2 py-1 align-bottom font-medium">
                      {domain.name}
                    </th>
                  )),
                )}
              </tr>
            </thead>
            <tbody>
              {students.map((student) => (
                <StudentDomainsRow key={student.email} student={student} groups={groups} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** One student's row of the grid: a cell per domain column, in the groups' order. */
function StudentDomainsRow({ student, groups }: { student: ProgressStudent; groups: DomainGroup[] }) {
  return (
    <tr>
      <th scope="row" className="px-2 py-1 font-normal">
        <span className="block wrap-anywhere">{student.name ?? <EmailAddress address={student.email} />}</span>
        {student.name ? (
          <span className="block text-xs text-slate-500 wrap-anywhere">
            <EmailAddress address={student.email} />
          </span>
        ) : null}
      </th>
      {groups.flatMap((group) =>
        group.domains.map((domain) => {
          const average = student.domains.find((d) => d.id === domain.id && d.certification_id === group.certification_id)?.average_percent;
          const level = scoreLevel(average);
          return (
            <td
              key={`${group.certification_id}:${domain.id}`}
              data-testid="progress-cell"
              data-email={student.email}
              data-domain={domain.name}
              data-domain-id={domain.id}
              data-certification-id={group.certification_id}
              data-level={level}
              data-label={domain.name}
              className={`rounded px-2 py-2 text-center font-medium tabular-nums ${levelStyles[level]}`}
            >
              {average === undefined ? (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">No result yet</span>
                </>
              ) : (
                formatPercent(average)
              )}
            </td>
          );
        }),
      )}
    </tr>
  );
}

function Legend() {
  const levels: ScoreLevel[] = ["low", "medium", "high", "none"];
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Colour legend">
      {levels.map((level) => (
        <li key={level} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-3 w-5 rounded ring-1 ring-inset ring-black/10 ${levelStyles[level]}`} />
          {levelLabels[level]}
        </li>
      ))}
    </ul>
  );
}
