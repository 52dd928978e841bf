import Link from "next/link";
import { formatDateTime } from "@/components/format/date";
import { BackLink } from "@/components/ui/back-link";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { insightContracts } from "@/lib/certification/insight/contracts";
import type { TestView } from "@/lib/certification/tests/schemas";
import { urlOf } from "@/lib/kernel/contract";
import { Bar } from "./bars";
import { plural } from "./format";
import { TestSettingsSummary } from "./test-settings-summary";

/** A test's name, certification and code, its Copy and Export CSV actions, and its figures, settings and domains. */
export function TestHeader({ test }: { test: TestView }) {
  const total = test.recipients.length;
  return (
    <div>
      <BackLink href="/tests">All tests</BackLink>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere" data-testid="test-name">
            {test.name}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            <span data-testid="test-certification">{test.certification}</span> · test{" "}
            <span data-testid="test-code" className="font-mono">
              {test.code}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`/tests/new?copy=${test.code}`} className={buttonClass("secondary")} data-testid="copy-test">
            Copy<span className="sr-only"> this test with its settings</span>
          </Link>
          <a href={urlOf(insightContracts.exportCsv, { code: test.code })} download className={buttonClass("secondary")} data-testid="export-csv">
            Export CSV
          </a>
        </div>
      </div>
      <Card>
        <dl className="grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs font-medium uppercase text-slate-500">Questions</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums">{test.questions}</dd>
            {test.draw === "per_recipient" ? <dd className="text-xs text-slate-600">each recipient their own set</dd> : null}
          </div>
          <div>
            <dt className="text-xs font-medium uppercase text-slate-500">Completed</dt>
            <dd className="mt-1">
              <span className="text-lg font-semibold tabular-nums" data-testid="test-completed">
                {`${test.completed} / ${total}`}
              </span>{" "}
              <span className="text-slate-600">completed · {test.started} started</span>
              <Bar value={test.completed} max={total} tone="green" className="mt-1 max-w-48" />
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase text-slate-500">Created</dt>
            <dd className="mt-1">{formatDateTime(test.created_at)}</dd>
            {test.class_id ? (
              <dd className="mt-1 text-slate-600">
                Sent to a{" "}
                <Link href={`/classes/${test.class_id}`} className="text-brand-700 underline">
                  class
                </Link>
              </dd>
            ) : null}
          </div>
          <div className="sm:col-span-3">
            <dt className="text-xs font-medium uppercase text-slate-500">Settings</dt>
            <dd className="mt-1">
              <TestSettingsSummary test={test} />
            </dd>
          </div>
          <div className="sm:col-span-3">
            <dt className="text-xs font-medium uppercase text-slate-500">Domains</dt>
            <dd className="mt-1">
              <ul className="flex flex-wrap gap-2">
                {test.domains.map((domain) => (
                  <li key={domain.id} className="rounded-md bg-slate-100 px-2 py-1 text-slate-700" data-testid="test-domain">
                    {domain.name} <span className="text-slate-600">· {plural(domain.questions, "question")}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      </Card>
    </div>
  );
}
