"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { callApi, sendBinaryFile } from "@/components/api";
import type { RequestError } from "@/components/fetch-json";
import { queryKeys } from "@/components/query-keys";
import { plural } from "@/components/tests/format";
import { usePageQuery } from "@/components/use-page-query";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { formatBytes } from "@/lib/kernel/values";
import { importCtfdContracts } from "@/lib/ctf/challenges/import-ctfd/contracts";
import { ARCHIVE_MAX_BYTES } from "@/lib/ctf/challenges/import-ctfd/limits";
import type { CtfdImportReport } from "@/lib/ctf/challenges/import-ctfd/schemas";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import type { CtfView } from "@/lib/ctf/competitions/schemas";

/**
 * Brings challenges over from a CTFd export (Admin → Config → Backup → Export) in two steps,
 * as the question-bank import does: Check reads the archive on the server without writing (a
 * dry run) and shows what would be imported, skipped and changed; Import writes them as
 * drafts, and the challenge list below shows them. Choosing another file asks for a new check.
 */
export function ImportCtfdForm({ initial }: { initial: CtfView }) {
  const ctf = usePageQuery({ queryKey: queryKeys.ctf(initial.id), queryFn: () => callApi(ctfContracts.get, { params: { ctf_id: initial.id } }), initial }).data;
  const client = useQueryClient();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const send = (dryRun: boolean) => sendBinaryFile(importCtfdContracts.importCtfd, { params: { ctf_id: ctf.id }, query: { dry_run: String(dryRun) }, file: file! });
  const check = useMutation<CtfdImportReport, RequestError>({ mutationFn: () => send(true) });
  const write = useMutation<CtfdImportReport, RequestError>({
    mutationFn: () => send(false),
    onSuccess: () => {
      setFile(null);
      if (input.current) input.current.value = "";
      check.reset();
      client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctf.id) });
      client.invalidateQueries({ queryKey: queryKeys.ctf(ctf.id), exact: true });
      client.invalidateQueries({ queryKey: queryKeys.ctfList() });
    },
  });
  if (ctf.status === "archived") return null;
  const tooLarge = file !== null && file.size > ARCHIVE_MAX_BYTES;
  const error = check.error ?? write.error;
  const report = write.data ?? check.data;

  return (
    <Card>
      <section aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="font-semibold">
          Import from CTFd
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The zip of CTFd&apos;s Admin → Config → Backup → Export (at most {formatBytes(ARCHIVE_MAX_BYTES)}). Its challenges become drafts here with their flags, hints, tags,
          files, prerequisites and dynamic values; Check shows what would be imported, and what would not carry over, before anything is written.
        </p>
        <div className="mt-4 space-y-1">
          <label htmlFor={`${id}-file`} className="block text-sm font-medium text-slate-700">
            CTFd export (.zip)
          </label>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept=".zip,application/zip"
            data-testid="ctfd-file"
            aria-describedby={tooLarge ? `${id}-too-large` : undefined}
            className="block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-50"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              check.reset();
              write.reset();
            }}
          />
          {tooLarge ? (
            <p id={`${id}-too-large`} className="text-sm text-red-700">
              The file is larger than the limit of {formatBytes(ARCHIVE_MAX_BYTES)}.
            </p>
          ) : null}
        </div>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button variant="secondary" disabled={!file || tooLarge || check.isPending} onClick={() => check.mutate()} data-testid="ctfd-check">
            {check.isPending ? "Checking…" : "Check archive"}
          </Button>
          {check.data && check.data.imported.length > 0 && !write.data ? (
            <Button disabled={write.isPending} onClick={() => write.mutate()} data-testid="ctfd-import">
              {write.isPending ? "Importing…" : `Import ${plural(check.data.imported.length, "challenge")}`}
            </Button>
          ) : null}
        </div>
        <div className="mt-4 space-y-3" aria-live="polite">
          {error ? (
            <Notice tone="error">
              <span data-testid="ctfd-error" className="wrap-anywhere">
                {error.fields?.length ? error.fields.map((field) => field.message).join(" ") : error.message}
              </span>
            </Notice>
          ) : null}
          {write.data ? (
            <Notice tone="success">
              <span data-testid="ctfd-imported">Imported {plural(write.data.imported.length, "challenge")} as drafts: review them below, then publish.</span>
            </Notice>
          ) : null}
          {report ? <ImportReport report={report} /> : null}
        </div>
      </section>
    </Card>
  );
}

function ImportReport({ report }: { report: CtfdImportReport }) {
  return (
    <div className="space-y-3 rounded-md border border-slate-200 p-3 text-sm" data-testid="ctfd-report">
      <p className="font-medium">
        {report.imported.length ? `${plural(report.imported.length, "challenge")} ${report.dry_run ? "can be imported" : "imported"}` : "Nothing in this archive can be imported"}
        {report.skipped.length ? `; ${report.skipped.length} skipped` : ""}.{report.dry_run ? " Nothing has been written yet." : ""}
      </p>
      {report.imported.length ? (
        <ul className="list-disc space-y-0.5 pl-5">
          {report.imported.map((item) => (
            <li key={item.ctfd_id} className="wrap-anywhere" data-testid="ctfd-report-challenge">
              {item.title} ({item.category}): {plural(item.hints, "hint")}, {plural(item.files, "file")}
            </li>
          ))}
        </ul>
      ) : null}
      <ReportList title="Skipped" testId="ctfd-skipped" items={report.skipped.map((item) => `${item.title} (CTFd ${item.ctfd_id}): ${item.reason}`)} />
      <ReportList title="Not carried over, or changed" testId="ctfd-notes" items={report.notes.map((item) => `${item.title ?? "The archive"}${item.ctfd_id === null ? "" : ` (CTFd ${item.ctfd_id})`}: ${item.note}`)} />
    </div>
  );
}

function ReportList({ title, testId, items }: { title: string; testId: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <p className="font-medium">{title}</p>
      <ul className="max-h-64 list-disc space-y-0.5 overflow-y-auto pl-5 text-xs" data-testid={testId} tabIndex={0} aria-label={title}>
        {items.map((item, index) => (
          <li key={index} className="wrap-anywhere">
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}
