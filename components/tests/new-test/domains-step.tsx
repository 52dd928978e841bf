"use client";

import { errorAt, FieldMessage } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import type { DomainView } from "@/lib/certification/catalog/schemas";
import { plural } from "../format";
import type { NewTestFormApi } from "./schema";

/** 2. Domains: the certification's domains, those with questions ticked by default. */
export function DomainsStep({
  form,
  domains,
  loading,
  error,
}: {
  form: NewTestFormApi;
  domains: DomainView[];
  loading: boolean;
  error?: string;
}) {
  const chosen = form.watch("certification_id");
  const ticked = new Set(form.watch("domains"));
  const usable = domains.filter((d) => d.questions > 0);
  // Ticked domains stay in the certification's order, whatever order they were ticked in.
  const setTicked = (ids: Set<number>) =>
    form.setValue(
      "domains",
      domains.filter((d) => ids.has(d.id)).map((d) => d.id),
      { shouldValidate: form.formState.isSubmitted, shouldDirty: true },
    );
  const fieldError = errorAt(form.formState.errors, "domains");
  const tickedDomains = domains.filter((d) => ticked.has(d.id));

  return (
    <Card>
      <fieldset aria-describedby={fieldError ? "domains-error" : undefined}>
        <legend className="font-semibold">2. Domains</legend>
        {chosen === undefined ? <p className="mt-2 text-sm text-slate-600">Choose a certification first.</p> : null}
        {loading ? <p className="mt-2 text-sm text-slate-600">Loading domains…</p> : null}
        {error ? (
          <div className="mt-2">
            <Notice tone="error">{error}</Notice>
          </div>
        ) : null}
        {domains.length ? (
          <>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button type="button" variant="ghost" className="px-2 py-1" onClick={() => setTicked(new Set(usable.map((d) => d.id)))}>
                Tick all
              </Button>
              <Button type="button" variant="ghost" className="px-2 py-1" onClick={() => setTicked(new Set())}>
                Untick all
              </Button>
            </div>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {domains.map((domain) => (
                <label key={domain.id} className={`flex items-start gap-2 text-sm ${domain.questions ? "" : "text-slate-400"}`}>
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={ticked.has(domain.id)}
                    disabled={domain.questions === 0}
                    onChange={(e) => {
                      const next = new Set(ticked);
                      if (e.target.checked) next.add(domain.id);
                      else next.delete(domain.id);
                      setTicked(next);
                    }}
                  />
                  <span>
                    {domain.name} <span className="text-slate-600">({plural(domain.questions, "question")})</span>
                  </span>
                </label>
              ))}
            </div>
            <p className="mt-2 text-xs text-slate-500" aria-live="polite">
              {plural(tickedDomains.length, "domain")} ticked · {tickedDomains.reduce((sum, d) => sum + d.questions, 0)} questions available
            </p>
          </>
        ) : null}
        <FieldMessage id="domains-error" error={fieldError} />
      </fieldset>
    </Card>
  );
}
