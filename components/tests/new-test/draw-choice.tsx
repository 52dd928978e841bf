"use client";

import { Radio } from "@/components/forms/inputs";
import type { NewTestFormApi } from "./schema";

/**
 * Whether every recipient gets the same questions (`per_test`) or a set of their own drawn
 * from the ticked domains with the same count per domain (`per_recipient`), so answers do not
 * travel between them. Part of step 3: it is about which questions are asked.
 */
export function DrawChoice({ form }: { form: NewTestFormApi }) {
  return (
    <fieldset className="mt-4 space-y-2" aria-describedby="test-draw-hint">
      <legend className="text-sm font-medium text-slate-700">Who gets which questions</legend>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-x-6">
        <Radio form={form} name="draw" value="per_test">
          The same questions for everyone
        </Radio>
        <Radio form={form} name="draw" value="per_recipient">
          A different set per recipient
        </Radio>
      </div>
      <p id="test-draw-hint" className="text-xs text-slate-600">
        A different set: each recipient gets their own random questions, with the counts above per domain, drawn when they are sent the test. Each domain needs at
        least as many questions as its count.
      </p>
    </fieldset>
  );
}
