"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { sendTextFile } from "@/components/api";
import type { RequestError } from "@/components/fetch-json";
import { plural } from "@/components/tests/format";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { queryKeys } from "@/components/query-keys";
import type { DomainView } from "@/lib/certification/catalog/schemas";
import { MAX_BANK_FILE_BYTES, ownCertificationContracts } from "@/lib/certification/own/contracts";
import { bankFormats, type BankFormat } from "@/lib/certification/own/formats/types";
import type { ImportReport } from "@/lib/certification/own/schemas";

export const formatLabels: Record<BankFormat, string> = { csv: "CSV", gift: "GIFT (Moodle)", moodle_xml: "Moodle XML", aiken: "Aiken" };
const accepts: Record<BankFormat, string> = { csv: ".csv,text/csv,text/plain", gift: ".txt,.gift,text/plain", moodle_xml: ".xml,application/xml,text/xml", aiken: ".txt,text/plain" };
const csvHeader = "domain,question,option_a,option_b,option_c,option_d,correct,explanation";
const formatHints: Record<BankFormat, string> = {
  csv: `Header ${csvHeader} (up to option_h), then a question per row; correct is a letter, or several joined by ";" (A;C) for a multiple-response question.`,
  gift: "Moodle's text format: {=right ~wrong}, weighted answers {~%50%A ~%50%B} for multiple-response, {T}/{F}; $CATEGORY: lines become domains, feedback the explanation.",
  moodle_xml: "A Moodle question export (.xml): multiple-choice and true/false questions; categories become domains, general feedback the explanation.",
  aiken: "A question per block: the question line, options A. B. C. …, then ANSWER: B. Single-answer questions only.",
};

/**
 * Imports a question bank (CSV, GIFT, Moodle XML or Aiken) in two steps: Check reads the file on
 * the server without writing (a dry run) and shows what would go where and what would be
 * skipped, and why; Import writes it. Changing the file or a setting asks for a new check.
 */
export function BankImport({ certificationId, domains }: { certificationId: number; domains: DomainView[] }) {
  const client = useQueryClient();
  const id = useId();
  const [format, setFormat] = useState<BankFormat>("csv");
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState("");
  const [domainId, setDomainId] = useState("");
  const source = file ?? (text.trim() ? text : null);
  const send = (dryRun: boolean) =>
    sendTextFile(ownCertificationContracts.import, {
      params: { id: certificationId },
      query: { format, dry_run: String(dryRun), domain_id: domainId || undefined },
      file: source!,
    });
  const check = useMutation<ImportReport, RequestError>({ mutationFn: () => send(true) });
  const write = useMutation<ImportReport, RequestError>({
    mutationFn: () => send(false),
    onSuccess: () => {
      setFile(null);
      setText("");
      check.reset();
      client.invalidateQueries({ queryKey: queryKeys.ownCertification(certificationId) });
      client.invalidateQueries({ queryKey: queryKeys.ownQuestions(certificationId) });
      client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
      client.invalidateQueries({ queryKey: queryKeys.certification(certificationId) });
    },
  });
  const changed = () => {
    check.reset();
    write.reset();
  };
  const error = check.error ?? write.error;
  const report = check.data;

  return (
    <Card>
      <h2 className="font-semibold">Import questions</h2>
      <p className="mt-1 text-sm text-slate-600">
        From a file in one of four formats. Check shows what would be imported before anything is written; questions of types we do not deliver (essay, matching, numerical,
        short answer, cloze) are listed as skipped. Up to 2000 questions and {Math.round(MAX_BANK_FILE_BYTES / 1024 / 1024)} MB per file.
      </p>
      <ImportChoices
        id={id}
        format={format}
        domainId={domainId}
        domains={domains}
        onFormat={(value) => {
          setFormat(value);
          changed();
        }}
        onDomain={(value) => {
          setDomainId(value);
          changed();
        }}
      />
      <ImportSource
        id={id}
        format={format}
        file={file}
        text={text}
        onFile={(value) => {
          setFile(value);
          changed();
        }}
        onText={(value) => {
          setText(value);
          changed();
        }}
      />
      <div className="mt-4 flex flex-wrap gap-3">
        <Button variant="secondary" disabled={!source || check.isPending} onClick={() => check.mutate()} data-testid="bank-check">
          {check.isPending ? "Checking…" : "Check file"}
        </Button>
        {report && report.imported > 0 && !write.data ? (
          <Button disabled={write.isPending} onClick={() => write.mutate()} data-testid="bank-import">
            {write.isPending ? "Importing…" : `Import ${plural(report.imported, "question")}`}
          </Button>
        ) : null}
      </div>
      <div className="mt-4 space-y-3" aria-live="polite">
        {error ? (
          <Notice tone="error">
            <span data-testid="bank-error">
              {error.message}
              {error.fields?.length ? ` ${error.fields.map((field) => field.message).join(" ")}` : ""}
            </span>
          </Notice>
        ) : null}
        {write.data ? (
          <Notice tone="success">
            <span data-testid="bank-imported">
              Imported {plural(write.data.imported, "question")}
              {write.data.domains.some((domain) => domain.created)
                ? `; new domains: ${write.data.domains
                    .filter((domain) => domain.created)
                    .map((domain) => domain.name)
                    .join(", ")}`
                : ""}
              .
            </span>
          </Notice>
        ) : null}
        {report && !write.data ? <ImportPreview report={report} /> : null}
      </div>
    </Card>
  );
}

/** The format, and the domain for questions the file puts in no category. */
function ImportChoices(props: {
  id: string;
  format: BankFormat;
  domainId: string;
  domains: DomainView[];
  onFormat: (format: BankFormat) => void;
  onDomain: (domainId: string) => void;
}) {
  const { id, format, domainId, domains, onFormat, onDomain } = props;
  return (
    <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
      <div className="space-y-1">
        <label htmlFor={`${id}-format`} className="block text-sm font-medium text-slate-700">
          Format
        </label>
        <select
          id={`${id}-format`}
          className={inputClass}
          value={format}
          aria-describedby={`${id}-format-hint`}
          data-testid="bank-format"
          onChange={(event) => onFormat(event.target.value as BankFormat)}
        >
          {bankFormats.map((value) => (
            <option key={value} value={value}>
              {formatLabels[value]}
            </option>
          ))}
        </select>
        <p id={`${id}-format-hint`} className="wrap-anywhere text-xs text-slate-500">
          {formatHints[format]}
        </p>
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-domain`} className="block text-sm font-medium text-slate-700">
          Domain for questions without a category
        </label>
        <select
          id={`${id}-domain`}
          className={inputClass}
          value={domainId}
          onChange={(event) => onDomain(event.target.value)}
        >
          <option value="">“General” (made when needed)</option>
          {domains.map((domain) => (
            <option key={domain.id} value={domain.id}>
              {domain.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** The file, or its text pasted (when no file is chosen). */
function ImportSource(props: { id: string; format: BankFormat; file: File | null; text: string; onFile: (file: File | null) => void; onText: (text: string) => void }) {
  const { id, format, file, text, onFile, onText } = props;
  return (
    <>
      <div className="mt-4 space-y-1">
        <label htmlFor={`${id}-file`} className="block text-sm font-medium text-slate-700">
          File
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept={accepts[format]}
          data-testid="bank-file"
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-50"
          onChange={(event) => onFile(event.target.files?.[0] ?? null)}
        />
      </div>
      {file ? null : (
        <div className="mt-4 space-y-1">
          <label htmlFor={`${id}-text`} className="block text-sm font-medium text-slate-700">
            Or paste the file&apos;s text
          </label>
          <textarea
            id={`${id}-text`}
            data-testid="bank-text"
            className={`${inputClass} min-h-32 font-mono text-xs`}
            spellCheck={false}
            value={text}
            onChange={(event) => onText(event.target.value)}
          />
        </div>
      )}
    </>
  );
}

function ImportPreview({ report }: { report: ImportReport }) {
  return (
    <div className="space-y-3 rounded-md border border-slate-200 p-3 text-sm" data-testid="bank-preview">
      <p className="font-medium">
        {report.imported ? `${plural(report.imported, "question")} can be imported` : "Nothing in this file can be imported"}
        {report.skipped.length ? `; ${report.skipped.length} skipped` : ""}. Nothing has been written yet.
      </p>
      {report.domains.length ? (
        <ul className="list-disc space-y-0.5 pl-5">
          {report.domains.map((domain) => (
            <li key={domain.name} data-testid="bank-preview-domain">
              {domain.name}
              {domain.created ? " (new domain)" : ""}: {plural(domain.questions, "question")}
            </li>
          ))}
        </ul>
      ) : null}
      {report.skipped.length ? (
        <div>
          <p className="font-medium">Skipped</p>
          <ul className="max-h-64 list-disc space-y-0.5 overflow-y-auto pl-5 text-xs" data-testid="bank-skipped">
            {report.skipped.map((item, index) => (
              <li key={index}>
                Line {item.line}
                {item.name ? ` (${item.name})` : ""}: {item.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** Links that download the certification's questions in each format. */
export function BankExport({ certificationId }: { certificationId: number }) {
  return (
    <Card>
      <h2 className="font-semibold">Export questions</h2>
      <p className="mt-1 text-sm text-slate-600">
        Every question with its domain and explanation, for Moodle or another workspace. Aiken holds single-answer questions only, without domains or explanations.
      </p>
      <ul className="mt-3 flex flex-wrap gap-3 text-sm">
        {bankFormats.map((format) => (
          <li key={format}>
            <a
              className="font-medium text-brand-700 underline underline-offset-2"
              href={`/api/v1/certifications/${certificationId}/export?format=${format}`}
              download
              data-testid={`bank-export-${format}`}
            >
              {formatLabels[format]}
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}
