"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { callApi } from "@/components/api";
import { classContracts } from "@/lib/certification/classes/contracts";
import type { ClassSummaryView } from "@/lib/certification/classes/schemas";
import { queryKeys } from "@/components/query-keys";
import type { NewTestFormApi } from "./schema";

/**
 * A test sent to a class uses the class's certification: choosing a class (or arriving from
 * a class's page with ?class=) chooses its certification and that certification's domains,
 * once per class chosen. Another certification picked afterwards stays the trainer's choice;
 * the certification step says it will be refused (and the API answers 422 beside it).
 * Returns the chosen class, if any.
 */
export function useClassCertification(form: NewTestFormApi, chooseCertification: (id: number) => void): ClassSummaryView | undefined {
  const mode = form.watch("recipientMode");
  const classId = form.watch("class_id");
  // The same list (and cache entry) as the recipients step's class select.
  const classes = useQuery({
    queryKey: queryKeys.classOptions(),
    queryFn: () => callApi(classContracts.list, { query: { per_page: 100 } }),
    enabled: mode === "class",
  });
  const chosen = mode === "class" ? classes.data?.data.find((c) => String(c.id) === classId) : undefined;
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!chosen || applied.current === classId) return;
    applied.current = classId;
    if (form.getValues("certification_id") !== chosen.certification_id) chooseCertification(chosen.certification_id);
  }, [chosen, classId, form, chooseCertification]);
  return chosen;
}

/** What the certification step says about the chosen class's certification. */
export function classCertificationNote(klass: ClassSummaryView | undefined, certificationId: number | undefined): { tone: "info" | "warning"; text: string } | undefined {
  if (!klass) return undefined;
  if (certificationId === klass.certification_id) return { tone: "info", text: `The certification of the class ${klass.name}.` };
  return { tone: "warning", text: `The class ${klass.name} takes tests of ${klass.certification}: a test of another certification cannot be sent to it.` };
}
