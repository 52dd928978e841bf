"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useDebounced, VendorFilter } from "@/components/certifications/catalog-filter";
import { callApi } from "@/components/api";
import { errorAt, FieldMessage } from "@/components/forms/field";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { certificationContracts } from "@/lib/certification/catalog/contracts";
import type { CertificationSummary } from "@/lib/certification/catalog/schemas";
import { queryKeys } from "@/components/query-keys";
import { plural } from "../format";
import type { NewTestFormApi } from "./schema";

const listCertifications = (filters: { vendor?: string; search?: string }) =>
  callApi(certificationContracts.list, { query: { per_page: 100, ...filters } });

/**
 * 1. Certification: the catalog and the trainer's own, filtered as the trainer types (the
 * list follows the vendor choice at once and the search box after a pause in the typing, as the catalog page does).
 */
export function CertificationStep({
  form,
  onChoose,
  note,
}: {
  form: NewTestFormApi;
  onChoose: (id: number) => void;
  /** About the certification of the class the test goes to (./class-certification.ts). */
  note?: { tone: "info" | "warning"; text: string };
}) {
  const [search, setSearch] = useState("");
  const [vendor, setVendor] = useState("");
  const deferredSearch = useDebounced(search.trim());
  const filters = { vendor: vendor || undefined, search: deferredSearch || undefined };
  const all = useQuery({ queryKey: queryKeys.certifications({}), queryFn: () => listCertifications({}) });
  const list = useQuery({ queryKey: queryKeys.certifications(filters), queryFn: () => listCertifications(filters), placeholderData: keepPreviousData });
  const vendors = useMemo(() => [...new Set(all.data?.data.map((c) => c.vendor) ?? [])].sort(), [all.data]);
  const chosen = form.watch("certification_id");
  const selected: CertificationSummary | undefined = all.data?.data.find((c) => c.id === chosen) ?? list.data?.data.find((c) => c.id === chosen);
  const certifications = list.data?.data ?? [];
  const error = errorAt(form.formState.errors, "certification_id");

  return (
    <Card>
      <fieldset aria-describedby={error ? "certification-error" : undefined}>
        <legend className="font-semibold">1. Certification</legend>
        <div className="mt-3 flex flex-wrap items-end gap-3" role="search">
          <div className="min-w-0 flex-1 basis-48">
            <label htmlFor="certification-search" className="block text-sm font-medium text-slate-700">
              Search
            </label>
            <input
              id="certification-search"
              type="search"
              className={inputClass}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Name, exam code…"
              autoComplete="off"
            />
          </div>
          <div className="min-w-0 basis-48">
            <VendorFilter id="certification-vendor" vendors={vendors} value={vendor} onChange={setVendor} />
          </div>
        </div>
        {selected ? (
          <p className="mt-3 text-sm text-slate-700" data-testid="selected-certification">
            Selected: <span className="font-medium">{selected.name}</span>
          </p>
        ) : null}
        {note ? (
          <p className={`mt-1 text-sm ${note.tone === "warning" ? "font-medium text-amber-800" : "text-slate-600"}`} data-testid="class-certification-note">
            {note.text}
          </p>
        ) : null}
        <FieldMessage id="certification-error" error={error} />
        <div className="mt-3 max-h-80 overflow-y-auto rounded-md border border-slate-200" aria-busy={list.isFetching}>
          {list.isLoading ? <p className="p-3 text-sm text-slate-600">Loading…</p> : null}
          {list.error ? (
            <div className="p-3">
              <Notice tone="error">{list.error.message}</Notice>
            </div>
          ) : null}
          {list.data && certifications.length === 0 ? <p className="p-3 text-sm text-slate-600">No certification matches.</p> : null}
          <ul className="divide-y divide-slate-100">
            {certifications.map((c) => (
              <li key={c.id}>
                <label className={`flex items-start gap-3 px-3 py-2 text-sm ${c.questions ? "cursor-pointer hover:bg-slate-50" : "text-slate-400"}`}>
                  <input
                    type="radio"
                    name="certification"
                    className="mt-1"
                    value={c.id}
                    checked={chosen === c.id}
                    disabled={c.questions === 0}
                    onChange={() => onChoose(c.id)}
                  />
                  <span className="min-w-0">
                    <span className="block font-medium">{c.name}</span>
                    <span className="block text-xs text-slate-500">
                      {c.vendor}
                      {c.code ? ` · ${c.code}` : ""} · {plural(c.domains, "domain")} · {c.questions ? plural(c.questions, "question") : "no questions yet"}
                      {c.own ? " · Yours" : ""}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </div>
        {list.data && list.data.pagination.total > certifications.length ? (
          <p className="mt-2 text-xs text-slate-500">
            Showing {certifications.length} of {list.data.pagination.total}: narrow the search to find others.
          </p>
        ) : null}
      </fieldset>
    </Card>
  );
}
