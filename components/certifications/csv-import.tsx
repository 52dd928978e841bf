"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FieldErrors } from "react-hook-form";
import { callApi } from "@/components/api";
import { errorAt, Field } from "@/components/forms/field";
import { fieldLabel } from "@/components/forms/field-labels";
import { errorLeaves } from "@/components/forms/form-errors";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { plural } from "@/components/tests/format";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { manageCertificationContracts } from "@/lib/certification/own/contracts";
import { csvColumns, importCsvInput, MAX_CSV_CHARS, MAX_CSV_ROWS, type ImportCsvInput } from "@/lib/certification/own/schemas";
import { queryKeys } from "@/components/query-keys";

const header = csvColumns.join(",");
const template = `${header}\r\nAccounts,Where do you reset a password?,Settings,Billing,,,A,Passwords are under Settings.\r\nBilling,"Which plans have invoices, monthly?",Free,Pro,Both,,B,\r\nBilling,Which two can pay an invoice? (Choose two.),Card,Cash,Bank transfer,Pigeon,A;C,Invoices take cards and transfers.\r\n`;
const templateHref = `data:text/csv;charset=utf-8,${encodeURIComponent(template)}`;

/** Imports questions from CSV (a file or pasted text); all or nothing, with every bad row listed. */
export function CsvImport({ certificationId }: { certificationId: number }) {
  const client = useQueryClient();
  const [fileName, setFileName] = useState<string | null>(null);
  const form = useApiForm(importCsvInput, { defaultValues: { csv: "" } });
  const upload = useFormMutation(form, {
    mutationFn: (body: ImportCsvInput) => callApi(manageCertificationContracts.importCsv, { params: { id: certificationId }, body }),
    onSuccess: () => {
      form.reset();
      setFileName(null);
      client.invalidateQueries({ queryKey: queryKeys.ownCertification(certificationId) });
      client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certificationId) });
      client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
      client.invalidateQueries({ queryKey: queryKeys.certification(certificationId) });
    },
  });
  const result = upload.data;
  // Every wrong row stands under the text (its message names the row and line); the summary keeps the rest.
  const { rows, ...otherErrors } = form.formState.errors as FieldErrors<ImportCsvInput & { rows?: unknown }>;
  const rowErrors = errorLeaves(rows, "rows");

  return (
    <Card>
      <h2 className="font-semibold">Import questions from CSV</h2>
      <div className="mt-1 space-y-1 text-sm text-slate-600">
        <p>
          The first row must be the header <code className="break-all rounded bg-slate-100 px-1 font-mono text-xs">{header}</code>. Then one question per row:{" "}
          <code className="font-mono text-xs">correct</code> is A–D or 1–4, or two or more joined by <code className="font-mono text-xs">;</code> (<code className="font-mono text-xs">A;C</code>) for a multiple-response question (choose that many); options C and D may be left empty for 2 or 3 options. A domain the
          certification lacks is created. Put a field holding commas, quotes or line breaks in double quotes (a quote inside is doubled).
        </p>
        <p>
          Nothing is imported while any row is wrong; every wrong row is listed. Up to {MAX_CSV_ROWS} rows per file.{" "}
          <a href={templateHref} download="questions-template.csv" className="font-medium text-brand-700 underline underline-offset-2">
            Download a template
          </a>
        </p>
      </div>
      <ApiForm form={form} mutation={upload} className="mt-4 space-y-4" errors={otherErrors} submitLabel="Import CSV" pendingLabel="Importing…">
        <div className="space-y-1">
          <label htmlFor="csv-file" className="block text-sm font-medium text-slate-700">
            {fieldLabel("csv")} file
          </label>
          <input
            id="csv-file"
            type="file"
            accept=".csv,text/csv,text/plain"
            aria-describedby={fileName ? "csv-file-hint" : undefined}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-50"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              upload.reset();
              form.clearErrors();
              if (!file) return;
              if (file.size > MAX_CSV_CHARS) {
                form.setError("csv", { type: "file", message: `The file is larger than ${Math.round(MAX_CSV_CHARS / 1000)} KB; split it in parts.` });
                return;
              }
              form.setValue("csv", await file.text(), { shouldDirty: true });
              setFileName(file.name);
            }}
          />
          {fileName ? (
            <p id="csv-file-hint" className="text-xs text-slate-500">
              Loaded {fileName}: check or edit it below.
            </p>
          ) : null}
        </div>
        <Field id="csv-text" label={`Or paste the ${fieldLabel("csv")}`} error={errorAt(form.formState.errors, "csv")}>
          {(control) => (
            <textarea
              {...control}
              aria-describedby={[control["aria-describedby"], rowErrors.length ? "csv-errors" : ""].filter(Boolean).join(" ") || undefined}
              aria-invalid={control["aria-invalid"] ?? (rowErrors.length ? true : undefined)}
              className={`${inputClass} min-h-40 font-mono text-xs`}
              maxLength={MAX_CSV_CHARS}
              spellCheck={false}
              placeholder={template}
              {...form.register("csv")}
            />
          )}
        </Field>
        {rowErrors.length ? (
          <ul id="csv-errors" className="max-h-64 list-disc space-y-0.5 overflow-y-auto pl-5 text-xs font-medium text-red-700" data-testid="csv-errors">
            {rowErrors.map((error) => (
              <li key={error.path} data-field={error.path}>
                {error.message}
              </li>
            ))}
          </ul>
        ) : null}
        {result ? (
          <Notice tone="success">
            <span data-testid="csv-imported">
              Imported {plural(result.imported, "question")}
              {result.created_domains.length ? `; new domains: ${result.created_domains.join(", ")}` : ""}.
            </span>
          </Notice>
        ) : null}
      </ApiForm>
    </Card>
  );
}
