import type { z } from "zod";
import { formErrorMap } from "./issue-messages";

/**
 * Checks a form's body with a contract's own schema and keeps the body as it is: the
 * server's rules, with their errors at the body's paths, but the value stays what a client
 * sends (`z.input`, e.g. a date as its ISO string), since the server parses it again.
 * Use as `.superRefine(checkedBy(createCtfInput))` after the form's transform, when the form
 * has no checks of its own (else `toCheckedBody`).
 */
export function checkedBy<S extends z.ZodType>(schema: S) {
  return (body: z.input<S>, ctx: z.RefinementCtx<z.input<S>>): void => {
    const parsed = schema.safeParse(body, { error: formErrorMap });
    if (parsed.success) return;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  };
}

/** A problem the form finds itself; `covers`: the body's paths where the contract would report the same problem again. */
export type FormProblem = { path: PropertyKey[]; message: string; covers?: string[] };

/**
 * A form's values → the contract's body, with every problem reported in one pass: the form's
 * own (`own`: a certification not chosen, a line of a textarea that is no address), the
 * contract's at the body's paths, and, once the body is well-formed, the rules the server
 * applies next (`rules`). Use as `.transform(toCheckedBody(…))`. A zod transform is skipped once
 * a check before it has failed, so own checks in a `superRefine` before the transform made a form
 * report in rounds. One message per problem: a path already reported (or covered) is not
 * reported again. The problems are listed in the form's order of fields (`order`, top-level
 * names; default: the body's own order).
 */
export function toCheckedBody<V, S extends z.ZodType>(
  contract: S,
  toBody: (values: V) => z.input<S>,
  { own, rules, order }: { own?: (values: V) => FormProblem[]; rules?: (body: z.output<S>) => FormProblem[]; order?: readonly string[] } = {},
) {
  return (values: V, ctx: z.RefinementCtx<V>): z.input<S> => {
    const body = toBody(values);
    const problems: FormProblem[] = [];
    const reported = new Set<string>();
    const report = (problem: FormProblem) => {
      const key = problem.path.map(String).join(".");
      if (reported.has(key)) return;
      for (const covered of [key, ...(problem.covers ?? [])]) reported.add(covered);
      problems.push(problem);
    };
    for (const problem of own?.(values) ?? []) report(problem);
    const parsed = contract.safeParse(body, { error: formErrorMap });
    if (!parsed.success) for (const issue of parsed.error.issues) report({ path: issue.path, message: issue.message });
    else for (const problem of rules?.(parsed.data) ?? []) report(problem);
    const fields = order ?? Object.keys(body as object);
    const rank = (problem: FormProblem) => {
      const index = fields.indexOf(String(problem.path[0]));
      return index === -1 ? fields.length : index;
    };
    for (const { path, message } of problems.sort((a, b) => rank(a) - rank(b))) ctx.addIssue({ code: "custom", path, message });
    return body;
  };
}
