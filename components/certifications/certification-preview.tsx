import Link from "next/link";
import { plural } from "@/components/tests/format";
import { BackLink } from "@/components/ui/back-link";
import { buttonClass } from "@/components/ui/button";
import { Card, Notice, PageHeader } from "@/components/ui/card";
import { SAMPLE_QUESTIONS_PER_DOMAIN, type CertificationPreview as Preview } from "@/lib/certification/catalog/preview";

/**
 * A certification before testing with it: its domains with their question counts and a few
 * sample questions of each, as prompts and options only. The preview never says which option
 * is right, nor why: the catalog's answer key is not shown in the trainer area.
 */
export function CertificationPreview({ certification }: { certification: Preview }) {
  return (
    <>
      <BackLink href="/certifications">All certifications</BackLink>
      <PageHeader
        title={certification.name}
        description={
          <>
            {certification.vendor}
            {certification.code ? ` · ${certification.code}` : ""} · {plural(certification.domains.length, "domain")} · {plural(certification.questions, "question")}
            {certification.own ? " · Yours" : " · Shared catalog"}
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            {certification.own ? (
              <Link href={`/certifications/${certification.id}`} className={buttonClass("secondary")}>
                Edit
              </Link>
            ) : null}
            <Link href={`/tests/new?certification=${certification.id}`} className={buttonClass()} data-testid="create-test-from-certification">
              Create a test
            </Link>
          </div>
        }
      />
      {certification.description ? <p className="mb-4 max-w-3xl text-sm text-slate-700">{certification.description}</p> : null}
      <div className="mb-4">
        <Notice>
          Up to {SAMPLE_QUESTIONS_PER_DOMAIN} sample questions of each domain, without their answers
          {certification.own ? " (your editor shows the answers of your own questions)" : ": the answers of the shared catalog are not shown"}.
        </Notice>
      </div>
      <div className="space-y-4" data-testid="preview-domains">
        {certification.domains.map((domain) => (
          <Card key={domain.id}>
            <section data-testid="preview-domain" data-domain-id={domain.id} aria-labelledby={`domain-${domain.id}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id={`domain-${domain.id}`} className="font-semibold">
                  {domain.name}
                </h2>
                <p className="text-sm text-slate-600" data-testid="domain-questions">
                  {plural(domain.questions, "question")}
                </p>
              </div>
              {domain.samples.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600">No questions yet.</p>
              ) : (
                <ol className="mt-3 space-y-3">
                  {domain.samples.map((question) => (
                    <li key={question.id} className="rounded-md border border-slate-200 p-3" data-testid="sample-question">
                      <p className="whitespace-pre-line text-sm font-medium text-slate-900">{question.prompt}</p>
                      {question.type === "multiple" ? (
                        <p className="mt-1 text-xs text-slate-500" data-testid="sample-type">
                          Multiple response: choose {question.choose}, scored all or nothing
                        </p>
                      ) : null}
                      <ul className="mt-2 space-y-1 text-sm text-slate-700">
                        {question.options.map((option, index) => (
                          <li key={index} className="flex gap-2">
                            <span aria-hidden="true" className="font-mono text-slate-500">
                              {String.fromCharCode(65 + index)}.
                            </span>
                            <span className="whitespace-pre-line">{option}</span>
                          </li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </Card>
        ))}
      </div>
      {certification.domains.length === 0 ? <p className="text-sm text-slate-600">This certification has no domains yet.</p> : null}
    </>
  );
}
