"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import type { NewTestFormApi } from "./schema";

/**
 * A certification's "Create a test" (its preview and its editor) links to /tests/new?certification=ID:
 * that certification is chosen, with its domains ticked, as a click on it would, once on arrival;
 * the trainer may choose another afterwards. A copy or a class brings its own (`skip`); an id that
 * is not one of the trainer's certifications leaves the step blank.
 */
export function useLinkedCertification(form: NewTestFormApi, chooseCertification: (id: number) => Promise<void>, skip: boolean) {
  const linked = useSearchParams().get("certification");
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || skip || !linked || !/^\d{1,9}$/.test(linked)) return;
    applied.current = true;
    chooseCertification(Number(linked)).catch(() => form.resetField("certification_id"));
  }, [linked, skip, form, chooseCertification]);
}
