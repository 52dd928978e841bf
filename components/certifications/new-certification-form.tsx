"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { fetchJson } from "@/components/fetch-json";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClass, TextField } from "@/components/ui/field";
import type { CertificationDetail } from "@/lib/certification/schemas";
import { queryKeys } from "@/lib/query-keys";
import { certificationFieldLabel } from "./labels";

/** Domain names of the textarea: one per line, blank lines ignored. */
export function domainNames(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Creates an own certification (fields and domain names), then opens its editor. */
export function NewCertificationForm() {
  const router = useRouter();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [vendor, setVendor] = useState("");
  const [code, setCode] = useState("");
  const [description, setDescription] = useState("");
  const [domainText, setDomainText] = useState("");
  const domains = domainNames(domainText);

  const create = useMutation({
    mutationFn: () =>
      fetchJson<CertificationDetail>("/api/app/my-certifications", {
        method: "POST",
        body: JSON.stringify({ name, vendor, code, description, domains }),
      }),
    onSuccess: (certification) => {
      client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
      router.push(`/certifications/${certification.id}`);
    },
  });

  return (
    <Card>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <TextField label="Name" id="cert-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} placeholder="e.g. Acme Platform Basics" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Vendor" id="cert-vendor" value={vendor} onChange={(e) => setVendor(e.target.value)} required maxLength={100} placeholder="e.g. Acme Corp" />
          <TextField label="Exam code (optional)" id="cert-code" value={code} onChange={(e) => setCode(e.target.value)} maxLength={50} placeholder="e.g. ACME-101" />
        </div>
        <div className="space-y-1">
          <label htmlFor="cert-description" className="block text-sm font-medium text-slate-700">
            Description <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <textarea id="cert-description" className={`${inputClass} min-h-20`} value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div className="space-y-1">
          <label htmlFor="cert-domains" className="block text-sm font-medium text-slate-700">
            Domains
          </label>
          <textarea
            id="cert-domains"
            className={`${inputClass} min-h-28`}
            value={domainText}
            required
            onChange={(e) => setDomainText(e.target.value)}
            aria-describedby="cert-domains-hint"
            placeholder={"Accounts\nBilling\nSecurity"}
          />
          <p id="cert-domains-hint" className="text-xs text-slate-500">
            One domain per line ({domains.length} given). Add questions after creating, one by one or from a CSV file.
          </p>
        </div>
        {create.error ? <RequestErrorNotice error={create.error} label={(field) => certificationFieldLabel(field, domains)} /> : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create certification"}
        </Button>
      </form>
    </Card>
  );
}
