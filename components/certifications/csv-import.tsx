"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson, RequestError } from "@/components/fetch-json";
import { plural } from "@/components/tests/format";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { csvColumns, MAX_CSV_CHARS, MAX_CSV_ROWS, type ImportResult } from "@/lib/certification/manage-schemas";
import { queryKeys } from "@/lib/query-keys";

const header = csvColumns.join(",");
const template = `${header}\r\nAccounts,Where do you reset a password?,Settings,Billing,,,A,Passwords are under Settings.\r\nBilling,"Which plans have invoices, monthly?",Free,Pro,Both,,B,\r\n`;
const templateHref = `data:text/csv;charset=utf-8,${encodeURIComponent(template)}`;

/** Imports questions from CSV (a file or pasted text); all or nothing, with every bad row listed. */
export function CsvImport({ certificationId }: { certificationId: number }) {
  const client = useQueryClient();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const upload = useMutation({
    mutationFn: () => fetchJson<ImportResult>(`/api/app/my-certifications/${certificationId}/import`, { method: "POST", body: JSON.stringify({ csv: text }) }),
    onMutate: () => setResult(null),
    onSuccess: (imported) => {
      setResult(imported);
      setText("");
      setFileName(null);
      client.invalidateQueries({ queryKey: queryKeys.ownCertification(certificationId) });
      client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certificationId) });
      client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
      client.invalidateQueries({ queryKey: queryKeys.certification(certificationId) });
    },
  });

  const rowErrors = upload.error instanceof RequestError && upload.error.status === 422 ? upload.error.fields : [];

  return (
    <Card>
      <h2 className="font-semibold">Import questions from CSV</h2>
      <div className="mt-1 space-y-1 text-sm text-slate-600">
        <p>
          The first row must be the header <code className="break-all rounded bg-slate-100 px-1 font-mono text-xs">{header}</code>. Then one question per row:{" "}
          <code className="font-mono text-xs">correct</code> is A–D or 1–4; options C and D may be left empty for 2 or 3 options. A domain the
          certification lacks is created. Put a field holding commas, quotes or line breaks in double quotes (a quote inside is doubled).
        </p>
        <p>
          Nothing is imported while any row is wrong; every wrong row is listed. Up to {MAX_CSV_ROWS} rows per file.{" "}
          <a href={templateHref} download="questions-template.csv" className="font-medium text-brand-700 underline underline-offset-2">
            Download a template
          </a>
        </p>
      </div>
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          upload.mutate();
        }}
      >
        <div className="space-y-1">
          <label htmlFor="csv-file" className="block text-sm font-medium text-slate-700">
            CSV file
          </label>
          <input
            id="csv-file"
            type="file"
            accept=".csv,text/csv,text/plain"
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-50"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              setFileError(null);
              upload.reset();
              if (!file) return;
              if (file.size > MAX_CSV_CHARS) {
                setFileError(`The file is larger than ${Math.round(MAX_CSV_CHARS / 1000)} KB; split it in parts.`);
                return;
              }
              setText(await file.text());
              setFileName(file.name);
            }}
          />
          {fileName ? <p className="text-xs text-slate-500">Loaded {fileName}: check or edit it below.</p> : null}
          {fileError ? <Notice tone="error">{fileError}</Notice> : null}
        </div>
        <div className="space-y-1">
          <label htmlFor="csv-text" className="block text-sm font-medium text-slate-700">
            Or paste the CSV
          </label>
          <textarea
            id="csv-text"
            className={`${inputClass} min-h-40 font-mono text-xs`}
            value={text}
            maxLength={MAX_CSV_CHARS}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            placeholder={template}
          />
        </div>
        {result ? (
          <Notice tone="success">
            <span data-testid="csv-imported">
              Imported {plural(result.imported, "question")}
              {result.created_domains.length ? `; new domains: ${result.created_domains.join(", ")}` : ""}.
            </span>
          </Notice>
        ) : null}
        {rowErrors.length ? (
          <Notice tone="error">
            <p className="font-semibold">{upload.error?.message}</p>
            <ul className="mt-1 max-h-64 list-disc space-y-0.5 overflow-y-auto pl-5" data-testid="csv-errors">
              {rowErrors.map((error, index) => (
                <li key={`${error.field}-${index}`} data-field={error.field}>
                  {error.message}
                </li>
              ))}
            </ul>
          </Notice>
        ) : upload.error ? (
          <RequestErrorNotice error={upload.error} />
        ) : null}
        <Button type="submit" disabled={upload.isPending || !text.trim()}>
          {upload.isPending ? "Importing…" : "Import CSV"}
        </Button>
      </form>
    </Card>
  );
}
