"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { fetchJson } from "@/components/fetch-json";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import type { Page } from "@/lib/api/paging";
import type { CertificationDetail, CertificationSummary, DomainView } from "@/lib/certification/schemas";
import type { ClassSummaryView } from "@/lib/classes/schemas";
import { queryKeys } from "@/lib/query-keys";
import { splitEvenly } from "@/lib/tests/draw";
import { MAX_QUESTIONS, type CreateTestInput, type TestView } from "@/lib/tests/schemas";
import { plural } from "./format";
import { parseRecipients, type ParsedRecipient } from "./parse-recipients";
import { RecipientsInput } from "./recipients-input";
import { RequestErrorNotice } from "./request-error";
import { useUsage } from "./usage";

type QuestionMode = "equal" | "per-domain";
type RecipientMode = "people" | "class";

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

const certificationsUrl = (filters: { vendor?: string; search?: string }) => {
  const params = new URLSearchParams({ per_page: "100" });
  if (filters.vendor) params.set("vendor", filters.vendor);
  if (filters.search) params.set("search", filters.search);
  return `/api/app/certifications?${params}`;
};

const toCount = (value: string | undefined): number | null => (value && /^\d+$/.test(value.trim()) ? Number(value) : null);

/** Certification → domains → questions → recipients (people or a class) → create. */
/** `initialClassId` preselects "send to a class" (the class page links here with ?class=). */
export function NewTestForm({ initialClassId }: { initialClassId?: string } = {}) {
  const router = useRouter();
  const client = useQueryClient();
  const usage = useUsage();

  // 1. Certification
  const [search, setSearch] = useState("");
  const [vendor, setVendor] = useState("");
  const debouncedSearch = useDebounced(search.trim(), 250);
  const filters = { vendor: vendor || undefined, search: debouncedSearch || undefined };
  const all = useQuery({
    queryKey: queryKeys.certifications({}),
    queryFn: () => fetchJson<Page<CertificationSummary>>(certificationsUrl({})),
  });
  const list = useQuery({
    queryKey: queryKeys.certifications(filters),
    queryFn: () => fetchJson<Page<CertificationSummary>>(certificationsUrl(filters)),
    placeholderData: keepPreviousData,
  });
  const vendors = useMemo(() => [...new Set(all.data?.data.map((c) => c.vendor) ?? [])].sort(), [all.data]);
  const [certificationId, setCertificationId] = useState<number | null>(null);
  const certification = useQuery({
    queryKey: queryKeys.certification(certificationId ?? 0),
    queryFn: () => fetchJson<CertificationDetail>(`/api/app/certifications/${certificationId}`),
    enabled: certificationId !== null,
  });

  // 2. Domains (null: every domain that has questions)
  const [picked, setPicked] = useState<number[] | null>(null);
  const domains: DomainView[] = useMemo(() => certification.data?.domains ?? [], [certification.data]);
  const usable = useMemo(() => domains.filter((d) => d.questions > 0), [domains]);
  const pickedIds = useMemo(() => new Set(picked ?? usable.map((d) => d.id)), [picked, usable]);
  const ticked = useMemo(() => domains.filter((d) => pickedIds.has(d.id)), [domains, pickedIds]);

  // 3. Questions
  const [mode, setMode] = useState<QuestionMode>("equal");
  const [total, setTotal] = useState("10");
  const [perDomain, setPerDomain] = useState<Record<number, string>>({});
  const totalCount = toCount(total);
  const split = useMemo(
    () =>
      totalCount && ticked.length
        ? splitEvenly(
            totalCount,
            ticked.map((d) => d.id),
          )
        : new Map<number, number>(),
    [totalCount, ticked],
  );
  const perDomainCounts = ticked.map((d) => ({ domain: d, count: toCount(perDomain[d.id] ?? String(Math.min(5, d.questions))) }));
  const perDomainTotal = perDomainCounts.reduce((sum, entry) => sum + (entry.count ?? 0), 0);

  // 4. Recipients
  const [recipientMode, setRecipientMode] = useState<RecipientMode>(initialClassId ? "class" : "people");
  const [text, setText] = useState("");
  const parsed = useMemo(() => parseRecipients(text), [text]);
  const [classId, setClassId] = useState(initialClassId ?? "");
  const classes = useQuery({
    queryKey: queryKeys.classOptions(),
    queryFn: () => fetchJson<Page<ClassSummaryView>>("/api/app/classes?per_page=100"),
    enabled: recipientMode === "class",
  });
  const chosenClass = classes.data?.data.find((c) => String(c.id) === classId);
  const [sendEmail, setSendEmail] = useState(true);

  const seats = usage.data?.limits.seats;
  const plan = usage.data?.plan;
  const headcount = recipientMode === "people" ? parsed.recipients.length : (chosenClass?.students ?? 0);
  const overSeats = seats !== undefined && headcount > seats;

  // 5. Create
  const [problems, setProblems] = useState<string[]>([]);
  const [sent, setSent] = useState<{ recipients: ParsedRecipient[]; domains: DomainView[] }>({ recipients: [], domains: [] });
  const create = useMutation({
    mutationFn: (body: CreateTestInput) => fetchJson<TestView>("/api/app/tests", { method: "POST", body: JSON.stringify(body) }),
    onSuccess: (test) => {
      client.invalidateQueries({ queryKey: queryKeys.tests() });
      client.setQueryData(queryKeys.test(test.code), test);
      router.push(`/tests/${test.code}`);
    },
  });

  function chooseCertification(id: number) {
    setCertificationId(id);
    setPicked(null);
    setPerDomain({});
    create.reset();
  }

  function toggleDomain(id: number, on: boolean) {
    const current = [...pickedIds];
    setPicked(on ? [...current, id] : current.filter((d) => d !== id));
  }

  function submit() {
    const found: string[] = [];
    if (certificationId === null) found.push("Choose a certification.");
    if (certificationId !== null && !ticked.length) found.push("Tick at least one domain.");
    if (mode === "equal" && (!totalCount || totalCount < 1)) found.push("Give the number of questions (a whole number, 1 or more).");
    if (mode === "per-domain" && perDomainCounts.some((e) => !e.count))
      found.push("Give a number of questions (1 or more) for every ticked domain.");
    if (recipientMode === "people") {
      if (parsed.invalid.length) found.push("Fix or remove the recipient entries that are not addresses.");
      else if (!parsed.recipients.length) found.push("Give at least one e-mail address.");
    } else if (!classId) found.push("Choose a class.");
    setProblems(found);
    create.reset();
    if (found.length || certificationId === null) return;

    const body: CreateTestInput = { certification_id: certificationId, send_email: sendEmail };
    if (mode === "equal") {
      body.domains = ticked.map((d) => d.id);
      body.questions = totalCount!;
    } else {
      body.questions_per_domain = perDomainCounts.map((e) => ({ domain_id: e.domain.id, questions: e.count! }));
    }
    if (recipientMode === "people") body.recipients = parsed.recipients;
    else body.class_id = Number(classId);
    setSent({ recipients: recipientMode === "people" ? parsed.recipients : [], domains: ticked });
    create.mutate(body);
  }

  const label = (field: string): string => {
    const [head, index] = field.split(".");
    const domain = index !== undefined ? sent.domains[Number(index)] : undefined;
    switch (head) {
      case "certification_id":
        return "Certification";
      case "domains":
        return domain ? `Domain ${domain.name}` : "Domains";
      case "questions":
        return "Questions";
      case "questions_per_domain":
        return domain ? `Questions for ${domain.name}` : "Questions per domain";
      case "recipients": {
        const person = index !== undefined ? sent.recipients[Number(index)] : undefined;
        return person ? `Recipient ${person.email}` : index !== undefined ? `Recipient ${Number(index) + 1}` : "Recipients";
      }
      case "class_id":
        return "Class";
      case "send_email":
        return "Send e-mails";
      default:
        return field;
    }
  };

  const certificationList = list.data?.data ?? [];
  const selectedSummary = certification.data ?? all.data?.data.find((c) => c.id === certificationId);

  return (
    <form
      className="space-y-6"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {/* 1. Certification */}
      <Card>
        <fieldset>
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
              <label htmlFor="certification-vendor" className="block text-sm font-medium text-slate-700">
                Vendor
              </label>
              <select id="certification-vendor" className={inputClass} value={vendor} onChange={(e) => setVendor(e.target.value)}>
                <option value="">All vendors</option>
                {vendors.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            </div>
          </div>
          {selectedSummary ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="selected-certification">
              Selected: <span className="font-medium">{selectedSummary.name}</span>
            </p>
          ) : null}
          <div className="mt-3 max-h-80 overflow-y-auto rounded-md border border-slate-200" aria-busy={list.isFetching}>
            {list.isLoading ? <p className="p-3 text-sm text-slate-600">Loading…</p> : null}
            {list.error ? (
              <div className="p-3">
                <Notice tone="error">{list.error.message}</Notice>
              </div>
            ) : null}
            {list.data && certificationList.length === 0 ? <p className="p-3 text-sm text-slate-600">No certification matches.</p> : null}
            <ul className="divide-y divide-slate-100">
              {certificationList.map((c) => (
                <li key={c.id}>
                  <label
                    className={`flex items-start gap-3 px-3 py-2 text-sm ${c.questions ? "cursor-pointer hover:bg-slate-50" : "text-slate-400"}`}
                  >
                    <input
                      type="radio"
                      name="certification"
                      className="mt-1"
                      value={c.id}
                      checked={certificationId === c.id}
                      disabled={c.questions === 0}
                      onChange={() => chooseCertification(c.id)}
                    />
                    <span className="min-w-0">
                      <span className="block font-medium">{c.name}</span>
                      <span className="block text-xs text-slate-500">
                        {c.vendor}
                        {c.code ? ` · ${c.code}` : ""} · {plural(c.domains, "domain")} ·{" "}
                        {c.questions ? plural(c.questions, "question") : "no questions yet"}
                        {c.own ? " · Yours" : ""}
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </div>
          {list.data && list.data.pagination.total > certificationList.length ? (
            <p className="mt-2 text-xs text-slate-500">
              Showing {certificationList.length} of {list.data.pagination.total}: narrow the search to find others.
            </p>
          ) : null}
        </fieldset>
      </Card>

      {/* 2. Domains */}
      <Card>
        <fieldset>
          <legend className="font-semibold">2. Domains</legend>
          {certificationId === null ? <p className="mt-2 text-sm text-slate-600">Choose a certification first.</p> : null}
          {certification.isLoading ? <p className="mt-2 text-sm text-slate-600">Loading domains…</p> : null}
          {certification.error ? (
            <div className="mt-2">
              <Notice tone="error">{certification.error.message}</Notice>
            </div>
          ) : null}
          {domains.length ? (
            <>
              <div className="mt-2 flex flex-wrap gap-2">
                <Button type="button" variant="ghost" className="px-2 py-1" onClick={() => setPicked(usable.map((d) => d.id))}>
                  Tick all
                </Button>
                <Button type="button" variant="ghost" className="px-2 py-1" onClick={() => setPicked([])}>
                  Untick all
                </Button>
              </div>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {domains.map((domain) => (
                  <label key={domain.id} className={`flex items-start gap-2 text-sm ${domain.questions ? "" : "text-slate-400"}`}>
                    <input
                      type="checkbox"
                      className="mt-1"
                      checked={pickedIds.has(domain.id)}
                      disabled={domain.questions === 0}
                      onChange={(e) => toggleDomain(domain.id, e.target.checked)}
                    />
                    <span>
                      {domain.name} <span className="text-slate-500">({plural(domain.questions, "question")})</span>
                    </span>
                  </label>
                ))}
              </div>
              <p className="mt-2 text-xs text-slate-500" aria-live="polite">
                {plural(ticked.length, "domain")} ticked · {ticked.reduce((sum, d) => sum + d.questions, 0)} questions available
              </p>
            </>
          ) : null}
        </fieldset>
      </Card>

      {/* 3. Questions */}
      <Card>
        <fieldset>
          <legend className="font-semibold">3. Questions</legend>
          <fieldset className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            <legend className="sr-only">How the questions are chosen</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="question-mode" checked={mode === "equal"} onChange={() => setMode("equal")} />
              Equal split
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="question-mode" checked={mode === "per-domain"} onChange={() => setMode("per-domain")} />
              Per domain
            </label>
          </fieldset>
          {ticked.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">
              {certificationId === null ? "Choose a certification first." : "Tick at least one domain."}
            </p>
          ) : null}
          {mode === "equal" && ticked.length ? (
            <div className="mt-3 space-y-2">
              <div className="max-w-48 space-y-1">
                <label htmlFor="question-total" className="block text-sm font-medium text-slate-700">
                  Total questions
                </label>
                <input
                  id="question-total"
                  type="number"
                  inputMode="numeric"
                  min={ticked.length}
                  max={MAX_QUESTIONS}
                  step={1}
                  className={inputClass}
                  value={total}
                  onChange={(e) => setTotal(e.target.value)}
                  aria-describedby="question-split"
                />
              </div>
              <div id="question-split" aria-live="polite" className="text-sm">
                {totalCount ? (
                  <>
                    <p className="text-slate-600">Split in equal parts; the remainder goes one each to the first domains:</p>
                    <ul className="mt-1 space-y-0.5" data-testid="question-split">
                      {ticked.map((domain) => {
                        const count = split.get(domain.id) ?? 0;
                        const short = count > domain.questions;
                        return (
                          <li key={domain.id} className={short || count === 0 ? "text-red-700" : "text-slate-700"}>
                            {domain.name}: <span className="font-medium tabular-nums">{count}</span>
                            {short ? ` — only ${domain.questions} available` : count === 0 ? " — gets none: ask for more questions" : ""}
                          </li>
                        );
                      })}
                    </ul>
                    {totalCount > MAX_QUESTIONS ? <p className="mt-1 text-red-700">At most {MAX_QUESTIONS} questions per test.</p> : null}
                  </>
                ) : (
                  <p className="text-slate-600">Give a whole number of questions.</p>
                )}
              </div>
            </div>
          ) : null}
          {mode === "per-domain" && ticked.length ? (
            <div className="mt-3 space-y-2">
              <div className="grid gap-3 sm:grid-cols-2">
                {perDomainCounts.map(({ domain, count }) => {
                  const max = Math.min(domain.questions, MAX_QUESTIONS);
                  const wrong = count === null || count < 1 || count > max;
                  return (
                    <div key={domain.id} className="space-y-1">
                      <label htmlFor={`domain-questions-${domain.id}`} className="block text-sm font-medium text-slate-700">
                        <span className="sr-only">Questions from </span>
                        {domain.name}
                      </label>
                      <input
                        id={`domain-questions-${domain.id}`}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={max}
                        step={1}
                        className={inputClass}
                        value={perDomain[domain.id] ?? String(Math.min(5, domain.questions))}
                        onChange={(e) => setPerDomain((current) => ({ ...current, [domain.id]: e.target.value }))}
                        aria-invalid={wrong || undefined}
                        aria-describedby={`domain-questions-${domain.id}-hint`}
                      />
                      <p id={`domain-questions-${domain.id}-hint`} className={`text-xs ${wrong ? "text-red-700" : "text-slate-500"}`}>
                        1 to {max} ({domain.questions} available)
                      </p>
                    </div>
                  );
                })}
              </div>
              <p className="text-sm text-slate-700" aria-live="polite">
                Total: <span className="font-medium tabular-nums">{perDomainTotal}</span> questions
              </p>
            </div>
          ) : null}
        </fieldset>
      </Card>

      {/* 4. Recipients */}
      <Card>
        <fieldset>
          <legend className="font-semibold">4. Recipients</legend>
          <p className="mt-1 text-sm text-slate-600" data-testid="plan-seats">
            {seats !== undefined ? (
              <>
                Seats: {seats} recipients per test on the <span className="font-medium">{plan}</span> plan.
              </>
            ) : (
              " "
            )}
          </p>
          <fieldset className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            <legend className="sr-only">Send to</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="recipient-mode" checked={recipientMode === "people"} onChange={() => setRecipientMode("people")} />
              People
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="recipient-mode" checked={recipientMode === "class"} onChange={() => setRecipientMode("class")} />
              Class
            </label>
          </fieldset>
          <div className="mt-3">
            {recipientMode === "people" ? (
              <RecipientsInput
                id="test-recipients"
                value={text}
                onChange={setText}
                parsed={parsed}
                seatsNote={seats !== undefined ? `${seats} seats${overSeats ? ": too many for your plan" : ""}` : undefined}
              />
            ) : (
              <div className="space-y-1">
                <label htmlFor="test-class" className="block text-sm font-medium text-slate-700">
                  Which class
                </label>
                <select
                  id="test-class"
                  className={inputClass}
                  value={classId}
                  onChange={(e) => setClassId(e.target.value)}
                  aria-describedby="test-class-hint"
                >
                  <option value="">{classes.isLoading ? "Loading classes…" : "Choose a class"}</option>
                  {classes.data?.data.map((c) => (
                    <option key={c.id} value={c.id} disabled={c.students === 0}>
                      {c.name} — {c.certification} ({c.students === 0 ? "no joined students yet" : plural(c.students, "student")})
                    </option>
                  ))}
                </select>
                <p id="test-class-hint" className={`text-xs ${overSeats ? "text-red-700" : "text-slate-500"}`}>
                  {chosenClass
                    ? `Sent to its ${plural(chosenClass.students, "joined student")}${
                        chosenClass.pending_invitations
                          ? `, not to its ${plural(chosenClass.pending_invitations, "pending invitation")}`
                          : ""
                      }${overSeats ? `: more than the ${seats} seats of your plan` : ""}.`
                    : "The test goes to every student who has joined the class."}
                </p>
                {classes.data?.data.length === 0 ? (
                  <p className="text-sm text-slate-600">
                    No classes yet.{" "}
                    <Link href="/classes" className="text-brand-700 underline">
                      Create one under Classes
                    </Link>
                    .
                  </p>
                ) : null}
                {classes.error ? <Notice tone="error">{classes.error.message}</Notice> : null}
              </div>
            )}
          </div>
          <div className="mt-4">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={sendEmail}
                onChange={(e) => setSendEmail(e.target.checked)}
                aria-describedby="send-email-hint"
              />
              Send e-mails
            </label>
            <p id="send-email-hint" className="ml-6 text-xs text-slate-500">
              Unticked: nothing is e-mailed; you share each personal link yourself from the test page.
            </p>
          </div>
        </fieldset>
      </Card>

      <div className="space-y-3">
        {problems.length ? (
          <Notice tone="error">
            <ul className="list-disc space-y-0.5 pl-5">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {create.error ? <RequestErrorNotice error={create.error} label={label} /> : null}
        <Button type="submit" disabled={create.isPending || create.isSuccess}>
          {create.isPending ? "Creating…" : create.isSuccess ? "Opening the test…" : "Create test"}
        </Button>
      </div>
    </form>
  );
}
